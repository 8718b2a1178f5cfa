# predict(), fitted(), residuals() and vcov() of fitted SEMs: the node-wise least-squares regressions on the parents.

sem_case <- function() {
  set.seed(70)
  sem <- simulate_sem(6, k = 1.5, n = 500)
  x <- sem$x * rep(c(2, 1, 30, 0.1, 5, 1), each = 500) + rep(c(10, -3, 0, 1, 100, 7), each = 500)
  colnames(x) <- paste0("V", 1:6)
  list(x = x, fit = withr::with_seed(71, calm(x, verbose = FALSE)))
}

test_that("fitted() and predict() are each variable's lm() on its parents", {
  cs <- sem_case()
  x <- cs$x
  fit <- cs$fit
  expect_gt(sum(fit$amat), 2)
  f <- fitted(fit, x)
  expect_equal(dim(f), dim(x))
  expect_identical(colnames(f), colnames(x))
  for (j in seq_len(ncol(x))) {
    pa <- which(fit$amat[, j] != 0)
    ref <- if (length(pa)) stats::fitted(stats::lm(x[, j] ~ x[, pa])) else rep(mean(x[, j]), nrow(x))
    expect_equal(unname(f[, j]), unname(ref), tolerance = 1e-8)
  }
  # new data: the same regressions, the fitted means
  nd <- x[1:7, rev(colnames(x))]   # columns in another order
  expect_equal(predict(fit, nd), f[1:7, ], tolerance = 1e-10)
  # residuals: the data minus the fit, their variances the noise variances
  r <- residuals(fit, x)
  expect_equal(r, x - f)
  expect_equal(colMeans(r^2), summary(fit)$omega, tolerance = 1e-8)
})

test_that("vcov() is lm()'s for each regression, block diagonal", {
  cs <- sem_case()
  x <- cs$x
  fit <- cs$fit
  v <- vcov(fit, x)
  expect_identical(nrow(v), as.integer(sum(fit$amat)))
  expect_true(isSymmetric(v))
  for (j in which(colSums(fit$amat) > 0)) {
    pa <- which(fit$amat[, j] != 0)
    lab <- paste0(colnames(x)[pa], "->", colnames(x)[j])
    ref <- stats::vcov(stats::lm(x[, j] ~ x[, pa, drop = FALSE]))[-1, -1, drop = FALSE]
    expect_equal(unname(v[lab, lab, drop = FALSE]), unname(ref), tolerance = 1e-8)
    other <- setdiff(rownames(v), lab)
    expect_true(all(v[lab, other] == 0))
  }
})

test_that("a fit of a covariance predicts around newdata's means", {
  set.seed(72)
  sem <- simulate_sem(4, k = 1, n = 300)
  fit <- fit_sem(sem$B, cov = stats::cov(sem$x), n = 300)
  x <- sem$x + 5
  p <- predict(fit, x)
  xc <- sweep(x, 2, colMeans(x))
  expect_equal(unname(p), unname(sweep(xc %*% coef(fit), 2, colMeans(x), `+`)))
})

test_that("CPDAG-only fits say they have no weights", {
  cp <- matrix(0, 3, 3, dimnames = list(c("a", "b", "c"), c("a", "b", "c")))
  cp["a", "b"] <- cp["b", "a"] <- 1
  f <- calm:::new_calm_fit(cp, method = "pc", is_cpdag = TRUE)
  x <- matrix(rnorm(30), 10, dimnames = list(NULL, c("a", "b", "c")))
  for (call in list(quote(predict(f, x)), quote(fitted(f, x)), quote(residuals(f, x)),
                    quote(vcov(f, x)))) {
    expect_error(eval(call), "no DAG with weights", class = "calm_error_argument")
  }
})
