test_that("covariance checks name the argument", {
  ok <- diag(3)
  expect_silent(calm:::check_covariance(ok, "cov"))
  expect_error(calm:::check_covariance(matrix(1:6, 2), "cov"), "`cov`.*square")
  expect_error(calm:::check_covariance(matrix(c(1, 0.5, 0.4, 1), 2), "cov"), "`cov`.*symmetric")
  expect_error(calm:::check_covariance(matrix(1, 2, 2), "cov"), "`cov`.*positive definite")
  expect_error(calm:::check_covariance(diag(c(1, -1)), "cov"), "`cov`.*positive diagonal")
  expect_error(calm:::check_covariance(matrix(c(1, NA, NA, 1), 2), "cov"), "`cov`.*missing")
  expect_error(calm:::check_covariance(matrix(c(1, Inf, Inf, 1), 2), "cov"), "`cov`.*infinite")
  expect_error(calm:::check_covariance(matrix(1), "cov"), "at least 2")
})

test_that("resolve_covariance accepts data or a covariance, not both", {
  set.seed(1)
  x <- matrix(rnorm(40), 20, 2)
  r <- calm:::resolve_covariance(x = x)
  expect_equal(r$n, 20)
  expect_equal(r$names, c("X1", "X2"))
  r2 <- calm:::resolve_covariance(cov = diag(2))
  expect_equal(r2$n, Inf)
  expect_error(calm:::resolve_covariance(), "Supply data")
  expect_error(calm:::resolve_covariance(x = x, cov = diag(2)), "not both")
  expect_error(calm:::resolve_covariance(x = x[1, , drop = FALSE]), "`x`.*2 rows")
  expect_error(calm:::resolve_covariance(x = cbind(1:5, 2)), "`x`.*constant")
  expect_error(calm:::resolve_covariance(x = data.frame(a = 1:3, b = letters[1:3])), "`x`.*numeric")
  expect_error(calm:::resolve_covariance(cov = diag(2), n = 1), "`n`")
})

test_that("the covariance of wide data is stats::cov()'s, the same on 1 and 2 threads", {
  # from 1000 columns calm sums it in column panels that the threads share
  set.seed(5)
  x <- matrix(rnorm(40 * 1100), 40, 1100)
  x[, 2] <- x[, 2] * 1e3 + 7
  n <- nrow(x)
  one <- calm:::data_cov(x, threads = 1L)
  two <- calm:::data_cov(x, threads = 2L)
  expect_identical(one, two)
  expect_true(isSymmetric(one))
  expect_equal(one, stats::cov(x) * (n - 1) / n, tolerance = 1e-12, ignore_attr = TRUE)
  res <- calm:::cpp_data_covariance(x, 2L)
  expect_identical(res$cov, unname(two))
  expect_false(any(res$constant))
})

test_that("cpp_covariance_check() reports what R's checks on the correlation scale find", {
  # against the d x d computations it replaced: r = s / sd_i / sd_j
  set.seed(11)
  x <- matrix(rnorm(30 * 150), 30, 150)
  x[, 7] <- -3 * x[, 2]
  x[, 140] <- x[, 9] * 1e-4
  s <- stats::cov(x)
  s[3, 100] <- s[3, 100] * (1 + 1e-13)
  sd <- sqrt(diag(s))
  r <- s / sd / rep(sd, each = nrow(s))
  chk <- calm:::cpp_covariance_check(s, sd, 1 - 1e-10)
  expect_true(chk$finite)
  expect_false(chk$symmetric)
  expect_identical(chk$asymmetry, max(abs(r - t(r))))
  expect_identical(chk$duplicated, as.numeric(sum(abs(r) > 1 - 1e-10 & upper.tri(r))))
  expect_identical(chk$duplicated, 2)
  sym <- (s + t(s)) / 2
  expect_true(calm:::cpp_covariance_check(sym, sd, 1 - 1e-10)$symmetric)
  rs <- sym / sd / rep(sd, each = nrow(sym))
  expect_identical(calm:::cpp_covariance_check(sym, sd, 1 - 1e-10)$asymmetry, max(abs(rs - t(rs))))
  s[5, 6] <- Inf
  expect_false(calm:::cpp_covariance_check(s, sd, 1 - 1e-10)$finite)
})

test_that("cov_to_cor() is stats::cov2cor(), bit for bit, with the names", {
  set.seed(12)
  x <- matrix(rnorm(50 * 40), 50, 40, dimnames = list(NULL, paste0("g", 1:40)))
  x[, 3] <- x[, 3] * 1e6
  s <- stats::cov(x)
  expect_identical(calm:::cov_to_cor(s), stats::cov2cor(s))
})

test_that("check_covariance() names duplicated variables of n <= d data and asymmetry", {
  set.seed(13)
  x <- matrix(rnorm(20 * 30), 20, 30, dimnames = list(NULL, paste0("v", 1:30)))
  x[, 12] <- 2 * x[, 4]
  expect_error(calm:::resolve_covariance(x = x, small_n = TRUE),
               "perfectly correlated")
  err <- tryCatch(calm:::resolve_covariance(x = x, small_n = TRUE), error = identity)
  expect_match(paste(conditionMessage(err), collapse = " "), "v4 and v12")
  s <- stats::cov(x[, -12])
  s[1, 2] <- s[1, 2] + 1e-4
  expect_error(calm:::check_covariance(s, "cov"), "`cov`.*symmetric")
  # a tiny asymmetry is symmetrised, as before
  s <- stats::cov(matrix(rnorm(200), 40, 5))
  s2 <- s
  s2[1, 2] <- s2[1, 2] * (1 + 1e-12)
  out <- calm:::check_covariance(s2, "cov")
  expect_identical(unname(out), unname((s2 + t(s2)) / 2))
})

test_that("constant columns are found however the column is stored", {
  x <- cbind(a = c(1, 2, 3), b = c(-0, 0, 0), c = c(5, 5, 5.000001))
  expect_error(calm:::check_data(x, "x"), "`x`.*constant.*\"b\"")
  x[, 2] <- c(1e-300, 1e-300, 1e-300)
  expect_error(calm:::check_data(x, "x"), "`x`.*constant.*\"b\"")
})
