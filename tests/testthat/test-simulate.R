test_that("simulate_dag gives DAGs with the right number of edges", {
  set.seed(1)
  for (d in c(5, 20, 50)) {
    B <- simulate_dag(d, k = 2, edges = "exact")
    expect_equal(sum(B), 2 * d)
    expect_true(is_dag(B))
    expect_equal(rownames(B), paste0("X", 1:d))
  }
  counts <- replicate(300, sum(simulate_dag(30, k = 1)))
  # mean of 300 Binomial(435, 2/29) draws: sd of the mean is about 0.28
  expect_lt(abs(mean(counts) - 30), 1.5)
  expect_gt(stats::sd(counts), 0)
})

test_that("simulate_dag is reproducible from set.seed", {
  set.seed(3); a <- simulate_dag(20, 2)
  set.seed(3); b <- simulate_dag(20, 2)
  expect_identical(a, b)
})

test_that("simulate_sem draws weights and noise variances as in the paper", {
  set.seed(10)
  sem <- simulate_sem(40, k = 2, n = Inf, edges = "exact")
  expect_s3_class(sem, "calm_sem")
  w <- abs(sem$B[sem$B != 0])
  expect_length(w, 80)
  expect_true(all(w >= 0.5 & w <= 2))
  expect_true(any(sem$B < 0) && any(sem$B > 0))
  expect_true(1 %in% sem$omega && 16 %in% sem$omega)
  expect_true(all(sem$omega >= 1 & sem$omega <= 16))
  expect_null(sem$x)
  expect_equal(sem$sigma, population_cov(sem$B, sem$omega))
  expect_equal(as_amat(sem$dag), sem$B)
  custom <- simulate_sem(5, noise_var = 1:5)
  expect_equal(unname(custom$omega), 1:5)
})

test_that("the sample covariance converges to the population covariance", {
  set.seed(4)
  sem <- simulate_sem(6, k = 1, n = 2e5)
  expect_equal(dim(sem$x), c(2e5, 6))
  s <- stats::cov(sem$x)
  rel <- max(abs(s - sem$sigma)) / max(abs(sem$sigma))
  expect_lt(rel, 0.03)
  small <- simulate_sem(6, k = 1, n = 200, dag = sem$B)
  expect_equal(small$B != 0, sem$B != 0)
})

test_that("population_cov solves the SEM", {
  ce <- counterexample()
  expect_equal(unname(population_cov(ce$B_true, ce$omega_true)), unname(ce$sigma))
  B <- ce$B_true
  S <- population_cov(B, ce$omega_true)
  # (I - B)^T Sigma (I - B) = Omega
  expect_equal(unname(t(diag(3) - B) %*% S %*% (diag(3) - B)), diag(ce$omega_true))
})

test_that("the paper's 3-node counterexample: same covariance, l1 3/2 vs 4/5, CPDAGs differ", {
  ce <- counterexample()
  expect_equal(unname(population_cov(ce$B_true, ce$omega_true)), unname(ce$sigma))
  expect_equal(unname(population_cov(ce$B_alt, ce$omega_alt)), unname(ce$sigma))
  expect_equal(sum(abs(ce$B_true)), 3 / 2)
  expect_equal(sum(abs(ce$B_alt)), 4 / 5)
  expect_equal(sum(ce$B_true != 0), 2)
  expect_equal(sum(ce$B_alt != 0), 3)
  expect_gt(shd_cpdag(ce$B_alt, ce$B_true), 0)
})

test_that("standardize handles data, covariances and SEMs", {
  set.seed(8)
  sem <- simulate_sem(5, n = 500)
  z <- standardize(sem$x)
  expect_equal(unname(apply(z, 2, sd)), rep(1, 5))
  expect_equal(unname(colMeans(z)), rep(0, 5), tolerance = 1e-12)
  r <- standardize(sem$sigma)
  expect_equal(unname(diag(r)), rep(1, 5))
  s2 <- standardize(sem)
  expect_equal(s2$sigma, population_cov(s2$B, s2$omega))
  expect_equal(s2$B != 0, sem$B != 0)
  expect_error(standardize(cbind(a = 1:3, b = c(1, 1, 1))), "constant")
})

test_that("simulation functions reject bad arguments by name", {
  expect_error(simulate_dag(1), "`d`")
  expect_error(simulate_dag("a"), "`d`")
  expect_error(simulate_dag(5, k = 0), "`k`")
  expect_error(simulate_dag(5, k = 3), "`k`.*too large")
  expect_error(simulate_sem(5, n = 1), "`n`")
  expect_error(simulate_sem(5, weight_range = c(2, 1)), "`weight_range`")
  expect_error(simulate_sem(5, noise_var = c(1, 2)), "`noise_var`")
  expect_error(simulate_sem(5, noise_ratio = 0.5), "`noise_ratio`")
  cyc <- named(matrix(c(0, 1, 1, 0), 2))
  expect_error(simulate_sem(dag = cyc), "`dag`.*cycle")
  expect_error(population_cov(diag(0, 3), c(1, -1, 1)), "`omega`")
  expect_error(population_cov(matrix(1:6, 2), 1), "`B`")
})
