# Fewer observations than variables: the searches refuse parent
# sets the sample cannot fit, not the data (see score_dag(), section "Fewer
# observations than variables").

er1 <- function(d, n, seed) withr::with_seed(seed, simulate_sem(d, k = 1, n = n))

# Thresholds measured on data seeds 1-4 (d = 60, n = 40) and 1-2 (d = 120,
# n = 80), calm seeds 11 and 12: the worst precision 0.88, recall 0.63 and
# SHD 0.61 of the empty graph's at d = 60; precision 0.99, recall 0.90, SHD
# 0.13 of the empty graph's at d = 120. Thresholds leave margin.
test_that("calm() learns sparse ER1 graphs from n < d", {
  skip_on_cran()
  cases <- list(list(d = 60, n = 40, seed = 1, prec = 0.7, rec = 0.55, ratio = 0.75),
                list(d = 60, n = 40, seed = 2, prec = 0.7, rec = 0.55, ratio = 0.75),
                list(d = 120, n = 80, seed = 1, prec = 0.85, rec = 0.75, ratio = 0.4))
  for (cs in cases) {
    sem <- er1(cs$d, cs$n, cs$seed)
    fit <- calm(sem$x, verbose = FALSE, seed = 11)
    expect_true(is_dag(fit))
    sk <- skeleton_metrics(fit, sem$dag)
    expect_gt(sk[["precision"]], cs$prec)
    expect_gt(sk[["recall"]], cs$rec)
    empty <- shd_cpdag(matrix(0, cs$d, cs$d), sem$dag)
    expect_lt(shd_cpdag(fit, sem$dag), cs$ratio * empty)
    expect_true(is.finite(fit$refine$score_after))
  }
})

test_that("boss()'s default penalty does not overfit with n <= d", {
  # discount 2 (the default with n > d) fits the noise of 40 rows of 60
  # variables; the default there is the extended BIC, as boss(penalty_discount = "cv")
  sem <- er1(60, 40, 5)
  fit <- withr::with_seed(1, boss(sem$x, starts = 3))
  two <- withr::with_seed(1, boss(sem$x, starts = 3, control = search_control(penalty_discount = 2)))
  cv <- withr::with_seed(1, boss(sem$x, starts = 3, control = search_control(penalty_discount = "cv")))
  expect_identical(fit$penalty$method, "ebic")
  expect_identical(fit$amat, cv$amat)
  expect_lt(sum(fit$amat), sum(two$amat))
  expect_lt(shd_cpdag(fit, sem$dag), shd_cpdag(two, sem$dag))
  # with n > d the default is discount 2
  big <- er1(10, 200, 5)
  expect_identical(withr::with_seed(1, boss(big$x, starts = 2))$penalty$discount, 2)
})

test_that("boss() and estimate_moral_graph() run on n < d", {
  sem <- er1(40, 25, 3)
  fit <- withr::with_seed(1, boss(sem$x, control = search_control(penalty_discount = 4)))
  expect_true(is_dag(fit))
  expect_true(is.finite(fit$score))
  # no parent set larger than the sample allows
  expect_lte(max(colSums(fit$amat)), 25 - 2)
  empty <- shd_cpdag(matrix(0, 40, 40), sem$dag)
  expect_lt(shd_cpdag(fit, sem$dag), empty)
  mg <- estimate_moral_graph(sem$x)
  expect_equal(igraph::vcount(mg), 40)
  expect_lte(max(lengths(igraph::graph_attr(mg, "blankets"))), 25 - 3)
  sk <- skeleton_metrics(mg, moral_graph(sem$dag))
  expect_gt(sk[["recall"]], 0.4)
  expect_gt(sk[["precision"]], 0.4)
})

test_that("score_dag() is finite for sparse DAGs and Inf for too many parents", {
  sem <- er1(30, 12, 4)
  s <- score_dag(sem$dag, sem$x)
  expect_true(is.finite(s))
  expect_true(all(is.finite(attr(s, "local"))))
  # node 1 with n - 2 = 10 parents is admissible, with n - 1 = 11 not
  g <- matrix(0, 30, 30)
  g[2:11, 1] <- 1
  expect_true(is.finite(score_dag(g, sem$x)))
  g[12, 1] <- 1
  s_big <- score_dag(g, sem$x)
  expect_equal(as.numeric(s_big), Inf)
  expect_equal(unname(which(!is.finite(attr(s_big, "local")))), 1L)
})

