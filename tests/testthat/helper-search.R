# The named options of the test-only calm:::cpp_order_local_search() (as
# cpp_boss() takes them); tol is the score tolerance every search uses.
order_options <- function(max_sweeps, exact_parents_max, grow_ratio = 1) {
  list(max_sweeps = max_sweeps, tol = calm:::score_tol, exact_parents_max = exact_parents_max,
       grow_ratio = grow_ratio)
}

# A search problem for the tests of BOSS's starts: the sample covariance of
# `n` rows of an ER-k SEM of `d` variables (seeded), all pairs allowed, the
# BIC at discount 2 and `starts` random start orders, one per column.
boss_case <- function(seed, d, k, n, starts) {
  set.seed(seed)
  sem <- simulate_sem(d, k = k, n = n)
  list(sigma = stats::cov(sem$x), mask = matrix(1, d, d) - diag(d), lambda = bic_lambda(n, 2),
       starts = replicate(starts, sample.int(d)))
}
