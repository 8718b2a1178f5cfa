# Hyperparameters of the continuous baselines, golem_nv() and
# notears_linear(): one validated object each, as calm_control() is for
# calm(). Names keep one meaning across the package: `threshold` is CALM's
# gate cut-off, `weight_threshold` the cut-off on |B|; `max_iter` counts the
# steps of a single optimizer run, `max_rounds` the rounds of a penalty
# schedule.

#' Hyperparameters of GOLEM-NV
#'
#' Collects and checks the tuning parameters of [golem_nv()]. The defaults
#' are those of GOLEM's public code and paper for GOLEM-NV (Ng, Ghassami and
#' Zhang, 2020) and the paper's weight threshold 0.1.
#'
#' @param l1_weight Weight of the l1 penalty (formerly `lambda1`, a name
#'   calm keeps for CALM's l0 weight in [calm_control()]).
#' @param lambda2 Weight of the soft acyclicity penalty (as
#'   `calm_control(lambda2 = )` is for `constraint = "soft"`).
#' @param lr Adam's learning rate.
#' @param max_iter Number of Adam steps (default `1e5`). GOLEM has no stopping rule, so all
#'   of them are run (the same steps with `init = "ev"` for the GOLEM-EV
#'   start).
#' @param weight_threshold Edges with `|B_ij| <= weight_threshold` are
#'   dropped (as `calm_control(weight_threshold = )` for `gate = "tanh"`).
#' @param init `"zero"` (default) starts from `B = 0`; `"ev"` starts from
#'   the unthresholded GOLEM-EV solution (same `lambda2`, `max_iter`, `lr`;
#'   l1 weight `ev_l1_weight`). A starting matrix given to [golem_nv()] as
#'   `B_init` takes precedence.
#' @param ev_l1_weight Weight of the l1 penalty of the GOLEM-EV run that
#'   `init = "ev"` starts from (GOLEM's default for GOLEM-EV, `2e-2`).
#' @param trace_every Record the objective every so many steps (default
#'   1,000) in the fit's `trace` (and report it with `verbose = TRUE`).
#' @param ... Must be empty; catches misspelt arguments.
#' @return An object of class `golem_control`: a named list of the values
#'   above, in this order.
#' @seealso [golem_nv()], [notears_control()], [calm_control()]
#' @examples
#' golem_control()
#' golem_control(max_iter = 5000, init = "ev")
#' set.seed(1)
#' sem <- simulate_sem(4, k = 1)
#' fit <- golem_nv(cov = sem$sigma, control = golem_control(max_iter = 2000))
#' fit$settings$control$max_iter
#' @export
golem_control <- function(l1_weight = 2e-3, lambda2 = 5, lr = 1e-3, max_iter = 1e5,
                          weight_threshold = 0.1, init = c("zero", "ev"), ev_l1_weight = 2e-2,
                          trace_every = 1000, ...) {
  call <- environment()
  rest <- take_old_names(list(...), c(lambda1 = "l1_weight", ev_lambda1 = "ev_l1_weight"),
                         "golem_control", call)
  do.call(check_dots_empty, c(rest, list(fn = "golem_control", call = call)))
  ctrl <- list(
    l1_weight = check_number(l1_weight, "l1_weight", lower = 0, call = call),
    lambda2 = check_number(lambda2, "lambda2", lower = 0, call = call),
    lr = check_number(lr, "lr", lower = 0, lower_open = TRUE, call = call),
    max_iter = check_count(max_iter, "max_iter", min = 1, max = 1e9, call = call),
    weight_threshold = check_number(weight_threshold, "weight_threshold", lower = 0,
                                    call = call),
    init = match_choice(init, c("zero", "ev"), "init", call = call),
    ev_l1_weight = check_number(ev_l1_weight, "ev_l1_weight", lower = 0, call = call),
    trace_every = check_count(trace_every, "trace_every", min = 1, call = call)
  )
  structure(ctrl, class = "golem_control")
}