test_that("a parent set that fits the sample exactly is inadmissible", {
  sem <- er1(8, 30, 5)
  x <- sem$x
  # X8 an exact combination of X1 and X2 (not a copy of either)
  x[, 8] <- x[, 1] - 0.5 * x[, 2]
  g <- matrix(0, 8, 8)
  g[1:2, 8] <- 1
  expect_equal(as.numeric(score_dag(g, x[1:6, ])), Inf)   # n <= d: refused by the score
  g[2, 8] <- 0
  expect_true(is.finite(score_dag(g, x[1:6, ])))
  # with n > d the covariance itself is singular: the data are refused
  expect_error(score_dag(g, x), "positive definite", class = "calm_error_argument")
})

test_that("the exact search keeps every parent set within n - 2", {
  sem <- er1(8, 5, 6)
  ex <- exact_search(sem$x, edge_penalty = 0, moral = matrix(1, 8, 8) - diag(8))
  expect_true(is.finite(ex$score))
  expect_lte(max(colSums(ex$amat)), 3)
  # without a penalty the largest admissible sets fit best
  expect_equal(max(colSums(ex$amat)), 3)
})

test_that("the refinement first trims a start whose parent sets are inadmissible", {
  sem <- er1(8, 5, 7)
  s <- stats::cor(sem$x)
  start <- matrix(0, 8, 8)
  start[2:8, 1] <- 1   # 7 parents, more than n - 2 = 3
  allowed <- matrix(1, 8, 8) - diag(8)
  r <- calm:::ges_moves(s, calm:::cpp_dag_to_cpdag(start) * 1, 0.01, allowed,
                        calm:::ges_options(FALSE, 1000L), max_parents = 3L)
  expect_true(is.finite(r$score_after))
  dag <- calm:::cpp_pdag_extension(r$cpdag)
  expect_lte(max(colSums(dag)), 3)
})

test_that("a singular covariance given with its n is accepted", {
  sem <- er1(30, 20, 8)
  s <- stats::cov(sem$x)
  expect_lt(min(eigen(s, only.values = TRUE)$values), 1e-10)
  fit_x <- withr::with_seed(2, boss(sem$x))
  fit_s <- withr::with_seed(2, boss(cov = s, n = 20))
  expect_identical(unname(fit_s$amat), unname(fit_x$amat))
  expect_equal(as.numeric(score_dag(sem$dag, cov = s, n = 20)),
               as.numeric(score_dag(sem$dag, sem$x)), tolerance = 1e-8)
  mg <- estimate_moral_graph(cov = s, n = 20)
  expect_identical(as_amat(mg), as_amat(estimate_moral_graph(sem$x)))
  # without n it is a population covariance, which must be positive definite
  expect_error(boss(cov = s), "positive definite", class = "calm_error_argument")
})

test_that("unusable columns are named when n < d", {
  sem <- er1(10, 6, 9)
  x <- sem$x
  expect_error(calm(cbind(x, copy = 3 * x[, 4]), verbose = FALSE), "X4 and copy",
               class = "calm_error_argument")
  expect_error(boss(cbind(x, flat = 1)), "flat", class = "calm_error_argument")
  expect_error(estimate_moral_graph(cbind(x, copy = -x[, 2])), "X2 and copy",
               class = "calm_error_argument")
  expect_error(bootstrap_edges(cbind(x, flat = 2), R = 2, learner = boss), "flat",
               class = "calm_error_argument")
})

test_that("bootstrap_edges() runs on n < d", {
  sem <- er1(20, 15, 10)
  b <- withr::with_seed(3, bootstrap_edges(sem$x, R = 3, learner = boss))
  expect_s3_class(b, "calm_bootstrap")
  expect_true(all(is.finite(as.data.frame(b)$strength)))
})
