# Hyperparameters of calm(): one validated object, printed as a table.

#' Hyperparameters of CALM
#'
#' Collects and checks the tuning parameters of [calm()]. Most defaults are
#' the paper's: Gumbel-sigmoid gates with temperature 0.5, sparsity weight
#' 0.005, and a quadratic-penalty schedule for the acyclicity constraint
#' that starts at `rho = 1e-5`. The length of the schedule's rounds and
#' Adam's learning rate are set by `schedule`:
#' - `"long"`: the paper's rounds of 40,000 Adam steps at learning rate
#'   0.001, `rho` multiplied by 3 between rounds, until `h < 1e-8`. [calm()]
#'   runs it when no refinement follows (`refine = "none"`); with
#'   `early_stop = FALSE` every round runs in full, which is the paper's
#'   schedule.
#' - `"short"`: rounds of 300 steps at learning rate 0.01, `rho` multiplied
#'   by 10, until `h < 1e-3` or until the thresholded graph is acyclic and
#'   unchanged for `settle_rounds` rounds with `h < 0.01`. [calm()] runs it when the
#'   refinement follows (the default), which decides the final edges.
#'
#' Any of `iter_per_round`, `rho_mult`, `lr`, `check_every`, `patience`,
#' `h_tol` and `h_settle` given explicitly is kept under either schedule. The
#' measurements behind the defaults are listed in the package's
#' `bench/README.md` (`system.file("bench", "README.md", package = "calm")`).
#'
#' @param lambda1 Weight of the approximate l0 penalty (default 0.005): the
#'   sum of the gates (`gate = "gumbel"`), of the gates' probabilities of
#'   being open (`"stg"`) or of `tanh(tanh_c * |B|)` (`"tanh"`).
#' @param tau Temperature of the Gumbel-sigmoid gate (default 0.5).
#' @param rho_init,rho_mult Penalty weight of the hard constraint in the
#'   first round (default `1e-5`) and its factor between rounds (default 10
#'   for the short schedule, 3 for the long one).
#' @param iter_per_round Adam steps per round of the hard constraint
#'   (default 300 for the short schedule, 40,000 for the long one). Adam's
#'   moment estimates restart with each round.
#' @param max_rounds Cap on the number of rounds (default 45); a fit that
#'   hits it is reported as not converged.
#' @param h_tol The schedule ends once the acyclicity function `h` of the
#'   deterministic gate is below this value (default `1e-3` for the short
#'   schedule, the paper's `1e-8` for the long one).
#' @param lr Adam's learning rate (default 0.01 for the short schedule, the
#'   paper's `1e-3` for the long one; `beta1 = 0.9`, `beta2 = 0.999`,
#'   `eps = 1e-8`).
#' @param threshold An entry is an edge when its deterministic gate exceeds
#'   this value (default 0.5; `"gumbel"`: `sigmoid(U / tau)`; `"stg"`:
#'   `clamp(mu, 0, 1)`).
#' @param lambda2 Weight of `h` with `constraint = "soft"` (default 0.1).
#' @param soft_iter Adam steps of the single soft-constraint run (default
#'   40,000).
#' @param init_scale Initial weights `P` are uniform on
#'   `[-init_scale, init_scale]` (default `1e-3`).
#' @param stg_sigma,stg_init Noise standard deviation and initial mean of the
#'   stochastic gates of `gate = "stg"` (both default 0.5).
#' @param tanh_c Sharpness `c` of the `tanh(c |B|)` penalty of
#'   `gate = "tanh"` (default 15).
#' @param weight_threshold With `gate = "tanh"` (no gate), an entry is an
#'   edge when `|B|` exceeds this value (default 0.1, as for GOLEM and
#'   NOTEARS in the paper).
#' @param acyclicity `"poly"` (default): `h(A) = tr((I + A / d)^d) - d`;
#'   `"exp"`: `h(A) = tr(exp(A)) - d`, with `A` the gate matrix (`B * B` for
#'   `gate = "tanh"`).
#' @param poly_series With `acyclicity = "poly"`, compute `h` and its
#'   gradient on a sparse connected component of the moral graph (fewer
#'   than a quarter of its pairs free) from the power series
#'   `sum_k C(d, k) tr((A / d)^k)`, one sparse product per term, stopped
#'   once a bound on the rest is below `1e-13` (default `TRUE`). It is the
#'   same function as the binary powering of `I + A / d` used otherwise, to
#'   rounding error; where the series would need more work than the
#'   powering (gates near 1 on a dense component) the powering runs. `FALSE`
#'   always powers. A step took a third of the CPU time at 500 variables
#'   and 60-95% of it at 200 (ER1, paired on the same data; vignette *What
#'   each stage of calm() buys, and what it costs*).
#' @param simd Use the AVX2 build of the kernel when the CPU supports it
#'   (default `TRUE`). It agrees with the generic build to rounding error,
#'   which a long stochastic optimization can amplify: set `FALSE` to
#'   reproduce a fit across machines with and without AVX2.
#' @param threads Threads for the matrix products of the step kernel
#'   (default 2), used for connected components of the moral graph with at
#'   least 180 nodes, and above `search_control(all_pairs_max_d)` variables
#'   for IAMB's Markov blankets, the insertions GES scores, BOSS's starts, the
#'   sweeps of a single BOSS start (a helper examines the variables ahead of
#'   the sweep), the scan's insertions and the refinement's kicks (each
#'   thread takes the next kick, run again where a kick ahead of it improved
#'   the order); the search's helper thread keeps
#'   caches of its own (more memory:
#'   `vignette("stage-budget", package = "calm")`). The result is the same
#'   bit for bit for every value. Use 1 when components are fitted in
#'   parallel through a future plan, or on a one-core machine.
#' @param early_stop End a round before `iter_per_round` steps once it has
#'   stopped making progress, and the schedule once the learned graph has
#'   settled (default `TRUE`; `FALSE` runs every round in full until
#'   `h < h_tol`). Every `check_every` steps the rule looks back over the
#'   last `patience` checks; the round ends when the edge set did not change,
#'   no gate parameter, drifting on at its pace, would cross the edge
#'   threshold before the round's last step, and either `h < h_tol` or the
#'   objective fell by less than `stop_tol` with `h` not about to reach
#'   `h_tol` within the round. Rounds shorter than
#'   `(patience + 1) * check_every` steps, and the single run of
#'   `constraint = "soft"`, always run in full.
#' @param settle_rounds,h_settle With `early_stop = TRUE`, the schedule also
#'   ends (converged, `fit$stop == "settled"`) when the edge set is acyclic
#'   and unchanged over the last `settle_rounds` rounds (default 2; 0 turns
#'   this off), `h` is below `h_settle` (default `0.01` for the short
#'   schedule, `1e-6` for the long one) and no gate is about to cross the
#'   edge threshold.
#' @param check_every Steps between two checks of the early-stopping rule
#'   (default 100 for the short schedule, 1,000 for the long one).
#' @param patience Number of consecutive checks the rule looks back over
#'   (default 3 for the short schedule, 5 for the long one).
#' @param stop_tol Smallest decrease of the objective at the deterministic
#'   gate over `patience` checks that counts as progress (default `1e-4`).
#' @param search The settings of the discrete search that refines CALM's
#'   graph (used with `calm(refine = "ges")`, the default) and of its
#'   penalty's choice: the result of [search_control()] or a list of its
#'   arguments. `NULL` (default): `search_control()`'s defaults. The object
#'   holds them as one field, `search`, a `calm_search_control` object.
#' @param penalty_discount,penalty_grid,penalty_folds Shortcuts for the same
#'   settings of `search` (see [search_control()]): `calm(x,
#'   penalty_discount = 3)` sets `search_control(penalty_discount = 3)`.
#'   `NULL` (default): as in `search`.
#' @param refine The former name of `search` (deprecated).
#' @param schedule `"short"` or `"long"` (see Description); `NULL`
#'   (default) lets [calm()] choose: short when the refinement follows, long
#'   when it does not or with `early_stop = FALSE`. Stored as the object's
#'   `schedule` attribute.
#' @param split_components Fit each connected component of the moral graph
#'   (read with the background knowledge) as a problem of its own, with its
#'   own `d` in the acyclicity function, its own schedule and its own seed
#'   (default `TRUE`; see [calm()], "Components"). The components run
#'   through [future.apply::future_lapply()]. A connected moral graph gives
#'   the same fit either way; `FALSE` fits the whole problem at once, as in
#'   the paper.
#' @param continuous When the continuous optimization runs before the
#'   refinement (`refine = "ges"`). `"auto"` (default): only with no more
#'   observations than variables (`n <= d`) and at most 1000 variables;
#'   otherwise it is cut to one Adam step, whose graph is only the
#'   refinement's start (above 1000 variables the full phase takes hours,
#'   and there the one step is skipped too: the refinement starts from the
#'   empty graph, `fit$continuous` is `"none"`). On 90 data sets
#'   with `n > d` (ER1 to ER4 graphs at 20 to 100 variables, scale-free,
#'   hub and fitted networks) the refined graph was the same either way,
#'   while the continuous phase took a median quarter of the fit's time,
#'   and at 500 and 1000 variables 97% of it (vignette *What each
#'   stage of calm() buys, and what it costs*). `"always"`: run it in full
#'   (the paper's pipeline followed by the refinement). `"none"`: skip it
#'   at any size, as `"auto"` does above 1000 variables. With
#'   `refine = "none"` it always runs in full.
#' @param ... Must be empty; catches misspelt arguments.
#' @return An object of class `calm_control`: a named list of the values.
#' @seealso [calm()]
#' @examples
#' calm_control()
#' calm_control(iter_per_round = 5000, acyclicity = "exp")
#' # the paper's schedule: every round runs all 40,000 steps
#' calm_control(early_stop = FALSE)
#' # the long rounds, ended early, also with the refinement
#' calm_control(schedule = "long")
#' @export
calm_control <- function(lambda1 = 0.005, tau = 0.5, rho_init = 1e-5, rho_mult = NULL,
                         iter_per_round = NULL, max_rounds = 45, h_tol = NULL,
                         lr = NULL, threshold = 0.5, lambda2 = 0.1, soft_iter = 40000,
                         init_scale = 1e-3, stg_sigma = 0.5, stg_init = 0.5,
                         tanh_c = 15, weight_threshold = 0.1,
                         acyclicity = c("poly", "exp"), poly_series = TRUE, simd = TRUE, threads = 2L,
                         early_stop = TRUE, check_every = NULL, patience = NULL,
                         stop_tol = 1e-4, settle_rounds = 2, h_settle = NULL,
                         search = NULL, penalty_discount = NULL, penalty_grid = NULL,
                         penalty_folds = NULL, refine = NULL, split_components = TRUE, continuous = c("auto", "always", "none"),
                         schedule = NULL,
                         ...) {
  call <- environment()
  check_dots_empty(..., fn = "calm_control", call = call)
  auto <- is.null(schedule)
  schedule <- if (auto) {
    if (isTRUE(early_stop)) "short" else "long"
  } else {
    match_choice(schedule, names(schedule_presets()), "schedule", call = call)
  }
  preset <- schedule_presets()[[schedule]]
  given <- list(iter_per_round = iter_per_round, rho_mult = rho_mult, lr = lr,
                check_every = check_every, patience = patience, h_tol = h_tol,
                h_settle = h_settle)
  filled <- names(given)[vapply(given, is.null, logical(1))]
  for (f in filled) assign(f, preset[[f]])
  ctrl <- list(
    lambda1 = check_number(lambda1, "lambda1", lower = 0, call = call),
    tau = check_number(tau, "tau", lower = 0, lower_open = TRUE, call = call),
    rho_init = check_number(rho_init, "rho_init", lower = 0, lower_open = TRUE, call = call),
    rho_mult = check_number(rho_mult, "rho_mult", lower = 1, call = call),
    iter_per_round = check_count(iter_per_round, "iter_per_round", min = 1, max = 1e9, call = call),
    max_rounds = check_count(max_rounds, "max_rounds", min = 1, max = 1000, call = call),
    h_tol = check_number(h_tol, "h_tol", lower = 0, lower_open = TRUE, call = call),
    lr = check_number(lr, "lr", lower = 0, lower_open = TRUE, call = call),
    threshold = check_number(threshold, "threshold", lower = 0, upper = 1,
                             lower_open = TRUE, upper_open = TRUE, call = call),
    lambda2 = check_number(lambda2, "lambda2", lower = 0, call = call),
    soft_iter = check_count(soft_iter, "soft_iter", min = 1, max = 1e9, call = call),
    init_scale = check_number(init_scale, "init_scale", lower = 0, call = call),
    stg_sigma = check_number(stg_sigma, "stg_sigma", lower = 0, lower_open = TRUE, call = call),
    stg_init = check_number(stg_init, "stg_init", call = call),
    tanh_c = check_number(tanh_c, "tanh_c", lower = 0, lower_open = TRUE, call = call),
    weight_threshold = check_number(weight_threshold, "weight_threshold", lower = 0,
                                    call = call),
    acyclicity = match_choice(acyclicity, c("poly", "exp"), "acyclicity", call = call),
    poly_series = check_flag(poly_series, "poly_series", call = call),
    simd = check_flag(simd, "simd", call = call),
    threads = check_count(threads, "threads", min = 1, max = 64, call = call),
    early_stop = check_flag(early_stop, "early_stop", call = call),
    check_every = check_count(check_every, "check_every", min = 1, max = 1e9, call = call),
    patience = check_count(patience, "patience", min = 1, max = 1000, call = call),
    stop_tol = check_number(stop_tol, "stop_tol", lower = 0, call = call),
    settle_rounds = check_count(settle_rounds, "settle_rounds", min = 0, max = 1000, call = call),
    h_settle = check_number(h_settle, "h_settle", lower = 0, call = call),
    search = control_search(search, refine, list(penalty_discount = penalty_discount,
                                                 penalty_grid = penalty_grid,
                                                 penalty_folds = penalty_folds), call = call),
    split_components = check_flag(split_components, "split_components", call = call),
    continuous = match_choice(continuous, c("auto", "always", "none"), "continuous", call = call)
  )
  structure(ctrl, class = "calm_control",
            schedule = list(name = schedule, auto = auto, filled = filled))
}

