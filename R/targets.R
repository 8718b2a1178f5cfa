# Intervention targets: the two ways a user says which rows come from which
# experiment, checked and brought to one form (calm_targets).

#' Intervention targets of interventional data
#'
#' Rows of interventional data come from conditions: observation, or an
#' experiment that sets some variables from outside (a knock-down, a drug,
#' an A/B test). Every learner ([calm()], [boss()], [exact_search()]), the
#' score ([score_dag()]), [dag_to_cpdag()] and [compare_graphs()] take the
#' conditions as two arguments, in either of two forms:
#'
#' * pcalg's: `targets` a list of integer (column positions) or character
#'   (column names) vectors, usually with `integer(0)` first for the
#'   observational rows, and `target_index` an integer vector, one entry
#'   per row, saying which element of `targets` applies to that row (as in
#'   `pcalg::gies()`).
#' * by name: `target_index` a factor (or character vector) naming each
#'   row's condition, and `targets` a named list with one element per
#'   condition: the variables it intervenes on (`character(0)` or `NULL`
#'   for observation).
#'
#' `intervention_targets()` checks the two and returns them in pcalg's form.
#' The learners call it; call it yourself to check the conditions first or
#' to convert between the forms.
#'
#' @param targets A list of variable sets, see above.
#' @param target_index Which condition each row comes from, see above.
#' @param variables The variables: their names (a character vector), or
#'   their number.
#' @param n_rows The number of rows of the data, or `NULL` when there are
#'   no data (only `targets` is used, as by [dag_to_cpdag()]).
#' @return An object of class `calm_targets`: a list with `targets` (a list
#'   of sorted integer vectors of column positions, one per condition),
#'   `index` (integer, one per row, or `NULL`), `conditions` (the
#'   conditions' names) and `variables` (the variable names).
#' @section Checks: Each is an error of class `calm_error_targets` that
#'   names the argument: a target that is not one of the variables; a
#'   `target_index` of the wrong length, with missing values, or out of
#'   range (or naming a condition `targets` does not have); a condition
#'   with exactly one row (a condition listed in `targets` that no row uses
#'   is ignored); a variable intervened on in every row (nothing is then
#'   known of its dependence on its parents).
#' @references Hauser, A. and Buehlmann, P. (2012). Characterization and
#'   greedy learning of interventional Markov equivalence classes of
#'   directed acyclic graphs. *JMLR* 13, 2409-2464.
#' @examples
#' # pcalg's form: 3 observational rows, then 2 rows with X2 intervened on
#' intervention_targets(list(integer(0), 2L), c(1, 1, 1, 2, 2),
#'                      variables = c("X1", "X2", "X3"), n_rows = 5)
#' # the same by name
#' tg <- intervention_targets(list(obs = NULL, knock_X2 = "X2"),
#'                            factor(c("obs", "obs", "obs", "knock_X2", "knock_X2")),
#'                            variables = c("X1", "X2", "X3"), n_rows = 5)
#' tg$targets
#' @export
intervention_targets <- function(targets, target_index = NULL, variables, n_rows = NULL) {
  env <- environment()
  if (inherits(targets, "calm_targets")) {
    # checked again, by name, against these variables and rows
    if (is.null(target_index) && !is.null(targets$index)) {
      target_index <- targets$conditions[targets$index]
    }
    targets <- stats::setNames(lapply(targets$targets, function(t) targets$variables[t]),
                               targets$conditions)
  }
  if (is.numeric(variables) && length(variables) == 1L) variables <- paste0("X", seq_len(variables))
  tg <- resolve_target_sets(targets, variables, call = env)
  index <- NULL
  if (!is.null(n_rows)) {
    index <- resolve_target_index(target_index, names(tg), n_rows, call = env)
    check_condition_rows(index, names(tg), call = env)
    check_never_free(tg, index, variables, call = env)
  }
  structure(list(targets = unname(tg), index = index, conditions = names(tg),
                 variables = variables), class = "calm_targets")
}

# Errors about targets: classed, naming the argument.
abort_targets <- function(arg, message, ..., call, .envir = parent.frame()) {
  cli::cli_abort(c(paste0("{.arg ", arg, "} ", message), ...),
                 class = c("calm_error_targets", "calm_error_argument", "calm_error"),
                 call = call, .envir = .envir)
}

