# search_control(): every setting of the discrete search (R/search-*.R) and
# of its penalty selection, one validated object with its defaults written
# here only. calm_control(search = ) holds it; boss() and exact_search()
# take it as `control`.

#' Settings of the discrete search
#'
#' One object holds every setting of calm's discrete search and of the
#' choice of its penalty: the refinement that [calm()] runs after CALM
#' (`refine = "ges"`, the default), [boss()] and [exact_search()] take it.
#' The refinement takes CALM's graph and improves it on calm's score
#' ([score_dag()]): moves of greedy equivalence search (GES), GES from the
#' empty graph, best order score search (BOSS, [boss()]) with kicks, and,
#' for small problems, the exact optimum ([exact_search()]). Each stage's
#' graph is kept only when it scores better, and every stage obeys
#' background knowledge; a last step then chooses among local optima (see
#' Details). Pass it as `calm(x, search = search_control(...))` (or
#' `calm_control(search = )`), `boss(x, control = search_control(...))`,
#' `exact_search(x, control = search_control(...))`; a fit keeps it in
#' `fit$settings$control$search`.
#'
#' `refine_control()` is the former name of `search_control()` (deprecated:
#' it warns once per session and returns `search_control(...)`).
#' The measurements behind the defaults are in the vignettes and in
#' `system.file("bench", package = "calm")`.
#'
#' @param penalty_discount The sparsity knob: the penalty discount `k` of the
#'   BIC that the search optimises, `k log(n) / (2 n)` per edge and per
#'   sample ([bic_lambda()]); larger values give sparser graphs. A number;
#'   `"cv"` (default): chosen from `penalty_grid` by `penalty_folds`-fold
#'   held-out log-likelihood of the graphs BOSS learns on the other folds
#'   (see [select_penalty()]); or `"auto"` (the default of [boss()]): 2, as
#'   Tetrad's BOSS, with more observations than variables, and the extended
#'   BIC otherwise. With a covariance matrix instead of data, or with no more
#'   rows than variables (`n <= d`, where folds of `n / 5` rows tell the
#'   discounts apart by chance), `"cv"` falls back to the extended BIC
#'   ([ebic_lambda()]), made for many variables. With more variables than
#'   `order_all_pairs` and an estimated moral graph, [calm()] fits first at
#'   the extended BIC (`provisional_gamma`) and then chooses the discount
#'   among the graphs in that fit's order (see [select_penalty()], "Many
#'   variables"). The fit records the choice in `fit$penalty`.
#' @param penalty_grid,penalty_folds The discounts `"cv"` chooses from
#'   (default 1.5, 2, 2.5, 3 and 4) and the number of folds (default 5;
#'   fewer when the data have fewer than 2 rows per fold, and the extended BIC
#'   below 4 rows).
#' @param selection_splits Independent random splits into folds whose folds
#'   the held-out choice pools (default 2).
#' @param selection_tie_se The held-out choice takes the largest discount
#'   whose mean held-out log-likelihood is within this many standard errors
#'   of the best (default 0.5; chosen on the tuning seeds of
#'   `inst/bench/bench_penalty_select.R`).
#' @param order_selection_keep_se In the choice in the order of a first fit
#'   (many variables, see `penalty_discount`), the first fit's discount stays
#'   unless another predicts the held-out rows better by more than this many
#'   standard errors (default 2; `inst/bench/bench_penalty_large.R`).
#' @param provisional_gamma The extended BIC's `gamma` of that first fit
#'   (default 1, the strict side: the choice in its order can lower the
#'   discount but hardly raise it).
#' @param penalty The score's penalty: `"bic"` (default; the BIC at
#'   `penalty_discount`), `"ebic"` (the extended BIC,
#'   [ebic_lambda()] with `gamma`), `"lambda1"` (the continuous phase's own
#'   penalty, [calm()] only) or a number (per edge and per sample). A
#'   population covariance (`n = Inf`) is scored with calm's `lambda1`.
#' @param gamma The extended BIC's `gamma`, used with `penalty = "ebic"` and
#'   with fewer observations than variables. `"auto"` (default):
#'   `provisional_gamma` for the first fit above `order_all_pairs`
#'   variables, whose discount the held-out choice may then lower, and 0.75
#'   everywhere else.
#' @param forward Also make forward (edge insertion) moves of GES inside the
#'   moral graph: `TRUE`, `FALSE` or `"auto"` (default: `TRUE` for a
#'   population covariance, `FALSE` for data).
#' @param max_moves Cap on the number of GES moves per run (default 10000).
#' @param empty_start Also run GES from the empty graph (under background
#'   knowledge: from the graph of the required edges) over all pairs, and
#'   continue from the better of its result and the refined CALM graph
#'   (default `TRUE`). The adjacencies it finds join the moral graph for the
#'   BOSS.
#' @param order_search Run BOSS, the order search, after the GES moves
#'   (default `TRUE`); its graph, refined by GES moves again, is kept when it
#'   scores better. (Its former name `order` is deprecated: `order` is a
#'   permutation elsewhere, as a fit's `order`.)
#' @param order_starts Number of start orders of BOSS (default
#'   10): CALM's topological order, the refined graph's, and random orders
#'   drawn with R's random number generator. With a parallel
#'   `future::plan()` the starts are split between its workers (the result
#'   does not change); the kicks then run in the calling process.
#' @param order_all_pairs Up to this many variables (default 250), and up to
#'   twice as many when there are no more observations than variables, the
#'   BOSS considers every pair, not only the moral graph, when the
#'   moral graph was estimated with IAMB (the GES start from the empty graph
#'   always does); a moral graph given by the user (or `"precision"`) is
#'   always kept to.
#' @param order_free_starts With a moral graph that must be kept to and at
#'   most `order_all_pairs` variables, also start BOSS from the
#'   orders where the same starts end without the moral graph (default
#'   `TRUE`); the result still keeps to the moral graph.
#' @param order_wide_starts Above `order_all_pairs` variables, with a moral
#'   graph estimated by IAMB, BOSS searches inside the moral graph and then
#'   once more over every pair (above `all_pairs_max_d` variables, over the
#'   pairs that share a neighbour in the moral graph), from the best order found inside it and the
#'   final orders of its best-scoring starts: this many orders in all
#'   (default 5; `0`: no search over every pair). The result is kept when it
#'   scores better.
#' @param all_pairs_max_d Up to this many variables (default 500), the steps
#'   that look beyond a moral graph estimated by IAMB (GES from the empty
#'   graph, BOSS beyond the moral graph, the minimum-risk step) consider every
#'   pair; above it, only the pairs of the moral graph and those with a common
#'   neighbour in it, so that their cost follows the moral graph's edges
#'   rather than the square of the number of variables (`Inf`: every pair at
#'   any size). The stage vignette gives the measurements.
#' @param scan_beyond Above `all_pairs_max_d` variables, with a moral graph
#'   estimated by IAMB: after BOSS, scan every pair for an edge whose single
#'   insertion into the current graph would improve the score, let those
#'   pairs, those joined by a path of two edges in the current graph and the
#'   two parents of each child there be adjacent and run BOSS again from the
#'   current order, for a few rounds while the score improves (default
#'   `TRUE`; `FALSE`: no scan).
#' @param scan_kicks After the scan's rounds, the number of kicks (each moves
#'   20 variables of the best order to random places and repairs the order
#'   around them, inside the widened pairs; kept when the score improves):
#'   `"auto"` (default) for 150 up to 3000 variables and, at any size, when
#'   there are no more rows than variables; 50 above 3000 variables with
#'   more rows than variables, where each kick costs several times more; or
#'   a count (`0`: none). They leave
#'   local optima around hubs of scale-free graphs; the stage vignette gives
#'   what they buy and cost.
#' @param exact_parents_max Nodes with at most this many candidate parents
#'   (default 14, at most 20) get exact best parent sets in BOSS; others use
#'   grow-shrink trees. Exact tables take `2^exact_parents_max` entries per
#'   variable. (Its former name `exact_limit` is deprecated; not to be
#'   confused with `exact_max_d`, a number of variables.)
#' @param max_sweeps Cap on the passes of BOSS over the variables from one
#'   start (default 100).
#' @param grow_ratio `"auto"` (default) or a number in `[0, 1]`: the grow
#'   step of the grow-shrink trees goes on adding the best allowed parent
#'   while it lowers the fit term by more than `grow_ratio` times the penalty
#'   per edge, past the point where the score stops improving; that set and
#'   the plain one are both pruned by the shrink step and the better is kept
#'   (parents that pay for themselves only together). The refinement runs
#'   its starts with the plain grow step and again with this grow ratio, and
#'   keeps the better result; `1` runs them once. `"auto"` is 0.5 when there
#'   are no more observations than variables and 1 otherwise. [boss()]
#'   needs a number.
#' @param kicks Number of kicks after BOSS's starts (default
#'   20; `0`: none): each moves `kick_size` variables of the best order found
#'   so far to random places (R's random number generator) and searches
#'   again from there, alternating the plain grow step and `grow_ratio =
#'   0.5`; a better-scoring graph replaces the best one (an iterated local
#'   search).
#' @param kick_size Variables moved by each kick (default 5).
#' @param exact_max_d Up to this many variables (default 20, at most 25) the
#'   refinement ends with the exact optimum of its score, kept when it scores
#'   better, unless BOSS already agrees with itself: the exact search runs
#'   when BOSS is off or fewer than half of its starts ended at its best
#'   score (a kick that improved on every start counts as disagreement).
#'   Time and memory double with each variable (about 2 seconds and 100 MB
#'   at 20). `0` turns it off.
#' @param risk_starts Number of BOSS local optima from random orders that
#'   the last step weighs (default 20; `0` turns the step off): those of
#'   BOSS's random starts (`order_starts` but CALM's and the refined graph's
#'   orders) and of BOSS from further random orders up to `risk_starts` in
#'   all. With the refined graph they are the candidates: the one with the
#'   smallest expected structural Hamming distance to the others is returned
#'   (see Details). The step runs for data with more observations than
#'   variables and at most `risk_max_d` variables. As `order_starts`, the
#'   further starts are split between the workers of a parallel
#'   `future::plan()`.
#' @param risk_temperature Temperature of the weights of that step (default
#'   4): a candidate whose score is worse than the best by `D` log-likelihood
#'   units (nats) has weight `exp(-D / risk_temperature)`.
#' @param risk_max_d The step runs up to this many variables (default 150,
#'   the largest size it was measured at): its searches cost about as much as
#'   BOSS before it, which on dense graphs of 200 variables takes
#'   minutes.
#' @param ... `search_control()`: empty but for the deprecated former names
#'   `order` and `exact_limit` (catches misspelt arguments; first, so that
#'   every setting is named in full); `refine_control()`: the
#'   arguments of `search_control()`.
#' @details
#' **The last step: a choice among local optima.** With weak effects, many
#' graphs score within a few log-likelihood units of the best, and the best
#' of them is not the closest to the truth: the more thorough the search, the
#' more it fits the noise of the sample in the orientation of weak edges. So
#' the refinement does not simply return the best-scoring graph. It
#' weighs the local optima of BOSS from `risk_starts` random orders (those
#' of its random starts and further ones; each counted once per start that
#' ends there) and the refined graph by
#' `exp(-D / risk_temperature)`, and returns the candidate whose weighted
#' sum of structural Hamming distances (between CPDAGs) to all candidates is
#' smallest: a minimum-risk estimate under these weights. Where one graph
#' scores clearly best (strong effects), the weights of the others vanish and
#' it is returned. The fit's `refine$moves` says when the step chose another
#' graph than the best-scoring one, and by how much its score is worse.
#' @return An object of class `calm_search_control`: a named list of the
#'   values, with the names of the arguments given explicitly in its
#'   attribute `given` ([boss()] fills the others with its own defaults).
#' @seealso [calm_control()], [calm()], [boss()], [exact_search()]
#' @examples
#' search_control()
#' search_control(kicks = 0, exact_max_d = 0)
#' calm_control(search = search_control(order_starts = 20))
#' @export
search_control <- function(..., penalty_discount = "cv", penalty_grid = c(1.5, 2, 2.5, 3, 4),
                           penalty_folds = 5, selection_splits = 2, selection_tie_se = 0.5,
                           order_selection_keep_se = 2, provisional_gamma = 1,
                           penalty = "bic", gamma = "auto", forward = "auto", max_moves = 10000,
                           empty_start = TRUE, order_search = TRUE, order_starts = 10,
                           order_all_pairs = 250, order_free_starts = TRUE, order_wide_starts = 5,
                           all_pairs_max_d = 500, scan_beyond = TRUE, scan_kicks = "auto",
                           exact_parents_max = 14, max_sweeps = 100,
                           grow_ratio = "auto", kicks = 20, kick_size = 5,
                           exact_max_d = 20,
                           risk_starts = 20, risk_temperature = 4, risk_max_d = 150) {
  call <- environment()
  rest <- take_old_names(list(...), search_old_names, "search_control", call,
                         hint = search_rename_hint)
  do.call(check_dots_empty, c(rest, list(fn = "search_control", call = call)))
  given <- search_given(names(match.call())[-1L])
  values <- mget(search_fields(), envir = call)
  structure(check_search_settings(values, call = call), class = "calm_search_control",
            given = given)
}

