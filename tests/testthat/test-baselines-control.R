# golem_control() and notears_control() (R/baselines-control.R): every field
# reaches the fitter, bad values are refused by name, and the arguments the
# learners took before them still work, with a warning, for one release.

fields_of <- function(ctor) setdiff(names(formals(ctor)), "...")

# What a fit shows of its inputs: weights before and after thresholding, the
# trace's steps and objective, and the solver's work.
fit_signature <- function(fit) {
  list(raw = if (is.null(fit$W_unthresholded)) fit$B_unthresholded else fit$W_unthresholded,
       amat = fit$amat, round = fit$trace$round, objective = fit$trace$objective,
       evaluations = fit$evaluations)
}

golem_sigma <- function() {
  sem <- withr::with_seed(21, simulate_sem(4, k = 1))
  sem$sigma
}

test_that("golem_control() returns every field, validated, in a classed list", {
  ctrl <- golem_control()
  expect_s3_class(ctrl, "golem_control")
  expect_named(ctrl, fields_of(golem_control))
  expect_identical(ctrl$max_iter, 100000L)
  expect_identical(ctrl$init, "zero")
  expect_identical(golem_control(init = "e")$init, "ev")
  expect_output(print(ctrl), "<golem_control>")
  expect_output(print(ctrl), "weight_threshold")
})

test_that("notears_control() returns every field, validated, in a classed list", {
  ctrl <- notears_control()
  expect_s3_class(ctrl, "notears_control")
  expect_named(ctrl, fields_of(notears_control))
  expect_identical(ctrl$max_rounds, 100L)
  expect_identical(ctrl$lbfgsb_memory, 10L)
  expect_identical(ctrl$solver, "lbfgspp")
  expect_identical(notears_control(solver = "o")$solver, "optim")
  expect_output(print(ctrl), "<notears_control>")
})

test_that("no field of the baselines' controls means what a calm_control() field means", {
  # `threshold` is CALM's gate cut-off: the baselines' weight cut-off is
  # `weight_threshold`, as in calm_control(); iteration counts are `max_iter`
  # (one optimizer run) and `max_rounds` (a penalty schedule)
  for (ctor in list(golem_control, notears_control)) {
    f <- fields_of(ctor)
    expect_false(any(c("threshold", "iter", "lbfgsb") %in% f))
    expect_true("weight_threshold" %in% f)
  }
  expect_true("max_iter" %in% fields_of(golem_control))
  expect_true("max_rounds" %in% fields_of(notears_control))
  expect_true(all(c("weight_threshold", "max_rounds") %in% fields_of(calm_control)))
})

test_that("every golem_control() field reaches the fitter", {
  S <- golem_sigma()
  base <- list(max_iter = 400, trace_every = 100)
  fit_with <- function(...) {
    args <- utils::modifyList(base, list(...))
    golem_nv(cov = S, control = do.call(golem_control, args))
  }
  ref <- fit_with()
  ref_ev <- fit_with(init = "ev")
  changed <- list(l1_weight = 0.5, lambda2 = 50, lr = 1e-2, max_iter = 300, weight_threshold = 0.37,
                  init = "ev", ev_l1_weight = 0.5, trace_every = 50)
  # a field added to golem_control() needs a case here
  expect_setequal(names(changed), fields_of(golem_control))
  for (f in names(changed)) {
    args <- changed[f]
    against <- ref
    if (f == "ev_l1_weight") {
      args$init <- "ev"
      against <- ref_ev
    }
    fit <- do.call(fit_with, args)
    expect_identical(fit$settings$control[[f]], do.call(golem_control, args)[[f]], label = f)
    expect_false(identical(fit_signature(fit), fit_signature(against)), label = f)
  }
  expect_identical(fit_with(max_iter = 300)$trace$round[4], 300)
  expect_true(all(fit_with(lambda2 = 50)$trace$rho == 50))
})

test_that("every notears_control() field reaches the fitter", {
  sem <- withr::with_seed(22, simulate_sem(4, k = 1))
  fit_with <- function(...) {
    suppressWarnings(notears_linear(cov = sem$sigma, control = notears_control(...)))
  }
  ref <- fit_with()
  changed <- list(l1_weight = 0.3, weight_threshold = 0.6, max_rounds = 2, h_tol = 1e-3,
                  rho_max = 10, lbfgsb_memory = 2, lbfgsb_factr = 1e13, lbfgsb_pgtol = 0.1,
                  lbfgsb_max_iter = 3, solver = "optim")
  expect_setequal(names(changed), fields_of(notears_control))
  for (f in names(changed)) {
    fit <- do.call(fit_with, changed[f])
    expect_identical(fit$settings$control[[f]], do.call(notears_control, changed[f])[[f]],
                     label = f)
    expect_false(identical(fit_signature(fit), fit_signature(ref)), label = f)
  }
  expect_identical(nrow(fit_with(max_rounds = 2)$trace), 2L)
})

