# Interventional data from a linear Gaussian SEM: observation mixed with
# experiments that set some variables from outside.

#' Simulate interventional data from a linear SEM
#'
#' Draws data from the SEM `sem` under several conditions. In a condition
#' that intervenes on a set of variables, each of them is cut from its
#' parents (its incoming weights are set to zero) and set from outside,
#' either to a fixed value or to a draw from a normal distribution; the other
#' variables follow the SEM as usual, so the intervention reaches them
#' through their parents. An empty target set is observation.
#'
#' @param sem A `calm_sem` from [simulate_sem()] (its `B` and `omega`
#'   are used).
#' @param targets A list of variable sets (names or column positions), one
#'   per condition, e.g. `list(integer(0), 3, c(5, 8))`; see
#'   [intervention_targets()].
#' @param n The number of rows of each condition: one number per element of
#'   `targets` (or one number for all).
#' @param value `NULL` (default): an intervened variable is drawn from a
#'   normal distribution with mean `mean` and standard deviation `sd`; a
#'   number: it is set to that value (a "do" intervention).
#' @param mean,sd Mean and standard deviation of an intervened variable when
#'   `value` is `NULL`. `sd = NULL` (default): the variable's own standard
#'   deviation under observation (from `sem$sigma`), so that the experiment
#'   moves it about as much as nature does.
#' @return A list with `x` (the data, `sum(n)` rows, conditions in the
#'   order of `targets`), `targets` (as given), `target_index` (the
#'   condition of each row, pcalg's convention), `condition` (a factor of
#'   the conditions' names: `"observation"` for an empty set, else the
#'   targets' names joined by `+`) and `sem`. Pass `targets` and
#'   `target_index` to [calm()], [boss()] or [exact_search()].
#' @seealso [intervention_targets()], [dag_to_cpdag()] with `targets` for
#'   what the experiments identify.
#' @examples
#' set.seed(1)
#' sem <- simulate_sem(8, k = 1.5)
#' sim <- simulate_interventions(sem, list(integer(0), "X2", c("X4", "X6")),
#'                               n = c(400, 100, 100))
#' table(sim$condition)
#' fit <- boss(sim$x, targets = sim$targets, target_index = sim$target_index)
#' compare_graphs(fit, sem$B, targets = sim$targets)
#' @export
simulate_interventions <- function(sem, targets, n, value = NULL, mean = 0, sd = NULL) {
  env <- environment()
  if (!inherits(sem, "calm_sem")) {
    abort_arg("sem", "must be a {.cls calm_sem} from {.fn simulate_sem}, not {.obj_type_friendly {sem}}.",
              call = env)
  }
  B <- sem$B
  d <- nrow(B)
  nm <- rownames(B)
  tg <- intervention_targets(targets, NULL, nm, NULL)
  k <- length(tg$targets)
  if (length(n) == 1L) n <- rep(n, k)
  if (!is.numeric(n) || length(n) != k || anyNA(n) || any(n < 2) || any(n != round(n))) {
    abort_arg("n", "must give each of the {k} conditions a whole number of rows, at least 2.",
              call = env)
  }
  if (!is.null(value)) check_number(value, "value", call = env)
  check_number(mean, "mean", call = env)
  if (is.null(sd)) sd <- sqrt(diag(sem$sigma)) else {
    check_number(sd, "sd", lower = 0, call = env)
    sd <- rep(sd, d)
  }
  parts <- lapply(seq_len(k), function(c) {
    t <- tg$targets[[c]]
    Bc <- B
    Bc[, t] <- 0
    noise <- matrix(stats::rnorm(n[c] * d), n[c], d) * rep(sqrt(sem$omega), each = n[c])
    for (j in t) {
      noise[, j] <- if (is.null(value)) stats::rnorm(n[c], mean, sd[j]) else value
    }
    t(backsolve_sem(Bc, t(noise)))
  })
  x <- do.call(rbind, parts)
  colnames(x) <- nm
  index <- rep(seq_len(k), n)
  labels <- vapply(tg$targets, function(t) {
    if (length(t) == 0L) "observation" else paste(nm[t], collapse = "+")
  }, character(1))
  list(x = x, targets = targets, target_index = index,
       condition = factor(labels[index], levels = unique(labels)), sem = sem)
}