#' @rdname search_control
#' @export
refine_control <- function(...) {
  rlang::warn(c("`refine_control()` is deprecated; use `search_control()`.",
                i = "It holds every setting of the discrete search, the penalty's too."),
              class = c("calm_warning_deprecated", "calm_warning"),
              .frequency = "once", .frequency_id = "calm_refine_control")
  search_control(...)
}

#' @export
print.calm_search_control <- function(x, ...) {
  attr(x, "given") <- NULL
  print_control_table(x, "search_control")
}

# Former names of search_control()'s arguments (deprecated), old = new.
search_old_names <- c(order = "order_search", exact_limit = "exact_parents_max")

search_rename_hint <- paste(
  "{.arg order} is a permutation elsewhere (a fit's {.code order});",
  "{.arg exact_parents_max} is not {.arg exact_max_d}, the exact search's number of variables."
)

# The settings a search_control() call gave by name (`nm`: its call's
# argument names), a former name counted as its new one.
search_given <- function(nm) {
  nm <- setdiff(nm, "")
  old <- nm %in% names(search_old_names)
  nm[old] <- search_old_names[nm[old]]
  nm
}

# The default of one setting, read from search_control()'s formals: the one
# place the search's defaults are written.
search_default <- function(name) eval(formals(search_control)[[name]])

