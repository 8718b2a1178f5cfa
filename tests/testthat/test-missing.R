# Missing values and logical columns in data (R/missing.R).

use_sem <- function() {
  set.seed(51)
  simulate_sem(6, k = 1, n = 300)
}

test_that("missing values: an error by default, complete rows on request", {
  sem <- use_sem()
  x <- sem$x
  x[c(3, 7), 2] <- NA
  x[9, 4] <- NaN
  expect_error(calm(x, verbose = FALSE), "complete", class = "calm_error_argument")
  expect_message(fit <- calm(x, na = "complete", verbose = FALSE), "Dropped 3 rows",
                 class = "calm_message_na")
  expect_equal(fit$na_dropped, 3L)
  expect_equal(fit$n, 297)
  expect_equal(fit$settings$na, "complete")
  # nothing to drop: no message
  expect_no_message(fit2 <- calm(sem$x, na = "complete", verbose = FALSE))
  expect_equal(fit2$na_dropped, 0L)
  expect_error(calm(x, na = TRUE, verbose = FALSE), "na", class = "calm_error_argument")
})

test_that("logical columns are used as 0/1 and calm says so", {
  sem <- use_sem()
  df <- as.data.frame(sem$x)
  df$flag <- df$X1 > 0
  expect_message(fit <- calm(df, verbose = FALSE), "flag", class = "calm_message_logical")
  expect_true("flag" %in% colnames(fit$amat))
  expect_message(estimate_moral_graph(df), "0/1", class = "calm_message_logical")
})
