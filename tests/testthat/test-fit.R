# The fit object shared by every learner (R/fit.R).

test_that("new_calm_fit() refits the weights by least squares on the graph", {
  set.seed(3)
  sem <- simulate_sem(5, k = 1)
  fit <- calm:::new_calm_fit(sem$B != 0, sigma = sem$sigma, method = "test")
  expect_s3_class(fit, "calm_fit")
  # the population covariance: the refit recovers the SEM exactly
  expect_equal(unname(fit$B), unname(sem$B), tolerance = 1e-10)
  expect_equal(unname(fit$omega), unname(sem$omega), tolerance = 1e-10)
  expect_identical(unname(fit$cpdag_amat), unname(dag_to_cpdag(sem$B, output = "matrix")))
  expect_identical(fit$method, "test")
})

test_that("a CPDAG fit has no weights and converts to igraph through its CPDAG", {
  cp <- matrix(c(0, 1, 1, 0), 2, dimnames = list(c("a", "b"), c("a", "b")))
  fit <- calm:::new_calm_fit(cp, is_cpdag = TRUE, method = "pc")
  expect_null(fit$B)
  expect_null(fit$dag)
  g <- as_igraph(fit)
  expect_s3_class(g, "igraph")
  expect_identical(igraph::ecount(g), 2)
})

test_that("fit fields are read without partial matching", {
  fit <- calm:::new_calm_fit(matrix(c(0, 1, 0, 0), 2), sigma = diag(2) + 0.5 * (1 - diag(2)),
                             B_raw = matrix(c(0, 0.3, 0, 0), 2))
  fit$B <- NULL
  # `$` would find B_raw by partial matching; coef() must not
  expect_error(coef(fit), "no such weights", class = "calm_error_argument")
})

test_that("extra fields are stored as given", {
  fit <- calm:::new_calm_fit(diag(0, 2), extra = list(seed = 5L, stop = "h_tol"))
  expect_identical(fit$seed, 5L)
  expect_identical(fit$stop, "h_tol")
})