# search_control()'s arguments, in the order the object stores them.
search_fields <- function() {
  c("penalty_discount", "penalty_grid", "penalty_folds", "selection_splits", "selection_tie_se",
    "order_selection_keep_se", "provisional_gamma",
    "penalty", "gamma", "forward", "max_moves", "order_search", "empty_start", "exact_max_d",
    "order_all_pairs", "order_free_starts", "order_wide_starts", "all_pairs_max_d", "scan_beyond",
    "scan_kicks", "order_starts",
    "exact_parents_max", "max_sweeps", "grow_ratio",
    "kicks", "kick_size", "risk_starts", "risk_temperature", "risk_max_d")
}

# Checks the search's settings (a list named by search_fields()); an
# error names the argument.
check_search_settings <- function(x, call) {
  c(check_selection_settings(x, call), check_refine_settings(x, call))
}

# The penalty and its choice.
check_selection_settings <- function(x, call) {
  list(
    penalty_discount = check_penalty_discount(x$penalty_discount, call = call),
    penalty_grid = check_penalty_grid(x$penalty_grid, call = call),
    penalty_folds = check_penalty_folds(x$penalty_folds, call = call),
    selection_splits = check_count(x$selection_splits, "selection_splits", min = 1, max = 100,
                                   call = call),
    selection_tie_se = check_number(x$selection_tie_se, "selection_tie_se", lower = 0,
                                    call = call),
    order_selection_keep_se = check_number(x$order_selection_keep_se, "order_selection_keep_se",
                                           lower = 0, call = call),
    provisional_gamma = check_number(x$provisional_gamma, "provisional_gamma", lower = 0,
                                     call = call)
  )
}

