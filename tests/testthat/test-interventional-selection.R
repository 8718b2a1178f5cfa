# The penalty's selection with interventional data: held-out scores on
# each variable's free rows, from the interventional moments.

test_that("without experiments the held-out score is the observational one", {
  set.seed(6220)
  sem <- simulate_sem(6, k = 1.5, n = 300)
  x <- sem$x
  train <- x[1:200, ]
  test <- x[201:300, ]
  dag <- (sem$B != 0) * 1
  tg <- list(targets = list(integer(0)), index = rep(1L, 200))
  mo <- calm:::interventional_moments(train, tg, FALSE)
  ours <- calm:::interventional_heldout(dag, mo, list(colMeans(train)), test,
                                        matrix(TRUE, 100, 6))
  theirs <- calm:::heldout_loglik(dag, calm:::data_cov(train), colMeans(train), test)
  expect_equal(ours, theirs, tolerance = 1e-10)
})

test_that("an intervened variable is scored only on its free rows, from its free rows", {
  set.seed(6221)
  sem <- simulate_sem(4, k = 1.5)
  sim <- simulate_interventions(sem, list(integer(0), "X2"), n = c(200, 100), mean = 5)
  x <- sim$x
  tg <- intervention_targets(sim$targets, sim$target_index, colnames(x), nrow(x))
  test <- c(1:50, 201:250)
  task <- calm:::interventional_fold_task(tg)
  mask <- matrix(1, 4, 4) - diag(4)
  ll <- task(list(test = test, starts = cbind(1:4, 4:1)), x, grid = 2, mask = mask,
             exact_limit = 14L)
  expect_true(is.finite(ll))
  # by hand for the empty graph: X2 on its 50 free held-out rows, with the
  # mean and variance of its free training rows; the others on all rows
  dag <- matrix(0, 4, 4)
  free <- calm:::free_rows(tg, 4)
  expect_equal(sum(!free[, 2]), 100)
  tr <- list(targets = tg$targets, index = tg$index[-test])
  mo <- calm:::interventional_moments(x[-test, ], tr, FALSE)
  mu <- lapply(seq_along(mo$covs), function(g) {
    colMeans(x[-test, ][free[-test, match(g - 1L, mo$group)], , drop = FALSE])
  })
  got <- calm:::interventional_heldout(dag, mo, mu, x[test, ], free[test, ])
  by_hand <- sum(vapply(1:4, function(j) {
    tr_rows <- setdiff(which(free[, j]), test)
    te_rows <- intersect(which(free[, j]), test)
    m <- mean(x[tr_rows, j])
    v <- mean((x[tr_rows, j] - m)^2)
    sum(stats::dnorm(x[te_rows, j], m, sqrt(v), log = TRUE))
  }, numeric(1)))
  expect_equal(got, by_hand, tolerance = 1e-10)
})

test_that("the learners' selection uses the targets unless turned off", {
  set.seed(6222)
  sem <- simulate_sem(8, k = 1.5)
  sim <- simulate_interventions(sem, list(integer(0), "X3", "X5"), n = c(300, 100, 100))
  fit <- boss(sim$x, control = search_control(penalty_discount = "cv"), targets = sim$targets,
              target_index = sim$target_index)
  old <- options(calm.interventional_selection = FALSE)
  on.exit(options(old))
  fit_off <- boss(sim$x, control = search_control(penalty_discount = "cv"), targets = sim$targets,
                  target_index = sim$target_index)
  # the held-out scores are on other rows: the tables differ
  expect_false(isTRUE(all.equal(fit$penalty$table$heldout_loglik,
                                fit_off$penalty$table$heldout_loglik)))
  expect_true(all(is.finite(fit$penalty$table$heldout_loglik)))
})
