# What the refinement's stages share (R/search-stage.R): how far BOSS
# looks beyond the moral graph, a stage's row in the record of moves, and
# one BOSS run on the refinement's context.

test_that("with n <= d the order search looks beyond the moral graph up to twice as many variables", {
  ctrl <- calm_control()
  base <- ctrl$search$order_all_pairs
  expect_identical(calm:::order_all_pairs_limit(ctrl, n = 150, d = 300), 2 * base)
  expect_identical(calm:::order_all_pairs_limit(ctrl, n = 300, d = 300), 2 * base)
  expect_identical(calm:::order_all_pairs_limit(ctrl, n = 1000, d = 300), base)
  expect_identical(calm:::order_all_pairs_limit(ctrl, n = Inf, d = 300), base)
})

test_that("BOSS looks at every pair only beyond an estimated moral graph within the limit", {
  ctx <- list(ctrl = calm_control(), n = 1000, d = 20, extend = TRUE)
  expect_true(calm:::order_over_all_pairs(ctx))
  # a moral graph the user gave is respected
  expect_false(calm:::order_over_all_pairs(modifyList(ctx, list(extend = FALSE))))
  limit <- calm:::order_all_pairs_limit(ctx$ctrl, ctx$n, ctx$d)
  expect_true(calm:::order_over_all_pairs(modifyList(ctx, list(d = limit))))
  expect_false(calm:::order_over_all_pairs(modifyList(ctx, list(d = limit + 1))))
})

test_that("a stage's row has the record's columns and no pair", {
  row <- calm:::stage_move("exact", "exact search", -2.5)
  expect_identical(names(row), c("type", "from", "to", "clique", "delta"))
  expect_identical(nrow(row), 1L)
  expect_true(is.na(row$from) && is.na(row$to))
  expect_identical(row$clique, "exact search")
  expect_equal(row$delta, -2.5)
})

test_that("one BOSS run of the refinement is boss_run()'s without its DAG", {
  set.seed(41)
  sem <- simulate_sem(7, k = 1, n = 400)
  sigma <- stats::cov(sem$x)
  mask <- matrix(1, 7, 7, dimnames = dimnames(sigma)) - diag(7)
  ctrl <- calm_control()
  lambda <- bic_lambda(400, 2)
  ctx <- calm:::refine_context(sigma, mask, lambda, ctrl, n = 400, extend = FALSE, kn = NULL,
                               forward = FALSE)
  starts <- cbind(1:7, 7:1)
  r <- calm:::refine_boss(ctx, mask, starts, TRUE, 1, keep_graphs = TRUE)
  full <- calm:::boss_run(sigma, mask, lambda, starts, ctrl$search$max_sweeps,
                          ctrl$search$exact_parents_max, TRUE, 1, max_parents = ctx$mp,
                          keep_graphs = TRUE, progress = FALSE)
  expect_null(r$dag)
  expect_false(is.null(full$dag))
  expect_identical(r$cpdag, full$cpdag)
  expect_identical(r$score, full$score)
  expect_length(r$start_cpdags, 2L)
})