# The stages of the search.
check_refine_settings <- function(x, call) {
  list(
    penalty = check_refine_penalty(x$penalty, arg = "penalty", call = call),
    gamma = if (identical(x$gamma, "auto")) "auto" else
      check_number(x$gamma, "gamma", lower = 0, call = call),
    forward = if (identical(x$forward, "auto")) "auto" else
      check_flag(x$forward, "forward", call = call),
    max_moves = check_count(x$max_moves, "max_moves", min = 0, max = 1e9, call = call),
    order_search = check_flag(x$order_search, "order_search", call = call),
    empty_start = check_flag(x$empty_start, "empty_start", call = call),
    exact_max_d = check_count(x$exact_max_d, "exact_max_d", min = 0, max = 25, call = call),
    order_all_pairs = check_count(x$order_all_pairs, "order_all_pairs", min = 0, max = 1e6,
                                  call = call),
    order_free_starts = check_flag(x$order_free_starts, "order_free_starts", call = call),
    order_wide_starts = check_count(x$order_wide_starts, "order_wide_starts", min = 0, max = 1e4,
                                    call = call),
    all_pairs_max_d = if (identical(x$all_pairs_max_d, Inf)) Inf else
      check_count(x$all_pairs_max_d, "all_pairs_max_d", min = 0, call = call),
    scan_beyond = check_flag(x$scan_beyond, "scan_beyond", call = call),
    scan_kicks = if (identical(x$scan_kicks, "auto")) "auto" else
      check_count(x$scan_kicks, "scan_kicks", min = 0, max = 1e5, call = call),
    order_starts = check_count(x$order_starts, "order_starts", min = 1, max = 1e4, call = call),
    exact_parents_max = check_count(x$exact_parents_max, "exact_parents_max", min = 0, max = 20,
                                    call = call),
    max_sweeps = check_count(x$max_sweeps, "max_sweeps", min = 1, max = 1e6, call = call),
    grow_ratio = if (identical(x$grow_ratio, "auto")) "auto" else
      check_number(x$grow_ratio, "grow_ratio", lower = 0, upper = 1, call = call),
    kicks = check_count(x$kicks, "kicks", min = 0, max = 1e5, call = call),
    kick_size = check_count(x$kick_size, "kick_size", min = 1, max = 1e4, call = call),
    risk_starts = check_count(x$risk_starts, "risk_starts", min = 0, max = 1e4, call = call),
    risk_temperature = check_number(x$risk_temperature, "risk_temperature", lower = 0,
                                    lower_open = TRUE, call = call),
    risk_max_d = check_count(x$risk_max_d, "risk_max_d", min = 0, max = 1e6, call = call)
  )
}


