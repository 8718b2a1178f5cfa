# calm()'s continuous phase (R/calm-restarts.R): seeds, restarts under
# different future plans, and the warnings about the returned run.

test_that("the same seed gives the same fit; the seed is recorded", {
  sem <- sem_case(6, 2)
  m <- moral_graph(sem$dag)
  run <- function() calm(cov = sem$sigma, moral = m, iter_per_round = 1000, max_rounds = 4,
                         verbose = FALSE)
  set.seed(5)
  a <- suppressWarnings(run())
  set.seed(5)
  b <- suppressWarnings(run())
  expect_identical(a$amat, b$amat)
  expect_identical(a$B, b$B)
  expect_identical(a$B_raw, b$B_raw)
  expect_identical(a$trace$objective, b$trace$objective)
  expect_identical(a$seed, b$seed)
  set.seed(6)
  c <- suppressWarnings(run())
  expect_false(identical(a$seed, c$seed))
  expect_false(identical(a$B_raw, c$B_raw))
})

test_that("restarts keep the best objective and do not depend on the future plan", {
  skip_on_cran()
  skip_if_not_installed("future")
  sem <- sem_case(6, 4)
  m <- moral_graph(sem$dag)
  run <- function() {
    set.seed(21)
    suppressWarnings(calm(cov = sem$sigma, moral = m, iter_per_round = 1500, max_rounds = 6,
                          restarts = 3, verbose = FALSE))
  }
  old <- future::plan(future::sequential)
  on.exit(future::plan(old), add = TRUE)
  seq_fit <- run()
  future::plan(future::multisession, workers = 2)
  par_fit <- run()
  future::plan(future::sequential)
  expect_identical(seq_fit$amat, par_fit$amat)
  expect_identical(seq_fit$B, par_fit$B)
  cols <- c("restart", "seed", "objective", "rounds", "h", "converged")
  expect_identical(seq_fit$restarts[cols], par_fit$restarts[cols])
  expect_identical(nrow(seq_fit$restarts), 3L)
  expect_identical(seq_fit$objective, min(seq_fit$restarts$objective))
  expect_identical(seq_fit$seed, seq_fit$restarts$seed[which.min(seq_fit$restarts$objective)])
})

test_that("soft constraint: one run, then cycles are removed with a warning", {
  sem <- sem_case(6, 2)
  set.seed(3)
  # without the acyclicity term the thresholded graph keeps 2-cycles
  expect_warning(
    fit <- calm(cov = sem$sigma, moral = "none", constraint = "soft", lambda2 = 0,
                soft_iter = 3000, verbose = FALSE),
    class = "calm_warning_repaired"
  )
  expect_true(is_dag(fit$amat))
  expect_gt(nrow(fit$removed), 0L)
  expect_named(fit$removed, c("from", "to", "weight"))
  expect_identical(nrow(fit$trace), 1L)
  expect_true(is.na(fit$trace$rho))
  expect_true(fit$converged)
})

test_that("hitting the round cap is reported", {
  sem <- sem_case(6, 2)
  set.seed(4)
  classes <- character()
  fit <- withCallingHandlers(
    calm(cov = sem$sigma, moral = moral_graph(sem$dag), iter_per_round = 500,
         max_rounds = 2, verbose = FALSE),
    warning = function(w) {
      classes <<- c(classes, class(w)[1])
      invokeRestart("muffleWarning")
    }
  )
  expect_true("calm_warning_not_converged" %in% classes)
  # the graph still had cycles: repaired, and said so
  expect_true("calm_warning_repaired" %in% classes)
  expect_gt(nrow(fit$removed), 0L)
  expect_false(fit$converged)
  expect_identical(nrow(fit$trace), 2L)
  expect_true(is_dag(fit$amat))
})
