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

# Bad inputs (the table of helper-bad-input.R)
test_that("bad inputs to calm() and its control end in clear errors, warnings or results", {
  expect_bad_inputs(bad_input_section({
err("calm", "x", q())
err("calm", "x", q("a"))
err("calm", "x", q(list(1, 2)))
err("calm", "x", q(with_na(x)))
err("calm", "x", q(with_na(x, v = NaN)))
err("calm", "x", q(with_na(x, v = Inf)))
err("calm", "x", q(x[0, ]))
err("calm", "x", q(x[1, , drop = FALSE]))
err("calm", "x", q(x[, 1, drop = FALSE]))
err("calm", "x", q(const_x))
err("calm", "x", q(dup_x), pattern = "X1 and copy")    # the duplicated columns named
# n <= d works; unusable columns are still named
ok("calm", q_ref(x[1:5, ]), fit_ok)   # n < d
ok("calm", q_ref(x[1:6, ]), fit_ok)   # n = d
ok("calm", q_ref(cov = stats::cov(x[1:5, ]), n = 5), fit_ok)   # a singular covariance with its n
err("calm", "x", q(cbind(x[1:5, ], copy = -2 * x[1:5, 1])), pattern = "X1 and copy")
err("calm", "x", q(cbind(x[1:5, ], const = 3)), pattern = "const")
err("calm", "cov", q(cov = singular, n = 5), pattern = "X1 and X6")
err("calm", "cov", q(x, cov = S))
err("calm", "n", q(x, n = 200))
err("calm", "cov", q(cov = "a"))
err("calm", "cov", q(cov = S[, 1:3]))
err("calm", "cov", q(cov = asym))
err("calm", "cov", q(cov = singular), pattern = "X1 and X6")
err("calm", "cov", q(cov = not_pd))
err("calm", "cov", q(cov = -S))
err("calm", "cov", q(cov = with_na(S)))
err("calm", "cov", q(cov = matrix(1)))
err("calm", "n", q(cov = S, n = 1))
err("calm", "n", q(cov = S, n = 3))
err("calm", "n", q(cov = S, n = NA))
err("calm", "n", q(cov = S, n = 6, moral = "precision"))
err("calm", "moral", q(x, moral = diag(0, 3)))
err("calm", "moral", q(x, moral = matrix(0, 6, 5)))
err("calm", "moral", q(x, moral = diag(6)))
err("calm", "moral", q(x, moral = moral_dir))
err("calm", "moral", q(x, moral = moral_cyc))
err("calm", "moral", q(x, moral = with_na(as_amat(mg_true))))
err("calm", "moral", q(x, moral = as_amat(mg_true) * 0.5))
err("calm", "moral", q(x, moral = "markov"))
err("calm", "moral", q(x, moral = list()))
err("calm", "moral", q(x, moral = igraph::make_ring(3)))
err("calm", "moral", q(x, moral = igraph::make_ring(6, directed = TRUE)))
err("calm", "moral", q(x, moral = igraph::set_vertex_attr(igraph::make_ring(6), "name",
                                                              value = letters[1:6])))
err("calm", "standardize", q(x, standardize = NA))
err("calm", "standardize", q(x, standardize = "yes"))
err("calm", "gate", q(x, gate = "relu"))
err("calm", "constraint", q(x, constraint = 1))
err("calm", "score", q(x, score = NA))
err("calm", "restarts", q(x, restarts = 0))
err("calm", "restarts", q(x, restarts = 1.5))
err("calm", "restarts", q(x, restarts = -2))
err("calm", "verbose", calm(x, verbose = "no"))
err("calm", "control", q(x, control = "fast"))
err("calm", "lambda1", calm(x, control = list(lambda1 = -1), verbose = FALSE))
err("calm", "foo", q(x, foo = 1))
err("calm", "lambda1", q(x, lambda1 = 0.1, lambda1 = 0.2))
hps <- list(lambda1 = -1, tau = 0, tau = -1, rho_init = 0, rho_init = -1e-5, rho_mult = 0.5,
            h_tol = 0, lr = 0, lr = -1e-3, lr = Inf, threshold = 0, threshold = 1,
            lambda2 = -1, init_scale = -1, stg_sigma = 0, tanh_c = 0, weight_threshold = -1,
            lambda1 = NA, tau = NaN, iter_per_round = 0, max_rounds = 0, soft_iter = 0,
            iter_per_round = 2.5, acyclicity = "log", simd = NA, early_stop = NA,
            early_stop = "yes", check_every = 0, check_every = 10.5, patience = 0,
            patience = 2000, stop_tol = -1, stop_tol = NA, settle_rounds = -1,
            settle_rounds = 1.5, settle_rounds = 2000, h_settle = -1e-6, h_settle = NA,
            h_settle = "small", threads = 0, threads = 1.5, threads = NA, threads = "2",
            threads = 100)
for (i in seq_along(hps)) {
  nm <- names(hps)[i]
  add_case("calm", "error", as.call(c(quote(q), quote(x), hps[i])), arg = nm)
  add_case("calm_control", "error", as.call(c(quote(calm_control), hps[i])), arg = nm)
}
refine_hps <- list(order_free_starts = NA, order_free_starts = 1, grow_ratio = -0.1,
                   grow_ratio = 2, grow_ratio = NA, kicks = -1, kicks = 2.5, kicks = NA,
                   kick_size = 0, kick_size = "5")
for (i in seq_along(refine_hps)) {
  add_case("search_control", "error", as.call(c(quote(search_control), refine_hps[i])),
           arg = names(refine_hps)[i])
}
err("calm_control", "foo", calm_control(foo = 1))
err("calm_control", "iter_per_round", calm_control(iter_per_round = 1e10))
err("calm_control", "lambda1", calm_control(lambda1 = c(0.1, 0.2)))
err("calm_control", "lambda1", calm_control(lambda1 = "0.1"))
ok("calm_control", calm_control(lambda1 = 0, init_scale = 0, weight_threshold = 0),
   function(ctrl) inherits(ctrl, "calm_control"))
# the refinement's settings: search_control() names its own arguments
err("search_control", "kicks", search_control(kicks = -1))
err("search_control", "grow_ratio", search_control(grow_ratio = 2))
err("search_control", "exact_max_d", search_control(exact_max_d = 30))
err("search_control", "penalty", search_control(penalty = "aic"))
err("search_control", "forward", search_control(forward = "yes"))
err("search_control", "kiks", search_control(kiks = 1))
err("search_control", "risk_starts", search_control(risk_starts = -1))
err("search_control", "risk_starts", search_control(risk_starts = NA))
err("search_control", "risk_temperature", search_control(risk_temperature = 0))
err("calm_control", "refine_risk_temperature", calm_control(refine_risk_temperature = -2))
err("calm", "refine_kicks", q(x, refine_kicks = 0))
err("calm_control", "search", calm_control(search = list(kiks = 1)))
err("calm_control", "search", calm_control(search = "fast"))
err("refine_control", "kicks", suppressWarnings(refine_control(kicks = -1)))
ok("search_control", search_control(kicks = 0, exact_max_d = 0, forward = TRUE),
   function(rc) inherits(rc, "calm_search_control") && rc$kicks == 0)
# boss() under background knowledge: unknown names, contradictions
err("boss", "knowledge", boss(x, knowledge = background_knowledge(required = c("X1", "nope"))))
err("boss", "knowledge", boss(x, knowledge = background_knowledge(required = c("X1", "X2"),
                                                                forbidden = c("X1", "X2"))))
err("boss", "knowledge", boss(x, knowledge = background_knowledge(
  required = data.frame(from = c("X1", "X2"), to = c("X2", "X1")))))
err("boss", "knowledge", boss(x, knowledge = 3))
# Hostile but valid: extreme scales give the same graph as the unscaled data
# (the learners work on scale-free quantities), tiny problems work, and the
# schedule-cut-short warning is the documented one.
warn("calm", not_met, q(x * 1e8), function(f) same_fit_graph(f, calm_ref))
warn("calm", not_met, q(x * 1e-8), function(f) same_fit_graph(f, calm_ref))
warn("calm", not_met, q(sweep(x, 2, mixed_scale, "*")), function(f) same_fit_graph(f, calm_ref))
warn("calm", not_met, q(x * 1e8, standardize = FALSE), function(f) same_fit_graph(f, calm_ref_raw))
warn("calm", not_met, q(x * 1e-8, standardize = FALSE), function(f) same_fit_graph(f, calm_ref_raw))
warn("calm", not_met, q(cov = S * 1e8), function(f) same_fit_graph(f, calm_ref_cov))
warn("calm", not_met, q(cov = S * 1e-8), function(f) same_fit_graph(f, calm_ref_cov))
warn("calm", not_met, q(x, lr = 1e10, tau = 1e-300), fit_ok)
ok("calm", q(x[, 1:2], moral = "none", max_rounds = 30), fit_ok)
ok("calm", q(x, moral = matrix(0, 6, 6)), function(f) fit_ok(f) && sum(f$amat) == 0)
warn("calm", not_met, q(x, moral = mg_true, gate = "tanh", max_rounds = 30, schedule = "long"), fit_ok)
ok("calm", q(x[1:7, ], moral = "none", max_rounds = 30), fit_ok)   # n = d + 1
ok("calm", q(x > 0, max_rounds = 30), fit_ok)   # logical data
warn("calm", "had a directed cycle", q(x, moral = "none", constraint = "soft", soft_iter = 300),
     fit_ok)
err("coef.calm_fit", "type", coef(calm_ref, type = "weights"))
err("coef.calm_fit", "type", coef(fit, type = "raw"))   # a fit without raw weights
err("print.summary.calm_fit", "max_edges", print(summary(calm_ref), max_edges = NA))
err("print.summary.calm_fit", "max_edges", print(summary(calm_ref), max_edges = "all"))
err("print.summary.calm_fit", "max_edges", print(summary(calm_ref), max_edges = -1))
ok("print.summary.calm_fit", capture.output(print(summary(calm_ref), max_edges = Inf)),
   function(out) length(out) > 5)
ok("print.calm_fit", capture.output(print(fit)), function(out) length(out) > 1)
  }))
})
