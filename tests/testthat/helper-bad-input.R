# The bad-input table of every exported function (see test-bad-input.R): its
# fixtures, the functions that add cases and the runner. Each topic's cases
# sit in its test file (test-<topic>.R), inside bad_input_section().
# Bad inputs for every exported function, as one table. Each case must end in
# one of three ways, and none may crash R:
# * err():  an error of class `calm_error` whose message names the argument;
# * warn(): a documented warning (matched by pattern) and a sensible result;
# * ok():   input that looks hostile but is valid (extreme scales, edge
#           sizes): no error, no warning, and a result that passes `check`.
# A new export without a case here makes the coverage test fail.


# calm()'s documented warning when its schedule is cut short.
not_met <- "before the acyclicity constraint was met"

# ---- fixtures ---------------------------------------------------------------
# Built inside the test (make_fixtures()), not when the file loads: they fit
# models. The cases below only record expressions, evaluated among them.
fx <- new.env()
# built once per run of the tests, by the first topic that runs its cases
make_fixtures <- function() {
  if (!exists("x", envir = fx, inherits = FALSE)) build_fixtures()
}
build_fixtures <- function() local(envir = fx, {
  sem <- withr::with_seed(11, simulate_sem(6, k = 1, n = 200))
  x <- sem$x
  S <- sem$sigma
  B <- sem$B
  A <- (B != 0) * 1
  cyc <- matrix(c(0, 1, 0, 0, 0, 1, 1, 0, 0), 3, byrow = TRUE,
                dimnames = rep(list(c("a", "b", "c")), 2))
  loop <- diag(3)
  nonsq <- matrix(0, 2, 3)
  with_na <- function(m, i = 1, j = 2, v = NA) {
    m[i, j] <- v
    m
  }
  asym <- with_na(S, 1, 2, S[1, 2] + 1)
  singular <- S
  singular[, 6] <- singular[6, ] <- c(S[1:5, 1], S[1, 1])   # X6 duplicates X1
  not_pd <- matrix(c(1, 2, 2, 1), 2)
  dup_x <- cbind(x, copy = x[, 1])
  const_x <- cbind(x, const = 3)
  fit <- calm:::new_calm_fit(A, sigma = S)
  fit_no_sigma <- fit
  fit_no_sigma$sigma <- NULL
  trace_ok <- data.frame(round = 1:3, h = c(1, 1e-3, 1e-9), objective = c(3, 2, 1))
  mixed_scale <- rep(c(1e8, 1e-8), 3)
  same_graph <- function(g, ref) identical(unname(as_amat(g)), unname(as_amat(ref)))
  mg_ref <- estimate_moral_graph(x)
  mg_ref_cov <- estimate_moral_graph(cov = S)
  # calm() with a short schedule and a fixed seed, so that its documented
  # warnings (schedule cut short, cycle repaired) are the same every run; the
  # continuous phase in full (it is what these inputs stress; with more rows
  # than variables the default cuts it to one step, tested in test-search-refine.R).
  q <- function(..., iter_per_round = 300, max_rounds = 2) {
    withr::with_seed(9, calm(..., iter_per_round = iter_per_round, max_rounds = max_rounds,
                             continuous = "always", verbose = FALSE))
  }
  q_ref <- function(...) suppressWarnings(q(...))
  fit_ok <- function(f) {
    inherits(f, "calm_fit") && is_dag(f) && all(is.finite(f$B)) && all(is.finite(f$B_raw))
  }
  calm_ref <- q_ref(x)
  calm_ref_cov <- q_ref(cov = S)
  calm_ref_raw <- q_ref(x, standardize = FALSE)
  same_fit_graph <- function(f, ref) fit_ok(f) && identical(unname(f$amat), unname(ref$amat))
  mg_true <- moral_graph(A)
  moral_dir <- A                       # a DAG, not a moral graph
  moral_cyc <- A * 0
  moral_cyc[1, 2] <- moral_cyc[2, 3] <- moral_cyc[3, 1] <- 1
  golem_ref <- golem_nv(x, control = golem_control(max_iter = 2000))
  notears_ref <- notears_linear(x)
  # NOTEARS ends at a penalty of about 1e13, where L-BFGS-B (factr 1e7)
  # resolves the weights only to about 1e-2: inputs equal up to rounding
  # (a rescaled data set) can move a weight across the 0.1 threshold. Its
  # scale checks therefore compare the weights, not the thresholded graph.
  near_notears <- function(f) {
    inherits(f, "calm_fit") && is_dag(f) &&
      max(abs(f$W_unthresholded - notears_ref$W_unthresholded)) < 0.02
  }
  mini_bench <- benchmark_methods("golem_nv", data.frame(d = 4), reps = 2,
                                  method_args = list(golem_nv = list(control = golem_control(max_iter = 200))))
  l1_small <- l1_inconsistency(n_graphs = 2, d = 3, seed = 1)
  # names, PAGs, scale, multigraphs
  relabelled <- function(m) `dimnames<-`(m, list(rownames(m), rev(colnames(m))))
  S_rel <- relabelled(S)
  A_rel <- relabelled(A)
  dup_names <- matrix(0, 2, 2, dimnames = list(c("a", "a"), c("a", "a")))
  pag_circle <- structure(matrix(c(0, 1, 0, 2, 0, 2, 0, 3, 0), 3,
                                 dimnames = rep(list(letters[1:3]), 2)),
                          class = "amat", type = "pag")
  pag_marks <- unclass(pag_circle)
  pag_marks[pag_marks == 1] <- 3
  attr(pag_marks, "type") <- NULL
  backslash <- matrix(c(0, 1, 0, 0), 2, dimnames = rep(list(c("a\\b", "c")), 2))
  chain <- matrix(0, 5, 5)
  chain[cbind(1:4, 2:5)] <- 1
  # the true moral graph with one edge given twice
  moral_rep <- igraph::add_edges(mg_true, rep(igraph::ends(mg_true, 1), 2))
  moral_rep_ok <- function(f) {
    inherits(f, "calm_fit") && !igraph::any_multiple(f$moral) &&
      igraph::ecount(f$moral) == igraph::ecount(mg_true)
  }
  moral_dup_name <- igraph::set_vertex_attr(igraph::make_empty_graph(6, directed = FALSE), "name",
                                            value = c(paste0("X", 1:5), "X1"))
  fit_no_B <- calm:::new_calm_fit(A, sigma = S, B_raw = B)
  fit_no_B$B <- NULL
  bn_na <- matrix(c(0, 1, 0, 0), 2, dimnames = rep(list(c("a", NA)), 2))
  # names that are missing or empty, truncated fits
  x_blank <- `colnames<-`(x, c("X1", "", paste0("X", 3:6)))
  x_na_name <- `colnames<-`(x, c("X1", NA, paste0("X", 3:6)))
  near_std <- function(s) max(abs(s - standardize(x))) < 1e-12
  fit_trunc <- fit
  fit_trunc$cpdag_amat <- fit$cpdag_amat[1:3, 1:3]
  fit_no_amat <- fit
  fit_no_amat$amat <- NULL
  fit_no_n <- fit
  fit_no_n["n"] <- list(NULL)
  fit_cyc <- fit                      # amat edited into a cycle: an edge reversed as well
  e1 <- which(A != 0, arr.ind = TRUE)[1, ]
  fit_cyc$amat[e1[2], e1[1]] <- 1
  pag_plain <- unclass(pag_circle)
  attr(pag_plain, "type") <- NULL
  chain3 <- matrix(c(0, 0, 0, 1, 0, 0, 0, 1, 0), 3, dimnames = rep(list(letters[1:3]), 2))
})