# The target sets as a named list of sorted column positions (names: the
# conditions, "1", "2", ... when `targets` has none).
resolve_target_sets <- function(targets, variables, call) {
  if (!is.list(targets) || length(targets) == 0L) {
    abort_targets("targets", "must be a non-empty list of variable sets (names or column positions), not {.obj_type_friendly {targets}}.",
                  call = call)
  }
  d <- length(variables)
  out <- lapply(seq_along(targets), function(k) {
    t <- targets[[k]]
    if (is.null(t) || length(t) == 0L) return(integer(0))
    pos <- if (is.character(t)) match(t, variables) else if (is.numeric(t)) t else NA
    bad <- is.na(pos) | pos < 1 | pos > d | pos != round(pos)
    if (any(bad)) {
      shown <- if (is.character(t) || is.numeric(t)) t[bad] else class(t)[1]
      abort_targets("targets", "element {k} names {.val {shown}}, which {?is/are} not among the {d} variables.",
                    call = call)
    }
    sort(unique(as.integer(pos)))
  })
  nm <- names(targets)
  names(out) <- if (is.null(nm) || any(nm == "")) as.character(seq_along(out)) else nm
  out
}

# The condition of each row as an integer into the target sets.
resolve_target_index <- function(target_index, conditions, n_rows, call) {
  if (is.null(target_index)) {
    if (length(conditions) == 1L) return(rep(1L, n_rows))
    abort_targets("target_index", "is missing: with {length(conditions)} target sets, say which one each row has.",
                  call = call)
  }
  if (length(target_index) != n_rows) {
    abort_targets("target_index", "has {length(target_index)} entr{?y/ies}, but the data have {n_rows} rows: give one per row.",
                  call = call)
  }
  if (anyNA(target_index)) abort_targets("target_index", "has missing values.", call = call)
  if (is.factor(target_index) || is.character(target_index)) {
    lab <- as.character(target_index)
    idx <- match(lab, conditions)
    if (anyNA(idx)) {
      abort_targets("target_index", "names condition{?s} {.val {unique(lab[is.na(idx)])}} that {.arg targets} does not list.",
                    call = call)
    }
    return(idx)
  }
  if (!is.numeric(target_index) || any(target_index != round(target_index)) ||
      any(target_index < 1) || any(target_index > length(conditions))) {
    abort_targets("target_index", "must hold integers from 1 to {length(conditions)} (the elements of {.arg targets}), or condition names.",
                  call = call)
  }
  as.integer(target_index)
}

check_condition_rows <- function(index, conditions, call) {
  counts <- tabulate(index, nbins = length(conditions))
  one <- which(counts == 1L)
  if (length(one) > 0L) {
    abort_targets("target_index", "gives condition{?s} {.val {conditions[one]}} only one row; each condition needs at least 2.",
                  call = call)
  }
}

check_never_free <- function(tg, index, variables, call) {
  used <- unique(index)
  free_somewhere <- Reduce(`|`, lapply(tg[used], function(t) !seq_along(variables) %in% t))
  if (!all(free_somewhere)) {
    abort_targets("targets", "intervene{?s} on {.val {variables[!free_somewhere]}} in every row; each variable needs rows where it is not intervened on.",
                  call = call)
  }
}

# targets/target_index arguments of a learner or score: NULL when both are
# NULL (observational data), else the checked calm_targets. `x`: the
# checked data (NULL when a covariance was given).
learner_targets <- function(targets, target_index, variables, x, call) {
  if (is.null(targets)) {
    if (!is.null(target_index)) {
      abort_targets("target_index", "is given without {.arg targets}.", call = call)
    }
    return(NULL)
  }
  if (is.null(x)) {
    abort_targets("targets", "needs the data as {.arg x}: a covariance does not say which rows had which interventions.",
                  call = call)
  }
  intervention_targets(targets, target_index, variables, nrow(x))
}

# The learners that take no targets (golem_nv(), notears_linear(),
# pc_pcalg(), ges_pcalg()) say so, rather than calling `targets` an unknown
# setting: their scores treat every row as observation.
refuse_targets <- function(dots, learner, call) {
  given <- intersect(c("targets", "target_index"), names(dots))
  if (!length(given)) return(invisible())
  abort_targets(given[1], "is not taken by {.fn {learner}}, which treats every row as observation.",
                i = "{.fn calm}, {.fn boss} and {.fn exact_search} learn from interventional data (or {.fn pcalg::gies}).",
                call = call)
}

#' @rdname intervention_targets
#' @param x A `calm_targets` object.
#' @param ... Ignored.
#' @export
print.calm_targets <- function(x, ...) {
  cat(sprintf("<calm_targets> %d condition%s over %d variables\n", length(x$targets),
              if (length(x$targets) == 1L) "" else "s", length(x$variables)))
  rows <- if (is.null(x$index)) NULL else tabulate(x$index, nbins = length(x$targets))
  for (k in seq_along(x$targets)) {
    set <- if (length(x$targets[[k]]) == 0L) "(observation)" else
      paste(x$variables[x$targets[[k]]], collapse = ", ")
    cat(sprintf("  %s: %s%s\n", x$conditions[k], set,
                if (is.null(rows)) "" else sprintf(" [%d rows]", rows[k])))
  }
  invisible(x)
}
