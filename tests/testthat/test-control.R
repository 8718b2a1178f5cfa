# calm_control() is the single source of CALM's defaults: the C++ options
# struct has none of its own and is filled from the validated list in one
# place (calm_options() in src/rcpp_calm.cpp).

# the penalty's choice, the refinement's settings and split_components are read in R only
r_only <- calm:::control_r_fields

as_cpp_values <- function(ctrl) {
  calm:::cpp_calm_options(ctrl, "gumbel", "likelihood", "hard", 7)
}

test_that("every control field of the optimizer reaches C++ with calm_control()'s default", {
  ctrl <- calm_control()
  seen <- as_cpp_values(calm:::optimizer_control(ctrl))
  cpp_fields <- setdiff(names(ctrl), r_only)
  expect_setequal(setdiff(names(seen), c("hard", "seed")), cpp_fields)
  # The mutation check: a default changed in calm_control() alone must show
  # up here, because C++ has no value of its own to fall back on.
  for (f in cpp_fields) {
    expect_identical(seen[[f]], if (is.character(ctrl[[f]])) ctrl[[f]] else
      if (is.logical(ctrl[[f]])) ctrl[[f]] else as.double(ctrl[[f]]), label = f)
  }
})

test_that("every control field reaches C++ when it differs from its default", {
  changed <- list(lambda1 = 0.01, tau = 0.7, rho_init = 2e-5, rho_mult = 4,
                  iter_per_round = 123, max_rounds = 7, h_tol = 1e-7, lr = 2e-3,
                  threshold = 0.4, lambda2 = 0.2, soft_iter = 321, init_scale = 2e-3,
                  stg_sigma = 0.4, stg_init = 0.6, tanh_c = 12, weight_threshold = 0.2,
                  acyclicity = "exp", poly_series = FALSE, simd = FALSE, threads = 3,
                  early_stop = FALSE, check_every = 50,
                  patience = 4, stop_tol = 1e-3, settle_rounds = 4, h_settle = 1e-5)
  expect_setequal(names(changed), setdiff(names(calm_control()), r_only))
  defaults <- calm_control()
  for (f in names(changed)) expect_false(identical(changed[[f]], defaults[[f]]), label = f)
  seen <- as_cpp_values(calm:::optimizer_control(do.call(calm_control, changed)))
  for (f in names(changed)) {
    expect_identical(seen[[f]], if (is.numeric(changed[[f]])) as.double(changed[[f]]) else
      changed[[f]], label = f)
  }
  expect_true(seen$hard)
  expect_identical(seen$seed, 7)
})

test_that("a missing or unknown control field is an error in C++, not a default", {
  ctrl <- calm:::optimizer_control(calm_control())
  expect_error(as_cpp_values(ctrl[names(ctrl) != "max_rounds"]), "max_rounds.*missing")
  expect_error(as_cpp_values(c(ctrl, list(new_knob = 1))), "new_knob.*not an optimizer field")
  # R's own fields never reach C++: sent there, they are unknown
  expect_error(as_cpp_values(unclass(calm_control())), "not an optimizer field")
  expect_true(all(r_only %in% names(calm_control())))
  expect_false(any(r_only %in% names(ctrl)))
})

test_that("calm_control() checks its arguments and prints as a table", {
  expect_s3_class(calm_control(), "calm_control")
  expect_error(calm_control(lambda1 = -1), class = "calm_error_argument")
  expect_error(calm_control(lambda_1 = 1), class = "calm_error_argument")
  # a few fields only, so that a new field does not change the snapshot
  ctrl <- calm_control(iter_per_round = 5000, acyclicity = "exp")
  keep <- c("lambda1", "tau", "iter_per_round", "acyclicity", "early_stop", "split_components")
  expect_snapshot(print(structure(unclass(ctrl)[keep], class = "calm_control")))
})

test_that("the control argument of calm() takes a calm_control() or a named list", {
  env <- environment()
  expect_identical(calm:::resolve_control(list(lr = 0.01), list(), call = env)$lr, 0.01)
  expect_identical(calm:::resolve_control(calm_control(), list(lr = 0.02), call = env)$lr, 0.02)
  expect_error(calm:::resolve_control(list(calm_control()), list(), call = env),
               "calm_control", class = "calm_error_argument")
  expect_error(calm:::resolve_control(calm_control(), list(lr2 = 1), call = env),
               "Unknown control", class = "calm_error_argument")
})

