# logLik(), nobs(), simulate() and fit_sem().

test_that("logLik() is the Gaussian log-likelihood at the least-squares weights", {
  set.seed(31)
  sem <- simulate_sem(5, k = 1, n = 400)
  fit <- calm(sem$x, verbose = FALSE)
  ll <- logLik(fit)
  expect_s3_class(ll, "logLik")
  expect_equal(nobs(fit), 400)
  expect_equal(attr(ll, "df"), sum(fit$amat) + 2 * 5)
  # by hand: regress each node on its parents (divisor n), raw data scale
  x <- scale(sem$x, scale = FALSE)
  by_hand <- 0
  for (j in seq_len(5)) {
    pa <- which(fit$amat[, j] != 0)
    r <- if (length(pa)) stats::lm.fit(x[, pa, drop = FALSE], x[, j])$residuals else x[, j]
    v <- mean(r^2)
    by_hand <- by_hand - 400 / 2 * (log(2 * pi * v) + 1)
  }
  expect_equal(as.numeric(ll), by_hand, tolerance = 1e-8)
  expect_equal(BIC(fit), -2 * by_hand + attr(ll, "df") * log(400), tolerance = 1e-8)
  expect_equal(AIC(fit), -2 * by_hand + 2 * attr(ll, "df"), tolerance = 1e-8)
  # the same on the standardised or raw scale
  fit_raw <- fit_sem(fit, sem$x)
  expect_equal(as.numeric(logLik(fit_raw)), by_hand, tolerance = 1e-8)
  expect_equal(as.numeric(logLik(fit_sem(fit, sem$x, standardize = TRUE))), by_hand,
               tolerance = 1e-8)
})

test_that("logLik() agrees with bnlearn", {
  skip_if_not_installed("bnlearn")
  set.seed(32)
  sem <- simulate_sem(5, k = 1, n = 300)
  x <- as.data.frame(sem$x)
  fit <- fit_sem(sem$B, x)
  b <- as_bn(sem$B)
  # bnlearn estimates the residual variances with another divisor: the two
  # agree to a few parts in a million
  expect_equal(as.numeric(logLik(fit)), bnlearn::score(b, x, type = "loglik-g"), tolerance = 1e-5)
  expect_equal(attr(logLik(fit), "df"), bnlearn::nparams(b, x))
  h <- bnlearn::hc(x)
  expect_equal(as.numeric(logLik(fit_sem(h, x))), bnlearn::score(h, x, type = "loglik-g"),
               tolerance = 1e-5)
})

test_that("logLik() refuses fits without a likelihood", {
  set.seed(33)
  sem <- simulate_sem(4, k = 1)
  fit <- calm:::new_calm_fit(sem$B, sigma = sem$sigma)
  expect_error(logLik(fit), "population", class = "calm_error_argument")
  cp <- calm:::new_calm_fit(dag_to_cpdag(sem$B, "matrix"), is_cpdag = TRUE, n = 100)
  expect_error(logLik(cp), "CPDAG", class = "calm_error_argument")
  expect_error(simulate(cp), "simulate", class = "calm_error_argument")
})

test_that("simulate() draws from the fitted SEM", {
  set.seed(34)
  sem <- simulate_sem(4, k = 1, n = 500)
  fit <- fit_sem(sem$B, sem$x)
  a <- simulate(fit, nsim = 20000, seed = 9)
  b <- simulate(fit, nsim = 20000, seed = 9)
  expect_identical(a, b)
  expect_equal(dim(a), c(20000L, 4L))
  expect_named(a, colnames(sem$x))
  target <- solve(t(diag(4) - fit$B)) %*% diag(fit$omega) %*% solve(diag(4) - fit$B)
  expect_equal(unname(stats::cov(a)), unname(target), tolerance = 0.05)
  # the user's random stream is left as it was
  set.seed(1)
  u1 <- runif(1)
  set.seed(1)
  invisible(simulate(fit, nsim = 3, seed = 2))
  expect_equal(runif(1), u1)
  expect_error(simulate(fit, nsim = 0), "nsim", class = "calm_error_argument")
  expect_error(simulate(fit, nsim = 2, seed = "a"), "seed", class = "calm_error_argument")
})

test_that("fit_sem() checks its graph", {
  set.seed(35)
  sem <- simulate_sem(4, k = 1, n = 200)
  expect_error(fit_sem("a", sem$x), "graph", class = "calm_error_argument")
  cyc <- matrix(0, 4, 4)
  cyc[1, 2] <- cyc[2, 3] <- cyc[3, 1] <- 1
  expect_error(fit_sem(cyc, sem$x), "no DAG in its class", class = "calm_error_argument")
  expect_error(fit_sem(diag(3) * 0, sem$x), "nodes", class = "calm_error_argument")
  cp <- dag_to_cpdag(sem$B, "matrix")
  expect_equal(as.numeric(logLik(fit_sem(cp, sem$x))), as.numeric(logLik(fit_sem(sem$B, sem$x))),
               tolerance = 1e-8)
})
