# A fit keeps its data's sufficient statistics: methods need no data, and
# data given again is checked against the fit's fingerprint.

test_that("effects need no data and equal those from the data", {
  data(sachs, package = "calm", envir = environment())
  set.seed(1)
  fit <- calm(sachs, verbose = FALSE)
  for (m in c("local", "optimal")) {
    expect_equal(causal_effects(fit, "pka", "akt", method = m),
                 causal_effects(fit, "pka", "akt", data = sachs, method = m))
    expect_equal(causal_effects(fit, "raf", method = m),
                 causal_effects(fit, "raf", data = sachs, method = m))
  }
  expect_equal(fit$n, 853)
  expect_equal(fit$sigma, stats::cor(sachs), ignore_attr = TRUE)
  expect_equal(fit$data_mean, colMeans(sachs))
})

test_that("data that is not the fit's is an error (shape) or a warning (values)", {
  data(sachs, package = "calm", envir = environment())
  set.seed(2)
  fit <- boss(sachs, starts = 1)
  expect_error(causal_effects(fit, "pka", "akt", data = sachs[1:50, ]),
               class = "calm_error_data_mismatch", regexp = "`data`.*50 rows")
  expect_error(causal_effects(fit, "pka", "akt", data = sachs[, 1:5]),
               class = "calm_error_argument", regexp = "`data`")
  expect_warning(causal_effects(fit, "pka", "akt", data = log(sachs)),
                 class = "calm_warning_data_mismatch")
  # one value changed is caught; the same rows in another order are the same data
  s2 <- sachs
  s2[1, "raf"] <- s2[1, "raf"] + 1
  expect_warning(vcov(fit, s2), class = "calm_warning_data_mismatch")
  expect_warning(residuals(fit, s2), class = "calm_warning_data_mismatch")
  expect_no_warning(causal_effects(fit, "pka", data = sachs[rev(seq_len(nrow(sachs))), ]))
  expect_error(vcov(fit, sachs[1:50, ]), class = "calm_error_data_mismatch")
})

test_that("vcov() and logLik() need no data; residuals() says it needs rows", {
  data(sachs, package = "calm", envir = environment())
  set.seed(3)
  fit <- boss(sachs, starts = 1)
  expect_equal(vcov(fit), vcov(fit, sachs))
  # against lm() for one node with parents
  j <- which(colSums(fit$amat) >= 2)[1]
  pa <- names(which(fit$amat[, j] != 0))
  ols <- stats::lm(sachs[[colnames(fit$amat)[j]]] ~ as.matrix(sachs[, pa]))
  lab <- paste0(pa, "->", colnames(fit$amat)[j])
  expect_equal(unname(vcov(fit)[lab, lab]), unname(stats::vcov(ols)[-1, -1]))
  expect_error(residuals(fit), class = "calm_error_no_rows", regexp = "rows")
  expect_error(fitted(fit), class = "calm_error_no_rows")
  expect_error(predict(fit), class = "calm_error_no_rows", regexp = "`newdata`")
  expect_error(vcov(fit, sachs, sacle = 1), class = "calm_error_argument", regexp = "`sacle`")
  # dropping the covariance: the data are needed again
  fit$sigma <- NULL
  expect_error(vcov(fit), class = "calm_error_argument", regexp = "`x`")
  expect_equal(vcov(fit, sachs), vcov(boss(sachs, starts = 1), sachs))
})

test_that("every learner's fit keeps its covariance, the learner's own", {
  set.seed(4)
  sem <- simulate_sem(5, k = 1, n = 200)
  raw <- sem$x * rep(c(1, 10, 0.1, 3, 2), each = 200)
  fit <- boss(raw, starts = 1, standardize = FALSE)
  expect_equal(fit$sigma, stats::cov(raw) * 199 / 200, ignore_attr = TRUE)
  expect_equal(causal_effects(fit, "X1"), causal_effects(fit, "X1", data = raw))
  fit <- exact_search(raw)
  expect_equal(causal_effects(fit, "X2"), causal_effects(fit, "X2", data = raw))
  fit <- calm(cov = sem$sigma, n = 500, verbose = FALSE)
  expect_null(fit$data_check)
  expect_equal(nrow(causal_effects(fit, "X1", "X2")), nrow(causal_effects(fit, "X1", "X2", cov = sem$sigma)))
})

test_that("no method's `...` swallows a misspelt argument", {
  set.seed(6)
  sem <- simulate_sem(4, k = 1, n = 100)
  fit <- boss(sem$x, starts = 1)
  expect_error(print(fit, detials = TRUE), class = "calm_error_argument", regexp = "detials")
  expect_error(summary(fit, sacle = "data"), class = "calm_error_argument", regexp = "sacle")
  expect_error(print(summary(fit), max_egdes = 3), class = "calm_error_argument", regexp = "max_egdes")
  expect_error(coef(fit, tpye = "raw"), class = "calm_error_argument", regexp = "tpye")
  expect_error(logLik(fit, REML = TRUE), class = "calm_error_argument", regexp = "REML")
  expect_error(simulate(fit, nsim = 2, sed = 1), class = "calm_error_argument", regexp = "sed")
  expect_error(predict(fit, sem$x, typ = "x"), class = "calm_error_argument", regexp = "typ")
  expect_error(fitted(fit, sem$x, a = 1), class = "calm_error_argument", regexp = "`a`")
  expect_error(as_amat(fit, wieghted = FALSE), class = "calm_error_argument", regexp = "wieghted")
  expect_error(as_igraph(fit, grph = "dag"), class = "calm_error_argument", regexp = "grph")
  expect_error(as.data.frame(fit, grpah = "dag"), class = "calm_error_argument", regexp = "grpah")
  expect_equal(nrow(as.data.frame(fit, stringsAsFactors = FALSE)), nrow(as.data.frame(fit)))
  # what the methods do read still works
  expect_equal(nrow(as_amat(data.frame(from = "a", to = "b"), nodes = c("a", "b", "c"))), 3L)
  expect_s3_class(logLik(fit), "logLik")
  expect_true(is.finite(BIC(fit)))
})