# The two schedules of the hard constraint's rounds. "long" is the paper's
# (40,000 steps a round, rho times 3), with early stopping as calm() had it
# before the refinement existed; "short" lands the continuous phase in the
# right basin for the refinement that follows (see the docs of `schedule`).
schedule_presets <- function() {
  list(
    short = list(iter_per_round = 300, rho_mult = 10, lr = 0.01, check_every = 100,
                 patience = 3, h_tol = 1e-3, h_settle = 0.01),
    long = list(iter_per_round = 40000, rho_mult = 3, lr = 1e-3, check_every = 1000,
                patience = 5, h_tol = 1e-8, h_settle = 1e-6)
  )
}

# calm() runs the short schedule when the refinement follows and the long
# one when it does not, unless the user chose: a control whose schedule was
# left to calm() has its preset fields refilled from the long preset.
schedule_for_refine <- function(ctrl, refine) {
  sc <- attr(ctrl, "schedule")
  if (is.null(sc) || !isTRUE(sc$auto) || refine != "none" || sc$name == "long") return(ctrl)
  args <- unclass(ctrl)
  attr(args, "schedule") <- NULL
  args[sc$filled] <- NULL
  out <- do.call(calm_control, c(args, list(schedule = "long")))
  attr(out, "schedule")$auto <- TRUE
  out
}

