test_that("alpha = 'auto' keeps IAMB's false members of a blanket at 500 variables' level", {
  expect_identical(calm:::moral_alpha("auto", 20, environment()), 0.01)
  expect_identical(calm:::moral_alpha("auto", 500, environment()), 0.01)
  expect_equal(calm:::moral_alpha("auto", 1000, environment()), 0.005)
  expect_equal(calm:::moral_alpha("auto", 5000, environment()), 0.001)
  expect_identical(calm:::moral_alpha(0.05, 5000, environment()), 0.05)
  expect_error(calm:::moral_alpha(2, 10, environment()), class = "calm_error_argument")
  expect_error(calm:::moral_alpha("often", 10, environment()), "alpha")
  # the fit records the level it used
  set.seed(3)
  sem <- simulate_sem(8, k = 1, n = 200)
  expect_identical(calm(sem$x, verbose = FALSE)$settings$alpha, 0.01)
  expect_identical(calm(sem$x, verbose = FALSE, alpha = 0.05)$settings$alpha, 0.05)
})

test_that("the continuous phase is cut above 1000 variables whatever n", {
  ctrl <- calm_control()
  expect_true(calm:::continuous_cut(ctrl, "ges", 200, 100))
  expect_false(calm:::continuous_cut(ctrl, "ges", 100, 200))
  expect_false(calm:::continuous_cut(ctrl, "ges", 1000, 1000))
  expect_true(calm:::continuous_cut(ctrl, "ges", 500, 1001))
  expect_false(calm:::continuous_cut(calm_control(continuous = "always"), "ges", 500, 2000))
  expect_false(calm:::continuous_cut(ctrl, "none", 500, 2000))
})

test_that("above 1000 variables, or when asked, the continuous phase is skipped", {
  ctrl <- calm_control()
  expect_false(calm:::continuous_skip(ctrl, "ges", 200, 100))
  expect_false(calm:::continuous_skip(ctrl, "ges", 2000, 1000))
  expect_true(calm:::continuous_skip(ctrl, "ges", 500, 1001))
  expect_true(calm:::continuous_skip(ctrl, "ges", 5000, 1001))
  expect_false(calm:::continuous_skip(ctrl, "ges", Inf, 2000))
  expect_false(calm:::continuous_skip(calm_control(continuous = "always"), "ges", 500, 2000))
  none <- calm_control(continuous = "none")
  expect_true(calm:::continuous_skip(none, "ges", 100, 10))
  expect_false(calm:::continuous_skip(none, "none", 100, 10))
  expect_error(calm_control(continuous = "never"), class = "calm_error_argument")
  # the memory guard counts no optimizer kernel for a skipped phase
  expect_lt(calm:::fit_memory_need(2000, 100, kernel = FALSE),
            calm:::fit_memory_need(2000, 100, kernel = TRUE) - 8 * 8 * 2000^2)
  set.seed(4)
  sem <- simulate_sem(12, k = 1, n = 1000)
  fit <- calm(sem$x, verbose = FALSE, control = none)
  expect_identical(fit$continuous, "none")
  expect_null(fit$B_raw)
  expect_equal(nrow(fit$trace), 0L)
  expect_equal(sum(fit$refine$dag_before), 0)
  expect_output(print(fit, details = TRUE), "continuous phase skipped")
  expect_output(print(fit), "learned by an empty start")
  # the refinement alone finds the graph of the default fit here
  expect_equal(shd_cpdag(fit, sem$B), shd_cpdag(calm(sem$x, verbose = FALSE), sem$B))
  expect_lte(shd_cpdag(fit, sem$B), 2)
  # under knowledge the start holds the required edges
  bk <- background_knowledge(required = data.frame(from = "X1", to = "X2"))
  fk <- calm(sem$x, verbose = FALSE, control = none, knowledge = bk)
  expect_equal(unname(fk$refine$dag_before["X1", "X2"]), 1)
  expect_equal(unname(fk$amat["X1", "X2"]), 1)
})

test_that("a fit records the seconds of each of its stages", {
  set.seed(5)
  sem <- simulate_sem(10, k = 1, n = 300)
  fit <- calm(sem$x, verbose = FALSE)
  st <- fit$stages
  expect_s3_class(st, "data.frame")
  expect_true(all(c("covariance", "moral", "continuous", "penalty", "refine") %in% st$stage))
  expect_true(all(st$seconds >= 0))
  expect_lte(sum(st$seconds), fit$time + 0.5)
  rs <- fit$refine$stage_seconds
  expect_true(all(c("ges_start", "ges_empty", "boss", "exact", "min_risk") %in% names(rs)))
})

test_that("a fit names its phases on a progressr bar that ends full", {
  set.seed(6)
  sem <- simulate_sem(12, k = 1, n = 300)
  seen <- character()
  steps <- numeric()
  progressr::with_progress(withCallingHandlers(
    fit <- calm(sem$x, verbose = FALSE),
    progression = function(c) {
      # (the continuous phase's own bar over components is another)
      if (identical(c$type, "update") && !grepl("^component", c$message)) {
        seen <<- c(seen, c$message)
        steps <<- c(steps, c$amount)
      }
    }
  ), handlers = progressr::handler_void(), enable = TRUE)
  expect_identical(seen[1:3], c("covariance", "moral graph", "continuous phase (one step)"))
  expect_true(all(c("penalty", "refinement: BOSS") %in% seen))
  expect_identical(sum(steps), as.numeric(calm:::FIT_PHASES))
  expect_identical(tail(seen, 1), "done")
})