#' Hyperparameters of linear NOTEARS
#'
#' Collects and checks the tuning parameters of [notears_linear()]. The
#' defaults are those of the authors' code (Zheng et al., 2018), whose
#' L-BFGS-B subproblems use SciPy's defaults, and the paper's weight
#' threshold 0.1.
#'
#' Two implementations of L-BFGS-B can solve the subproblems, with the same
#' stopping rules. `"lbfgspp"` (the default) is the C++ LBFGSpp library's
#' (by Yixuan Qiu, reached through the RcppNumerical package's headers);
#' `"optim"` is R's own, the one `optim(method = "L-BFGS-B")` uses (a C
#' translation of version 2.3 of the Fortran code). They agree on
#' well-scaled problems. On badly scaled ones, such as non-standardized data
#' from dense graphs, where variances reach 10^6, R's stops at the
#' iteration cap far from the optimum (the *Reproducing the paper* vignette
#' has the numbers).
#'
#' @param l1_weight Weight of the l1 penalty (formerly `lambda1`, a name
#'   calm keeps for CALM's l0 weight in [calm_control()]).
#' @param weight_threshold Edges with `|W_ij| <= weight_threshold` are
#'   dropped.
#' @param max_rounds Cap on the number of augmented Lagrangian rounds (as
#'   `calm_control(max_rounds = )` caps CALM's penalty rounds).
#' @param h_tol Stop when the acyclicity function is at most `h_tol`.
#' @param rho_max Stop when the penalty parameter reaches `rho_max`
#'   (default `1e16`).
#' @param lbfgsb_memory Number of corrections L-BFGS-B keeps (default 10;
#'   its `m`, R's `lmm`).
#' @param lbfgsb_factr,lbfgsb_pgtol L-BFGS-B's convergence tolerances: on the
#'   relative reduction of the objective in units of the machine epsilon
#'   (default `1e7`) and on the projected gradient (default `1e-5`).
#' @param lbfgsb_max_iter Cap on the L-BFGS-B iterations of one round's
#'   subproblem (default 15,000).
#' @param solver Which L-BFGS-B solves the subproblems: `"lbfgspp"`
#'   (default) or `"optim"` (see Details).
#' @param ... Must be empty; catches misspelt arguments.
#' @return An object of class `notears_control`: a named list of the values
#'   above, in this order.
#' @seealso [notears_linear()], [golem_control()], [calm_control()]
#' @examples
#' notears_control()
#' notears_control(l1_weight = 0.05, max_rounds = 20)
#' notears_control(solver = "optim")$solver
#' set.seed(1)
#' sem <- simulate_sem(4, k = 1)
#' fit <- notears_linear(cov = sem$sigma, control = notears_control(weight_threshold = 0.3))
#' fit$settings$control$weight_threshold
#' @export
notears_control <- function(l1_weight = 0.1, weight_threshold = 0.1, max_rounds = 100,
                            h_tol = 1e-8, rho_max = 1e16, lbfgsb_memory = 10,
                            lbfgsb_factr = 1e7, lbfgsb_pgtol = 1e-5, lbfgsb_max_iter = 15000,
                            solver = c("lbfgspp", "optim"), ...) {
  call <- environment()
  rest <- take_old_names(list(...), c(lambda1 = "l1_weight"), "notears_control", call)
  do.call(check_dots_empty, c(rest, list(fn = "notears_control", call = call)))
  ctrl <- list(
    l1_weight = check_number(l1_weight, "l1_weight", lower = 0, call = call),
    weight_threshold = check_number(weight_threshold, "weight_threshold", lower = 0,
                                    call = call),
    max_rounds = check_count(max_rounds, "max_rounds", min = 1, max = 1e6, call = call),
    h_tol = check_number(h_tol, "h_tol", lower = 0, call = call),
    rho_max = check_number(rho_max, "rho_max", lower = 1, call = call),
    lbfgsb_memory = check_count(lbfgsb_memory, "lbfgsb_memory", min = 1, max = 100, call = call),
    lbfgsb_factr = check_number(lbfgsb_factr, "lbfgsb_factr", lower = 0, call = call),
    lbfgsb_pgtol = check_number(lbfgsb_pgtol, "lbfgsb_pgtol", lower = 0, call = call),
    lbfgsb_max_iter = check_count(lbfgsb_max_iter, "lbfgsb_max_iter", min = 1, max = 1e8,
                                  call = call),
    solver = match_choice(solver, c("lbfgspp", "optim"), "solver", call = call)
  )
  structure(ctrl, class = "notears_control")
}

#' @export
print.golem_control <- function(x, ...) print_control_table(x, "golem_control")

#' @export
print.notears_control <- function(x, ...) print_control_table(x, "notears_control")

print_control_table <- function(x, class) {
  cat("<", class, ">\n", sep = "")
  vals <- vapply(unclass(x), function(v) paste(format(v, digits = 6), collapse = ", "),
                 character(1))
  print(data.frame(value = vals, row.names = names(vals)), right = FALSE)
  invisible(x)
}

# Names the baselines took before their control objects, mapped to the
# control field each became. A list value names the fields an old list
# argument is spread into (notears_linear(lbfgsb = list(lmm = ...))).
golem_renamed <- list(threshold = "weight_threshold", iter = "max_iter", lambda1 = "l1_weight",
                      ev_lambda1 = "ev_l1_weight")
notears_renamed <- list(
  threshold = "weight_threshold", max_iter = "max_rounds", lambda1 = "l1_weight",
  lbfgsb = list(lmm = "lbfgsb_memory", factr = "lbfgsb_factr", pgtol = "lbfgsb_pgtol",
                maxit = "lbfgsb_max_iter")
)