#' @export
print.calm_control <- function(x, ...) {
  cat("<calm_control>\n")
  sc <- attr(x, "schedule")
  if (!is.null(sc)) {
    cat("schedule:", sc$name, if (isTRUE(sc$auto)) "(chosen by calm(): short with the refinement, long without)" else "", "\n")
  }
  fields <- unclass(x)[setdiff(names(x), "search")]
  vals <- vapply(fields, function(v) paste(format(v, digits = 6), collapse = ", "),
                 character(1))
  print(data.frame(value = vals, row.names = names(vals)), right = FALSE)
  if (!is.null(x[["search"]])) {
    cat("search: ")
    print(x[["search"]])
  }
  invisible(x)
}

# search_control(penalty): "ebic", "bic", "lambda1" or a non-negative number.

# calm_control()'s `search`: the search_control() object (or list, NULL),
# from `refine` (its deprecated name) when `search` is NULL, with the
# shortcuts `penalty_discount`, `penalty_grid` and `penalty_folds` (NULL: not
# given) set in it.
control_search <- function(search, refine, shortcuts, call) {
  arg <- "search"
  if (!is.null(refine)) {
    if (!is.null(search)) {
      abort_arg("refine", "is the former name of {.arg search}; give only {.arg search}.",
                call = call)
    }
    rlang::warn("`calm_control(refine = )` is deprecated; use `search = search_control(...)`.",
                class = c("calm_warning_deprecated", "calm_warning"),
                .frequency = "once", .frequency_id = "calm_control_refine")
    search <- refine
    arg <- "refine"
  }
  sc <- search_settings_arg(search, call = call, arg = arg)
  shortcuts <- shortcuts[!vapply(shortcuts, is.null, logical(1))]
  if (length(shortcuts) == 0L) return(sc)
  args <- unclass(sc)[attr(sc, "given")]
  args[names(shortcuts)] <- shortcuts
  do.call(search_control, args)
}
# The control argument of calm(): a calm_control object, or a list of
# calm_control() arguments, updated by the control values passed in `...`.
resolve_control <- function(control, dots, call = parent.frame()) {
  if (inherits(control, "calm_control")) {
    sc <- attr(control, "schedule")
    args <- unclass(control)
    attr(args, "schedule") <- NULL
    # fields the schedule filled are filled again, so that a schedule
    # changed in `...` (or by early_stop) takes effect
    if (!is.null(sc)) {
      args[sc$filled] <- NULL
      if (!isTRUE(sc$auto)) args$schedule <- sc$name
    }
  } else if (is.list(control)) {
    if (length(control) > 0L &&
        (is.null(names(control)) || any(names(control) == "") ||
         any(vapply(control, inherits, logical(1), "calm_control")))) {
      abort_arg("control", "must be the result of {.fn calm_control} or a list of its arguments by name, not a list holding unnamed values or a {.cls calm_control} object.",
                i = "Pass {.code control = calm_control(...)} itself.", call = call)
    }
    args <- control
  } else {
    abort_arg("control", "must be the result of {.fn calm_control} or a list of its arguments, not {.obj_type_friendly {control}}.",
              call = call)
  }
  if (length(dots) > 0L) {
    nm <- names(dots)
    if (is.null(nm) || any(nm == "")) {
      cli::cli_abort("Arguments in {.arg ...} must be named {.fn calm_control} arguments.",
                     class = c("calm_error_argument", "calm_error"), call = call)
    }
    if (anyDuplicated(nm)) {
      twice <- unique(nm[duplicated(nm)])
      cli::cli_abort("Control parameter{?s} {.arg {twice}} {?is/are} given more than once.",
                     class = c("calm_error_argument", "calm_error"), call = call)
    }
    args[nm] <- dots
  }
  known <- names(formals(calm_control))
  unknown <- setdiff(names(args), known)
  if (length(unknown) > 0L) {
    cli::cli_abort(c("Unknown control parameter{?s}: {.arg {unknown}}.",
                     i = "See {.fn calm_control} for the parameters of {.fn calm}."),
                   class = c("calm_error_argument", "calm_error"), call = call)
  }
  tryCatch(
    do.call(calm_control, args),
    calm_error_argument = function(e) {
      cli::cli_abort("Invalid control parameter.", parent = e,
                     class = c("calm_error_argument", "calm_error"), call = call)
    }
  )
}