bad_input_cases <- list()

add_case <- function(fun, expect, expr, arg = NULL, pattern = NULL, check = NULL,
                     needs = NULL) {
  bad_input_cases[[length(bad_input_cases) + 1L]] <<- list(
    fun = fun, expect = expect, expr = expr, arg = arg, pattern = pattern,
    check = check, needs = needs,
    label = paste0(fun, ": ", paste(deparse(expr, width.cutoff = 500L), collapse = " "))
  )
}
# `pattern`, when given, must occur in the error message: for the errors
# that used to say something untrue.
err <- function(fun, arg, expr, needs = NULL, pattern = NULL) {
  add_case(fun, "error", substitute(expr), arg = arg, needs = needs, pattern = pattern)
}
# `check` is evaluated among the fixtures when the case runs, so it may name
# one (fit_ok) or be a function of the result that reads them.
warn <- function(fun, pattern, expr, check, needs = NULL) {
  add_case(fun, "warning", substitute(expr), pattern = pattern,
           check = substitute(check), needs = needs)
}
ok <- function(fun, expr, check, needs = NULL) {
  add_case(fun, "result", substitute(expr), check = substitute(check), needs = needs)
}


# The cases that `code` adds (err(), warn(), ok(), add_case()), as a list.
bad_input_section <- function(code) {
  bad_input_cases <<- list()
  force(code)
  out <- bad_input_cases
  bad_input_cases <<- list()
  out
}