test_that("bad control values are refused with an error naming the field", {
  S <- golem_sigma()
  bad_golem <- list(l1_weight = -1, lambda2 = NA, lr = 0, max_iter = 0, weight_threshold = -0.1,
                    init = "random", ev_l1_weight = "a", trace_every = 1.5)
  bad_notears <- list(l1_weight = -1, weight_threshold = NA, max_rounds = 0, h_tol = -1,
                      rho_max = 0.5, lbfgsb_memory = 0, lbfgsb_factr = -1, lbfgsb_pgtol = Inf,
                      lbfgsb_max_iter = 2.5, solver = "bfgs")
  expect_setequal(names(bad_golem), fields_of(golem_control))
  expect_setequal(names(bad_notears), fields_of(notears_control))
  names_field <- function(expr, f) {
    e <- expect_error(expr, class = "calm_error_argument")
    expect_match(cli::ansi_strip(conditionMessage(e)), paste0("`", f, "`"), fixed = TRUE)
  }
  for (f in names(bad_golem)) {
    names_field(do.call(golem_control, bad_golem[f]), f)
    # through the learner, as a field in `...`
    names_field(do.call(golem_nv, c(list(cov = S), bad_golem[f])), f)
  }
  for (f in names(bad_notears)) {
    names_field(do.call(notears_control, bad_notears[f]), f)
    names_field(do.call(notears_linear, c(list(cov = S), bad_notears[f])), f)
  }
  names_field(golem_control(max_iters = 10), "max_iters")
  names_field(golem_nv(cov = S, control = notears_control()), "control")
  names_field(notears_linear(cov = S, control = golem_control()), "control")
  names_field(notears_linear(cov = S, control = list(0.1)), "control")
  names_field(golem_nv(cov = S, max_iters = 10), "max_iters")
  # the old name and its new one together
  expect_error(suppressWarnings(golem_nv(cov = S, iter = 10, max_iter = 20)),
               "more than once", class = "calm_error_argument")
  # the error is the learner's, not the constructor's
  e <- expect_error(golem_nv(cov = S, max_iter = 0))
  expect_identical(conditionCall(e)[[1]], quote(golem_nv))
})

test_that("control may be a list of arguments, and `...` overrides its fields", {
  S <- golem_sigma()
  a <- golem_nv(cov = S, control = golem_control(max_iter = 300, l1_weight = 0.01))
  b <- golem_nv(cov = S, control = list(max_iter = 300, l1_weight = 0.01))
  c2 <- golem_nv(cov = S, control = golem_control(max_iter = 300), l1_weight = 0.01)
  expect_identical(fit_signature(b), fit_signature(a))
  expect_identical(fit_signature(c2), fit_signature(a))
  expect_identical(b$settings$control, a$settings$control)
  fit <- golem_nv(cov = S, max_iter = 300, B_init = matrix(0.1, 4, 4))
  expect_identical(fit$settings$init, "user")
})

test_that("golem_nv()'s old arguments warn and give the same fit as the control", {
  S <- golem_sigma()
  new <- golem_nv(cov = S, control = golem_control(max_iter = 300, weight_threshold = 0.02,
                                                   l1_weight = 0.01))
  expect_warning(old <- golem_nv(cov = S, iter = 300, threshold = 0.02, lambda1 = 0.01),
                 class = "calm_warning_deprecated")
  expect_identical(fit_signature(old), fit_signature(new))
  expect_identical(old$settings, new$settings)
  w <- expect_warning(golem_nv(cov = S, iter = 300), "deprecated")
  expect_match(cli::ansi_strip(conditionMessage(w)), "golem_control(max_iter = ...)",
               fixed = TRUE)
})

test_that("notears_linear()'s old arguments warn and give the same fit as the control", {
  sem <- withr::with_seed(22, simulate_sem(4, k = 1))
  new <- notears_linear(cov = sem$sigma,
                        control = notears_control(max_rounds = 50, weight_threshold = 0.2,
                                                  lbfgsb_memory = 5, lbfgsb_max_iter = 200))
  expect_warning(old <- notears_linear(cov = sem$sigma, max_iter = 50, threshold = 0.2,
                                       lbfgsb = list(lmm = 5, maxit = 200)),
                 class = "calm_warning_deprecated")
  expect_identical(fit_signature(old), fit_signature(new))
  expect_identical(old$settings, new$settings)
  expect_error(suppressWarnings(notears_linear(cov = sem$sigma, lbfgsb = list(foo = 1))),
               "lbfgsb", class = "calm_error_argument")
})

test_that("the baselines' l1 weight is l1_weight; lambda1 still works, deprecated", {
  withr::local_options(rlib_warning_verbosity = "verbose")
  expect_warning(g <- golem_control(lambda1 = 0.3, ev_lambda1 = 0.4), "l1_weight",
                 class = "calm_warning_deprecated")
  expect_identical(unclass(g), unclass(golem_control(l1_weight = 0.3, ev_l1_weight = 0.4)))
  expect_warning(nt <- notears_control(lambda1 = 0.2), class = "calm_warning_deprecated")
  expect_identical(nt$l1_weight, 0.2)
  expect_error(suppressWarnings(notears_control(lambda1 = 0.2, l1_weight = 0.1)), "lambda1",
               class = "calm_error_argument")
})
