# The refinement's last step: the minimum-risk choice among local optima
# (R/search-risk.R).

test_that("pair_states() codes each pair of a CPDAG once", {
  cp <- matrix(0, 3, 3)
  cp[1, 2] <- 1                 # 1 -> 2
  cp[2, 3] <- cp[3, 2] <- 1     # 2 - 3
  cp[3, 1] <- 1                 # 3 -> 1
  # pairs in the order (1,2), (1,3), (2,3)
  expect_identical(calm:::pair_states(cp), c(1L, 2L, 3L))
  # differing states count as shd_count() counts the SHD of two CPDAGs
  set.seed(4)
  for (r in 1:5) {
    a <- calm:::cpp_dag_to_cpdag(simulate_dag(9, k = 2) * 1)
    b <- calm:::cpp_dag_to_cpdag(simulate_dag(9, k = 2) * 1)
    expect_identical(sum(calm:::pair_states(a) != calm:::pair_states(b)), calm:::shd_count(a, b))
  }
})

test_that("min_risk_index() returns the weighted medoid, or the best graph when it is far ahead", {
  # three candidates over four pairs: A twice, and C, which differs from A in 2 pairs
  A <- c(1L, 0L, 3L, 0L)
  C <- c(2L, 1L, 3L, 0L)
  states <- cbind(C, A, A)
  # equal scores: the two copies of A outweigh C
  expect_identical(calm:::min_risk_index(states, c(0, 0, 0), n = 100, temperature = 2), 2L)
  # C scores better by 0.5 per sample at n = 100 (50 nats): A's weights vanish
  expect_identical(calm:::min_risk_index(states, c(-0.5, 0, 0), n = 100, temperature = 2), 1L)
  # by 0.01 (1 nat at temperature 2): weights exp(-0.5) each, A still wins
  expect_identical(calm:::min_risk_index(states, c(-0.01, 0, 0), n = 100, temperature = 2), 2L)
  # a lower temperature sharpens the weights: at 0.1 C wins
  expect_identical(calm:::min_risk_index(states, c(-0.01, 0, 0), n = 100, temperature = 0.1), 1L)
  # ties go to the first candidate (the refined graph)
  expect_identical(calm:::min_risk_index(cbind(A, A), c(0, 0), n = 10, temperature = 2), 1L)
})

# data with many weak effects, where several graphs score within a few
# log-likelihood units of the best
weak_data <- function(seed, d = 30, n = 3000) {
  set.seed(seed)
  a <- simulate_dag(d, k = 2)
  B <- a * matrix(stats::runif(d * d, 0.05, 0.25) * sample(c(-1, 1), d * d, TRUE), d, d)
  x <- matrix(stats::rnorm(n * d), n, d) %*% solve(diag(d) - B)
  colnames(x) <- sprintf("X%d", seq_len(d))
  x
}

test_that("the step is reproducible, recorded, and returns a graph of the candidates", {
  x <- weak_data(11)
  fit <- function(...) {
    set.seed(5)
    calm(x, verbose = FALSE, penalty_discount = 2, ...)
  }
  f1 <- fit()
  f2 <- fit()
  expect_identical(f1$amat, f2$amat)
  off <- fit(search = search_control(risk_starts = 0))
  mv <- f1$refine$moves
  if (any(mv$type == "risk")) {
    # it chose another graph: one that scores worse than the best, by the recorded amount
    lam <- f1$penalty$lambda
    gap <- as.numeric(score_dag(f1, x, edge_penalty = lam) - score_dag(off, x, edge_penalty = lam))
    expect_gt(gap, 0)
    expect_equal(gap, mv$delta[mv$type == "risk"], tolerance = 1e-6)
  } else {
    expect_identical(f1$amat != 0, off$amat != 0)
  }
  expect_false(any(off$refine$moves$type == "risk"))
})

test_that("on strong effects the best-scoring graph is kept", {
  set.seed(21)
  sem <- simulate_sem(15, k = 1, n = 1000)
  set.seed(1)
  on <- calm(sem$x, verbose = FALSE, penalty_discount = 2)
  set.seed(1)
  off <- calm(sem$x, verbose = FALSE, penalty_discount = 2,
              search = search_control(risk_starts = 0))
  expect_false(any(on$refine$moves$type == "risk"))
  expect_identical(on$amat != 0, off$amat != 0)
})

test_that("the step runs only for n > d, finite n and at most risk_max_d variables", {
  ctx <- list(ctrl = calm_control(), n = 100, d = 20)
  expect_true(calm:::min_risk_applies(ctx))
  expect_false(calm:::min_risk_applies(modifyList(ctx, list(n = 20))))
  expect_false(calm:::min_risk_applies(modifyList(ctx, list(n = Inf))))
  expect_true(calm:::min_risk_applies(modifyList(ctx, list(n = 1000, d = 150))))
  expect_false(calm:::min_risk_applies(modifyList(ctx, list(n = 1000, d = 151))))
  ctx$ctrl$search$risk_max_d <- 10
  expect_false(calm:::min_risk_applies(ctx))
  ctx$ctrl$search$risk_max_d <- 150
  ctx$ctrl$search$risk_starts <- 0
  expect_false(calm:::min_risk_applies(ctx))
})

test_that("the step weighs BOSS's own starts and further ones up to risk_starts", {
  x <- weak_data(11)
  risk_move <- function(rs) {
    set.seed(5)
    f <- calm(x, verbose = FALSE, penalty_discount = 2, search = search_control(risk_starts = rs))
    mv <- f$refine$moves
    mv$clique[mv$type == "risk"]
  }
  # on this data set the step returns another graph than the best-scoring one
  # at each count; its record names the candidates: the refined graph and
  # the local optima of BOSS's 8 random starts (of 10; not CALM's and the
  # refined graph's orders) and of further random orders up to risk_starts
  expect_identical(risk_move(20), "minimum expected SHD among 21 local optima")
  expect_identical(risk_move(14), "minimum expected SHD among 15 local optima")
  # fewer than BOSS's random starts: all of them, no further searches
  expect_identical(risk_move(5), "minimum expected SHD among 9 local optima")
})

test_that("without BOSS the step runs its own searches", {
  x <- weak_data(12)
  set.seed(3)
  f <- calm(x, verbose = FALSE, penalty_discount = 2, search = search_control(order_search = FALSE))
  ctx <- list(ctrl = calm_control(), n = nrow(x), d = ncol(x))
  expect_null(calm:::risk_candidates(ctx, list(), 0))
  mv <- f$refine$moves
  expect_false(any(mv$type == "order"))
  # the refined graph and the local optima of 20 searches of its own
  expect_identical(mv$clique[mv$type == "risk"], "minimum expected SHD among 21 local optima")
})
