# One call of the C++ BOSS and its kicks (R/search-boss-call.R).

test_that("kicks move nodes only: each kick column has `size` sources and targets", {
  k <- calm:::draw_kicks(10, 3, 4)
  expect_identical(dim(k), c(8L, 3L))
  expect_true(all(k >= 1 & k <= 10))
  expect_identical(dim(calm:::draw_kicks(3, 2, 5)), c(6L, 2L))
  expect_identical(dim(calm:::no_kicks()), c(0L, 0L))
})

test_that("a cache budget bounds the search's memory without changing its result", {
  # the grow-shrink trees and the local score cache are caches: emptied
  # whenever they pass the budget, they are rebuilt the same
  set.seed(41)
  sem <- simulate_sem(40, k = 4, n = 1000)
  sigma <- stats::cor(sem$x)
  mask <- matrix(1, 40, 40) - diag(40)
  lam <- bic_lambda(1000, 2)
  set.seed(2)
  starts <- replicate(3, sample.int(40))
  kicks <- calm:::draw_kicks(40, 4, 5)
  run <- function(budget) {
    calm:::boss_search(sigma, mask, lam, starts, 100L, 0L, TRUE, 1, kick_moves = kicks,
                       kick_grow_ratios = c(1, 0.5), cache_budget = budget)
  }
  free <- run(0)
  tight <- run(2e5)
  expect_identical(free$cache_clears, 0L)
  expect_gt(tight$cache_clears, 0L)
  expect_identical(tight$cpdag, free$cpdag)
  expect_identical(tight$score, free$score)
  expect_identical(tight$starts, free$starts)
  expect_identical(tight$kick_scores, free$kick_scores)
})

test_that("boss_search(keep_graphs = TRUE) returns each start's graph with its score", {
  b <- boss_case(3, d = 12, k = 1, n = 400, starts = 5)
  s <- b$sigma
  mask <- b$mask
  lam <- b$lambda
  starts <- b$starts
  r <- calm:::boss_search(s, mask, lam, starts, 100L, 14L, TRUE, 1, keep_graphs = TRUE)
  expect_length(r$start_cpdags, 5L)
  for (k in 1:5) {
    dag <- calm:::cpp_pdag_extension(r$start_cpdags[[k]])
    expect_equal(calm:::cpp_dag_local_scores(s, dag, lam)$total, r$starts$score[k], tolerance = 1e-10)
  }
  # the best start's graph is the result
  expect_equal(r$start_cpdags[[r$best_start]], r$cpdag)
  expect_length(calm:::boss_search(s, mask, lam, starts, 100L, 14L, TRUE, 1)$start_cpdags, 0L)
})

test_that("boss_search(with_dag = FALSE) returns the same search without the DAG", {
  b <- boss_case(4, d = 15, k = 2, n = 300, starts = 3)
  full <- calm:::boss_search(b$sigma, b$mask, b$lambda, b$starts, 100L, 14L, TRUE, 1)
  lean <- calm:::boss_search(b$sigma, b$mask, b$lambda, b$starts, 100L, 14L, TRUE, 1,
                             with_dag = FALSE)
  expect_null(lean$dag)
  expect_gt(sum(full$dag), 0)
  full["dag"] <- list(NULL)
  expect_identical(lean, full)
})

test_that("local kick repairs end at an order that full sweeps leave as it is", {
  # kick_local: each kicked order is repaired around the moved nodes only,
  # then the best order gets full sweeps once more, so the result is still
  # a local optimum of the order search. Whether a kick finds a better order
  # depends on the data's last bits (BLAS and CPU): on one Intel machine
  # seed 43 gained 0.12 units, on an AMD one nothing. So several cases: the
  # kicks never make the score worse, each result is a fixed point of full
  # sweeps, and on at least one case they improve it.
  improved <- vapply(43:50, function(seed) {
    b <- boss_case(seed, d = 40, k = 4, n = 1000, starts = 1)
    kicks <- calm:::draw_kicks(40, 30, 5)
    run <- function(local, moves = kicks, from = b$starts) {
      calm:::boss_search(b$sigma, b$mask, b$lambda, from, 100L, 0L, TRUE, 1, kick_moves = moves,
                         kick_local = local)
    }
    none <- run(TRUE, calm:::no_kicks())
    local <- run(TRUE)
    expect_lte(local$score, none$score + 1e-10)
    expect_length(local$kick_scores, 30L)
    again <- run(FALSE, calm:::no_kicks(), matrix(local$order, ncol = 1))
    expect_identical(again$starts$moves, 0L)
    expect_equal(again$score, local$score, tolerance = 1e-10)
    local$kicks_improved > 0L && local$score < none$score - 1e-8
  }, logical(1))
  expect_true(any(improved))
})
