# Runs the test suite and prints a one-line summary ("testthat: N passed,
# N failed, N skipped") that tools/run-tests.sh reads from the check log.
library(testthat)
library(calm)

results <- test_check("calm", stop_on_failure = FALSE, stop_on_warning = FALSE)
df <- as.data.frame(results)
n_failed <- sum(df$failed) + sum(df$error)
n_skipped <- sum(df$skipped)
n_passed <- sum(df$nb) - sum(df$failed) - n_skipped - sum(df$warning)
# the slowest files, to keep an eye on the check's time (tests that take
# long skip on CRAN: skip_on_cran())
secs <- sort(tapply(df$real, df$file, sum), decreasing = TRUE)
cat(sprintf("\ntest files by time: %.0f s in all; slowest: %s\n", sum(secs),
            paste(sprintf("%s %.1f s", names(secs), secs)[seq_len(min(8, length(secs)))], collapse = ", ")))
cat(sprintf("\ntestthat: %d passed, %d failed, %d skipped\n", n_passed, n_failed, n_skipped))
if (n_failed > 0) stop(n_failed, " test(s) failed", call. = FALSE)