# The control of a baseline: `control` (the constructor's object or a list
# of its arguments by name) updated by the values in `dots`, which may be
# control fields by their names (as calm()'s `...`) or, for one release,
# the learner's old argument names (with a deprecation warning).
resolve_baseline_control <- function(control, dots, ctor, learner, renamed,
                                     call = parent.frame()) {
  if (inherits(control, ctor)) {
    args <- unclass(control)
  } else if (is.list(control) && !is.object(control) &&
             (length(control) == 0L || (!is.null(names(control)) && all(names(control) != "")))) {
    args <- control
  } else {
    abort_arg("control", "must be the result of {.fn {ctor}} or a list of its arguments by name, not {.obj_type_friendly {control}}.",
              call = call)
  }
  given_as <- NULL
  if (length(dots) > 0L) {
    if (is.null(names(dots)) || any(names(dots) == "")) {
      cli::cli_abort("Arguments in {.arg ...} must be named {.fn {ctor}} arguments.",
                     class = c("calm_error_argument", "calm_error"), call = call)
    }
    dots <- undeprecate_args(dots, renamed, ctor, learner, call = call)
    given_as <- attr(dots, "given_as")
    nm <- names(dots)
    if (anyDuplicated(nm)) {
      twice <- unique(nm[duplicated(nm)])
      cli::cli_abort("Control parameter{?s} {.arg {twice}} {?is/are} given more than once.",
                     class = c("calm_error_argument", "calm_error"), call = call)
    }
    args[nm] <- dots
  }
  unknown <- setdiff(names(args), names(formals(ctor)))
  if (length(unknown) > 0L) {
    cli::cli_abort(c("Unknown control parameter{?s}: {.arg {unknown}}.",
                     i = "See {.fn {ctor}} for the parameters of {.fn {learner}}."),
                   class = c("calm_error_argument", "calm_error"), call = call)
  }
  # the constructor's error names the field; it is raised as the learner's
  # and names the argument as the user wrote it (`lbfgsb$pgtol`, not the
  # field `lbfgsb_pgtol` it became)
  tryCatch(do.call(ctor, args), calm_error_argument = function(e) {
    e$call <- if (is.environment(call)) rlang::frame_call(call) else call
    for (f in names(given_as)) {
      e$message <- gsub(paste0("`", f, "`"), paste0("`", given_as[[f]], "`"), e$message,
                        fixed = TRUE)
    }
    stop(e)
  })
}

# Old argument names in `dots` replaced by the control fields they became,
# with one deprecation warning that shows the new form.
undeprecate_args <- function(dots, renamed, ctor, learner, call) {
  old <- intersect(names(dots), names(renamed))
  if (length(old) == 0L) return(dots)
  # appended, not assigned: an old name given with its new one is caught as
  # a field given twice
  out <- dots[setdiff(names(dots), old)]
  new_names <- character()
  given_as <- list()
  for (o in old) {
    target <- renamed[[o]]
    v <- dots[[o]]
    if (is.character(target)) {
      v <- stats::setNames(list(v), target)
      given_as[[target]] <- o
    } else if (!is.list(v) || (length(v) && (is.null(names(v)) ||
                                             !all(names(v) %in% names(target))))) {
      abort_arg(o, "must be a list with elements among {.val {names(target)}}.", call = call)
    } else {
      given_as[unlist(target[names(v)], use.names = FALSE)] <- paste0(o, "$", names(v))
      names(v) <- unlist(target[names(v)], use.names = FALSE)
    }
    out <- c(out, v)
    new_names <- c(new_names, names(v))
  }
  shown <- paste0(new_names, " = ...", collapse = ", ")
  hint <- "Use {.code control = {ctor}({shown})} instead"
  if ("threshold" %in% old) {
    hint <- paste0(hint, "; in {.pkg calm}, {.arg threshold} is CALM's gate cut-off and {.arg weight_threshold} a cut-off on weights")
  }
  cli::cli_warn(
    c("{.arg {old}} of {.fn {learner}} {cli::qty(length(old))}{?is/are} deprecated; {?it/they} will be removed in the next release.",
      i = paste0(hint, ".")),
    class = c("calm_warning_deprecated", "calm_warning"), call = call
  )
  structure(out, given_as = given_as)
}

# The arguments in `dots` that a function (`fn`, its frame `env`) took under
# an old name (`renamed`: old = new), set under their new names in `env` with
# a deprecation warning; the other arguments are returned. An old name given
# with its new one is an error.
take_old_names <- function(dots, renamed, fn, env,
                           hint = "In {.pkg calm}, {.arg lambda1} is CALM's l0 weight ({.fn calm_control}) only.") {
  old <- intersect(names(dots), names(renamed))
  if (length(old) == 0L) return(dots)
  for (o in old) {
    new <- renamed[[o]]
    if (!eval(call("missing", as.name(new)), env)) {
      abort_arg(o, "is the former name of {.arg {new}}; give only {.arg {new}}.", call = env)
    }
    assign(new, dots[[o]], envir = env)
  }
  cli::cli_warn(
    c("{.arg {old}} of {.fn {fn}} {cli::qty(length(old))}{?is/are} deprecated; use {.arg {unname(unlist(renamed[old]))}}.",
      i = hint),
    class = c("calm_warning_deprecated", "calm_warning"), call = env
  )
  dots[setdiff(names(dots), old)]
}
