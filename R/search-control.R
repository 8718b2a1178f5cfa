# refine_control(): the settings of calm()'s refinement (R/search-refine.R), one
# validated object; calm_control() holds it as its field `refine`.

#' Settings of calm()'s refinement
#'
#' The refinement (`calm(refine = "ges")`, the default) takes CALM's graph
#' and improves it on calm's score ([score_dag()]): moves of greedy
#' equivalence search (GES), GES from the empty graph, best order score
#' search (BOSS, [boss()]) with kicks, and, for small problems, the exact optimum
#' ([exact_search()]). Each stage's graph is kept only when it scores
#' better, and every stage obeys background knowledge; a last step then
#' chooses among local optima (see Details). Pass the result as
#' `calm_control(refine = refine_control(...))`, or `calm(x, refine =
#' refine_control(...))`; a fit keeps them in
#' `fit$settings$control$refine`.
#'
#' The penalty discount and its choice from the data stay in
#' [calm_control()] (`penalty_discount`, `penalty_grid`, `penalty_folds`).
#' The measurements behind the defaults are in the vignettes and in
#' `system.file("bench", package = "calm")`.
#'
#' @param penalty The score's penalty: `"bic"` (default; the BIC at
#'   `calm_control(penalty_discount)`), `"ebic"` (the extended BIC,
#'   [ebic_lambda()] with `gamma`), `"lambda1"` (the continuous phase's own
#'   penalty) or a number (per edge and per sample). A population covariance
#'   (`n = Inf`) is scored with `lambda1`.
#' @param gamma The extended BIC's `gamma`, used with `penalty = "ebic"`,
#'   with fewer observations than variables, and for the first fit above
#'   `order_all_pairs` variables (see `penalty_discount` in [calm_control()]).
#'   `"auto"` (default): 1 for that first fit, whose discount the held-out
#'   choice may then lower, and 0.75 everywhere else.
#' @param forward Also make forward (edge insertion) moves of GES inside the
#'   moral graph: `TRUE`, `FALSE` or `"auto"` (default: `TRUE` for a
#'   population covariance, `FALSE` for data).
#' @param max_moves Cap on the number of GES moves per run (default 10000).
#' @param empty_start Also run GES from the empty graph (under background
#'   knowledge: from the graph of the required edges) over all pairs, and
#'   continue from the better of its result and the refined CALM graph
#'   (default `TRUE`). The adjacencies it finds join the moral graph for the
#'   BOSS.
#' @param order Run BOSS after the GES moves (default
#'   `TRUE`); its graph, refined by GES moves again, is kept when it scores
#'   better.
#' @param order_starts Number of start orders of BOSS (default
#'   10): CALM's topological order, the refined graph's, and random orders
#'   drawn with R's random number generator. With a parallel
#'   `future::plan()` the starts are split between its workers (the result
#'   does not change); the kicks then run in the calling R process.
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
#' @param exact_limit Nodes with at most this many candidate parents
#'   (default 14, at most 20) get exact best parent sets in BOSS;
#'   others use grow-shrink trees (`boss(exact_limit = )`).
#' @param grow_ratio `"auto"` (default) or a number in `[0, 1]`: BOSS runs
#'   its starts with the plain grow step and again with this grow ratio
#'   (`boss(grow_ratio = )`), and keeps the better result; `1` runs them
#'   once. `"auto"` is 0.5 when there are no more observations than
#'   variables and 1 otherwise.
#' @param kicks Number of kicks after BOSS's starts (default
#'   20; `0`: none): each moves `kick_size` variables of the best order to
#'   random places and searches again, as `boss(kicks = )`.
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
#' @param ... Must be empty; catches misspelt arguments.
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
#' @return An object of class `calm_refine_control`: a named list of the
#'   values.
#' @seealso [calm_control()], [calm()], [boss()]
#' @examples
#' refine_control()
#' refine_control(kicks = 0, exact_max_d = 0)
#' calm_control(refine = refine_control(order_starts = 20))
#' @export
refine_control <- function(penalty = "bic", gamma = "auto", forward = "auto", max_moves = 10000,
                           empty_start = TRUE, order = TRUE, order_starts = 10,
                           order_all_pairs = 250, order_free_starts = TRUE, order_wide_starts = 5,
                           all_pairs_max_d = 500, exact_limit = 14,
                           grow_ratio = "auto", kicks = 20, kick_size = 5, exact_max_d = 20,
                           risk_starts = 20, risk_temperature = 4, risk_max_d = 150, ...) {
  call <- environment()
  check_dots_empty(..., fn = "refine_control", call = call)
  values <- mget(refine_fields(), envir = call)
  structure(check_refine_settings(values, call = call), class = "calm_refine_control")
}

#' @export
print.calm_refine_control <- function(x, ...) print_control_table(x, "refine_control")

# refine_control()'s arguments, in the order the object stores them.
refine_fields <- function() {
  c("penalty", "gamma", "forward", "max_moves", "order", "empty_start", "exact_max_d",
    "order_all_pairs", "order_free_starts", "order_wide_starts", "all_pairs_max_d", "order_starts",
    "exact_limit", "grow_ratio",
    "kicks", "kick_size", "risk_starts", "risk_temperature", "risk_max_d")
}

# Checks the refinement's settings (a list named by refine_fields()); an
# error names the argument.
check_refine_settings <- function(x, call) {
  list(
    penalty = check_refine_penalty(x$penalty, arg = "penalty", call = call),
    gamma = if (identical(x$gamma, "auto")) "auto" else
      check_number(x$gamma, "gamma", lower = 0, call = call),
    forward = if (identical(x$forward, "auto")) "auto" else
      check_flag(x$forward, "forward", call = call),
    max_moves = check_count(x$max_moves, "max_moves", min = 0, max = 1e9, call = call),
    order = check_flag(x$order, "order", call = call),
    empty_start = check_flag(x$empty_start, "empty_start", call = call),
    exact_max_d = check_count(x$exact_max_d, "exact_max_d", min = 0, max = 25, call = call),
    order_all_pairs = check_count(x$order_all_pairs, "order_all_pairs", min = 0, max = 1e6,
                                  call = call),
    order_free_starts = check_flag(x$order_free_starts, "order_free_starts", call = call),
    order_wide_starts = check_count(x$order_wide_starts, "order_wide_starts", min = 0, max = 1e4,
                                    call = call),
    all_pairs_max_d = if (identical(x$all_pairs_max_d, Inf)) Inf else
      check_count(x$all_pairs_max_d, "all_pairs_max_d", min = 0, call = call),
    order_starts = check_count(x$order_starts, "order_starts", min = 1, max = 1e4, call = call),
    exact_limit = check_count(x$exact_limit, "exact_limit", min = 0, max = 20, call = call),
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

# calm_control(refine): a refine_control() object, a list of its arguments
# or NULL (its defaults), as a refine_control() object.
refine_settings_arg <- function(refine, call) {
  if (is.null(refine)) return(refine_control())
  if (inherits(refine, "calm_refine_control")) return(refine)
  if (!is.list(refine) || (length(refine) && (is.null(names(refine)) ||
                                              !all(names(refine) %in% refine_fields())))) {
    abort_arg("refine", "must be the result of {.fn refine_control} or a list of its arguments by name.",
              call = call)
  }
  do.call(refine_control, refine)
}