run_bad_input_case <- function(case) {
  warnings <- character()
  value <- tryCatch(
    withCallingHandlers(
      eval(case$expr, new.env(parent = fx)),
      warning = function(w) {
        warnings <<- c(warnings, conditionMessage(w))
        invokeRestart("muffleWarning")
      }
    ),
    error = function(e) e
  )
  list(value = value, warnings = warnings,
       error = if (inherits(value, "error")) value else NULL)
}

# Runs `cases`: each must end as its kind says (see the top of this file).
expect_bad_inputs <- function(cases) {
  make_fixtures()
  pdf(NULL)   # the plotting cases draw on a null device
  on.exit(grDevices::dev.off(), add = TRUE)
  tally <- c(tried = 0L, error = 0L, warning = 0L, result = 0L)
  for (case in cases) {
    if (!is.null(case$needs) && !requireNamespace(case$needs, quietly = TRUE)) next
    tally[["tried"]] <- tally[["tried"]] + 1L
    out <- run_bad_input_case(case)
    e <- out$error
    msg <- if (is.null(e)) "" else conditionMessage(e)
    passed <- switch(case$expect,
      error = {
        expect(!is.null(e), sprintf("%s\n  gave no error", case$label))
        expect(is.null(e) || inherits(e, "calm_error"),
               sprintf("%s\n  error is not a calm_error: %s", case$label, msg))
        expect(is.null(e) || grepl(paste0("`", case$arg, "`"), cli::ansi_strip(msg), fixed = TRUE),
               sprintf("%s\n  error does not name `%s`: %s", case$label, case$arg, msg))
        expect(length(out$warnings) == 0L,
               sprintf("%s\n  stray warning before the error: %s", case$label,
                       paste(out$warnings, collapse = "; ")))
        says <- is.null(case$pattern) || grepl(case$pattern, cli::ansi_strip(msg), fixed = TRUE)
        expect(says, sprintf("%s\n  error does not say '%s': %s", case$label, case$pattern, msg))
        !is.null(e) && inherits(e, "calm_error") && says
      },
      warning = {
        expect(is.null(e), sprintf("%s\n  failed: %s", case$label, msg))
        expect(any(grepl(case$pattern, cli::ansi_strip(out$warnings), fixed = TRUE)),
               sprintf("%s\n  no warning matching '%s' (got: %s)", case$label, case$pattern,
                       paste(out$warnings, collapse = "; ")))
        good <- is.null(e) && isTRUE(eval(case$check, fx)(out$value))
        expect(good, sprintf("%s\n  result fails its check", case$label))
        good
      },
      result = {
        expect(is.null(e), sprintf("%s\n  failed: %s", case$label, msg))
        expect(length(out$warnings) == 0L,
               sprintf("%s\n  unexpected warning: %s", case$label,
                       paste(out$warnings, collapse = "; ")))
        good <- is.null(e) && isTRUE(eval(case$check, fx)(out$value))
        expect(good, sprintf("%s\n  result fails its check", case$label))
        good
      }
    )
    if (passed) tally[[case$expect]] <- tally[[case$expect]] + 1L
  }
  expect_identical(tally[["error"]] + tally[["warning"]] + tally[["result"]], tally[["tried"]])
}
