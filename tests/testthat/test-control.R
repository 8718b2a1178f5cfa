# calm_control() is the single source of CALM's defaults: the C++ options
# struct has none of its own and is filled from the validated list in one
# place (calm_options() in src/rcpp_calm.cpp).

# the refinement's fields (refine_*) and split_components are read in R only
r_only <- c(grep("^refine_", names(calm_control()), value = TRUE), "split_components")

as_cpp_values <- function(ctrl) {
  calm:::cpp_calm_options(unclass(ctrl), "gumbel", "likelihood", "hard", 7)
}

test_that("every control field of the optimizer reaches C++ with calm_control()'s default", {
  ctrl <- calm_control()
  seen <- as_cpp_values(ctrl)
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
                  acyclicity = "exp", simd = FALSE, early_stop = FALSE, check_every = 50,
                  patience = 3, stop_tol = 1e-3, settle_rounds = 4, h_settle = 1e-5)
  expect_setequal(names(changed), setdiff(names(calm_control()), r_only))
  defaults <- calm_control()
  for (f in names(changed)) expect_false(identical(changed[[f]], defaults[[f]]), label = f)
  seen <- as_cpp_values(do.call(calm_control, changed))
  for (f in names(changed)) {
    expect_identical(seen[[f]], if (is.numeric(changed[[f]])) as.double(changed[[f]]) else
      changed[[f]], label = f)
  }
  expect_true(seen$hard)
  expect_identical(seen$seed, 7)
})

test_that("a missing or unknown control field is an error in C++, not a default", {
  ctrl <- unclass(calm_control())
  expect_error(as_cpp_values(ctrl[names(ctrl) != "max_rounds"]), "max_rounds.*missing")
  expect_error(as_cpp_values(c(ctrl, list(new_knob = 1))), "new_knob.*neither")
})

test_that("calm_control() checks its arguments and prints as a table", {
  expect_s3_class(calm_control(), "calm_control")
  expect_error(calm_control(lambda1 = -1), class = "calm_error_argument")
  expect_error(calm_control(lambda_1 = 1), class = "calm_error_argument")
  # a few fields only, so that a new field does not change the snapshot
  ctrl <- calm_control(iter_per_round = 5000, acyclicity = "exp")
  keep <- c("lambda1", "tau", "iter_per_round", "acyclicity", "early_stop", "refine_penalty")
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