# calm_control(search): a search_control() object, a list of its arguments
# or NULL (its defaults), as a search_control() object. `arg`: the name the
# caller's user wrote.
search_settings_arg <- function(search, call, arg = "search") {
  if (is.null(search)) return(search_control())
  if (inherits(search, "calm_search_control")) return(search)
  if (!is.list(search) || (length(search) && (is.null(names(search)) ||
                                              !all(names(search) %in% c(search_fields(), names(search_old_names)))))) {
    abort_arg(arg, "must be the result of {.fn search_control} or a list of its arguments by name.",
              call = call)
  }
  do.call(search_control, search)
}

check_refine_penalty <- function(x, arg = "penalty", call) {
  if (is.character(x)) return(match_choice(x, c("ebic", "bic", "lambda1"), arg, call = call))
  check_number(x, arg, lower = 0, call = call)
}

# `penalty_discount`: a non-negative number, "cv" or "auto".
check_penalty_discount <- function(x, arg = "penalty_discount", call) {
  if (is.character(x)) {
    # exact: "a" is no abbreviation of "auto"
    if (length(x) == 1L && x %in% c("cv", "auto")) return(x)
    abort_arg(arg, "must be a non-negative number, {.val cv} or {.val auto}, not {.val {x}}.",
              call = call)
  }
  check_number(x, arg, lower = 0, call = call)
}

# `penalty_grid`: a non-empty vector of distinct positive finite discounts,
# returned sorted in decreasing order (the order the selection walks).
check_penalty_grid <- function(x, arg = "penalty_grid", call) {
  if (!is.numeric(x) || length(x) == 0L || anyNA(x) || any(!is.finite(x)) || any(x <= 0)) {
    abort_arg(arg, "must be a non-empty numeric vector of positive, finite penalty discounts.",
              call = call)
  }
  if (anyDuplicated(x)) abort_arg(arg, "has duplicated values.", call = call)
  sort(as.numeric(x), decreasing = TRUE)
}

# `penalty_folds`: a count of at least 2; checked against n at fit time.
check_penalty_folds <- function(x, arg = "penalty_folds", call) {
  check_count(x, arg, min = 2, max = 1000, call = call)
}