test_that("the schedule presets fill only the fields the user left out", {
  short <- calm:::schedule_presets()$short
  long <- calm:::schedule_presets()$long
  ctrl <- calm_control()
  expect_identical(attr(ctrl, "schedule")$name, "short")
  expect_true(attr(ctrl, "schedule")$auto)
  for (f in names(short)) expect_equal(ctrl[[f]], short[[f]], label = f)
  # the paper's schedule: early_stop = FALSE takes the long preset
  paper <- calm_control(early_stop = FALSE)
  for (f in names(long)) expect_equal(paper[[f]], long[[f]], label = f)
  # a field given by the user is kept under either preset
  mixed <- calm_control(schedule = "long", iter_per_round = 7000)
  expect_equal(mixed$iter_per_round, 7000)
  expect_equal(mixed$rho_mult, long$rho_mult)
  expect_false(attr(mixed, "schedule")$auto)
  expect_error(calm_control(schedule = "fast"), class = "calm_error_argument")
})

test_that("calm() runs the long schedule without the refinement unless told otherwise", {
  long <- calm:::schedule_presets()$long
  none <- calm:::schedule_for_refine(calm_control(iter_per_round = 7000), "none")
  expect_equal(none$iter_per_round, 7000)     # the user's value stays
  expect_equal(none$rho_mult, long$rho_mult)  # the rest comes from the long preset
  expect_identical(attr(none, "schedule")$name, "long")
  kept <- calm:::schedule_for_refine(calm_control(schedule = "short"), "none")
  expect_equal(kept$rho_mult, calm:::schedule_presets()$short$rho_mult)
  same <- calm:::schedule_for_refine(calm_control(), "ges")
  expect_identical(same, calm_control())
  # a schedule named in calm()'s dots replaces the preset of a control object
  env <- environment()
  r <- calm:::resolve_control(calm_control(), list(schedule = "long"), call = env)
  expect_equal(r$iter_per_round, long$iter_per_round)
  r2 <- calm:::resolve_control(calm_control(schedule = "long"), list(early_stop = TRUE), call = env)
  expect_equal(r2$iter_per_round, long$iter_per_round)
  # end to end: the fit records the schedule it ran
  set.seed(3)
  sem <- simulate_sem(6, k = 1, n = 300)
  f <- suppressWarnings(calm(sem$x, refine = "none", max_rounds = 2, verbose = FALSE))
  expect_equal(f$settings$control$rho_mult, long$rho_mult)
  g <- suppressWarnings(calm(sem$x, max_rounds = 2, verbose = FALSE))
  expect_equal(g$settings$control$rho_mult, calm:::schedule_presets()$short$rho_mult)
})

test_that("calm_control() holds search_control() as its one field `search`", {
  rc <- search_control()
  expect_s3_class(rc, "calm_search_control")
  expect_output(print(rc), "<search_control>")
  # no flat refine_* arguments or fields any more
  expect_length(grep("^refine_", names(formals(calm_control))), 0L)
  expect_length(grep("^refine_", names(calm_control())), 0L)
  expect_identical(calm_control()$search, rc)
  expect_identical(unclass(calm_control()), unclass(calm_control(search = search_control())))
  ctrl <- calm_control(search = search_control(kicks = 7, order_starts = 4))
  expect_equal(c(ctrl$search$kicks, ctrl$search$order_starts), c(7, 4))
  # a list of search_control()'s arguments works too
  expect_equal(calm_control(search = list(kicks = 3))$search$kicks, 3)
  expect_error(calm_control(refine_kicks = 3), "refine_kicks", class = "calm_error_argument")
  expect_output(print(calm_control()), "search: <search_control>")
  # errors name the argument
  expect_error(search_control(kicks = -1), "`kicks`", class = "calm_error_argument")
  expect_error(search_control(kiks = 1), "kiks", class = "calm_error_argument")
  expect_error(calm_control(search = list(kiks = 1)), "search_control", class = "calm_error_argument")
  expect_error(calm_control(search = 3), "search_control", class = "calm_error_argument")
  expect_error(search_control(penalty = "aic"), "penalty", class = "calm_error_argument")
})

test_that("calm() takes the refinement's settings as search_control(), in calm() or in control", {
  set.seed(1)
  sem <- simulate_sem(8, n = 300)
  fit <- function(...) {
    set.seed(2)
    calm(sem$x, iter_per_round = 2000, verbose = FALSE, ...)
  }
  f1 <- fit(search = search_control(kicks = 0, exact_max_d = 0))
  f3 <- fit(control = calm_control(search = search_control(kicks = 0, exact_max_d = 0)))
  expect_identical(f1$amat, f3$amat)
  expect_identical(f3$refine$moves, f1$refine$moves)
  expect_identical(f1$settings$refine, "ges")
  expect_equal(f1$settings$control$search$exact_max_d, 0)
  # the object in calm() replaces the settings of `control`
  f4 <- fit(control = calm_control(search = search_control(kicks = 9)),
            search = search_control(kicks = 1))
  expect_equal(f4$settings$control$search$kicks, 1)
  expect_error(fit(refine_kicks = 0), "refine_kicks", class = "calm_error_argument")
  f5 <- suppressWarnings(fit(refine = "none", max_rounds = 2))
  expect_identical(f5$settings$refine, "none")
})