# The calm_control() fields that only R reads: the penalty's choice, the
# refinement's settings and the split by components. Every other field is
# the optimizer's, and only those reach cpp_calm_fit().
control_r_fields <- c("search", "split_components", "continuous")

# Whether calm() cuts its continuous phase to one step (calm_control(continuous)):
# with the refinement, "auto", and more observations than variables, or
# more than CONTINUOUS_MAX_D variables whatever n: there one Adam step costs
# 0.14 to 0.29 s (d = 1000) and the phase takes thousands of them; at
# d = 2000, n = 2000 it had given no graph after 25 minutes.
CONTINUOUS_MAX_D <- 1000
continuous_cut <- function(ctrl, refine, n, d) {
  how <- ctrl[["continuous"]] %||% "auto"
  refine == "ges" && (how == "none" ||
                        how == "auto" && is.finite(n) && (n > d || d > CONTINUOUS_MAX_D))
}

# Whether a cut continuous phase is skipped altogether: above
# CONTINUOUS_MAX_D variables. Its one Adam step moves every gate by the sign
# of one noisy gradient, so its graph is a random start, yet the step costs
# d^3 operations (42 of 288 s at d = 5000) and the optimizer's nine d x d
# matrices (7.2 GB at d = 10000). The refinement then starts from the
# empty graph (the required edges under knowledge).
continuous_skip <- function(ctrl, refine, n, d) {
  continuous_cut(ctrl, refine, n, d) &&
    (identical(ctrl[["continuous"]], "none") || d > CONTINUOUS_MAX_D)
}

# The control of a cut continuous phase: one round of one Adam step (what the
# stage ablation ran as "cont_off").
cut_control <- function(ctrl) {
  ctrl[["max_rounds"]] <- 1L
  ctrl[["iter_per_round"]] <- 1L
  ctrl
}

# The optimizer's fields of a calm_control() object, as the plain list
# cpp_calm_fit() reads (it rejects a field it does not know).
optimizer_control <- function(ctrl) {
  unclass(ctrl)[setdiff(names(ctrl), control_r_fields)]
}
