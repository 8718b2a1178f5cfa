# Causal effects from interventional data. Pooling the rows of all
# conditions is biased: an experiment on y, or on a variable through which
# x acts on y, changes the regression of y on x. So each condition is
# regressed on its own (its own intercept, its own coefficients for the
# adjustment set), only conditions that leave the causal paths from x to y
# alone are used, and their estimates are combined by inverse variance.

# The targets causal_effects() uses: the user's (`targets`,
# `target_index`), else a fit's own, else NULL (observational). A fit
# learned with targets has its conditions but not its rows, so it needs
# `data`; a covariance cannot say which rows had which experiment.
effects_targets <- function(fit, targets, target_index, data, cov, nm, call) {
  own <- if (inherits(fit, "calm_fit") || inherits(fit, "calm_bootstrap")) fit[["targets"]]
  if (!is.null(targets) && !is.null(own)) {
    abort_targets("targets", "is given, but {.arg fit} was learned with its own targets; leave {.arg targets} and {.arg target_index} out.",
                  call = call)
  }
  if (is.null(targets)) {
    if (!is.null(target_index)) {
      abort_targets("target_index", "is given without {.arg targets}.", call = call)
    }
    if (is.null(own)) return(NULL)
    targets <- own
  }
  if (!is.null(cov) || is.null(data)) {
    abort_targets("data", "is needed with intervention targets: the effects are estimated within each condition, from its rows, and a covariance (or what a fit keeps) pools them.",
                  call = call)
  }
  n <- nrow(as.matrix(data))
  if (inherits(fit, "calm_fit") && identical(fit[["settings"]][["na"]], "complete")) {
    n <- sum(stats::complete.cases(data))
  }
  intervention_targets(targets, target_index, nm, n)
}

# Per condition: the covariance of its rows about their own mean, the
# number of rows and the target set (column positions). `x` is the data in
# the nodes' order, `tg` a calm_targets with one index per row of `x`.
condition_statistics <- function(x, tg) {
  k <- seq_along(tg$targets)
  used <- k[tabulate(tg$index, nbins = length(k)) >= 2L]
  list(sigma = lapply(used, function(c) data_cov(x[tg$index == c, , drop = FALSE])),
       n = vapply(used, function(c) sum(tg$index == c), numeric(1)),
       targets = tg$targets[used])
}
