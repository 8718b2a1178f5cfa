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

# regression_effects() or, with conditions in `st`, its interventional
# counterpart: the same shape (one value per outcome, a matrix for several
# treatments) with attributes `se` and `df`.
effect_regression <- function(st, x, p, ys, n = st$n) {
  if (is.null(st$conds)) return(regression_effects(st$sigma, x, p, ys, n))
  nx <- length(x)
  fits <- lapply(ys, function(y) condition_effect(st$conds, st$parts, x, p, y))
  b <- matrix(vapply(fits, `[[`, numeric(nx), "b"), nx)
  se <- matrix(vapply(fits, `[[`, numeric(nx), "se"), nx)
  df <- vapply(fits, `[[`, numeric(1), "df")
  out <- if (nx == 1L) drop(b) else b
  attr(out, "se") <- if (nx == 1L) drop(se) else se
  attr(out, "df") <- df
  out
}

# The effect of x on one outcome y from the conditions whose targets miss
# y and every node through which x may act on y. An intervention on x, on
# its parents or on the adjustment set leaves the effect and the validity
# of the set as they are (it only removes edges off the causal paths), so
# those conditions stay. NA when no condition is left.
condition_effect <- function(conds, parts, x, p, y) {
  nx <- length(x)
  if (y %in% c(x, p)) return(list(b = rep(0, nx), se = rep(0, nx), df = NA_real_))
  on_paths <- c(y, setdiff(intersect(possible_descendants(parts, x),
                                     possible_reach(parts, y, backwards = TRUE)), x))
  z <- c(x, p)
  keep <- which(vapply(seq_along(conds$n), function(c) {
    !any(conds$targets[[c]] %in% on_paths) && conds$n[c] > length(z) + 1
  }, logical(1)))
  ests <- Filter(Negate(is.null), lapply(keep, function(c) {
    one_condition_fit(conds$sigma[[c]], conds$n[c], z, nx, y)
  }))
  if (!length(ests)) return(list(b = rep(NA_real_, nx), se = rep(NA_real_, nx), df = NA_real_))
  combine_estimates(ests)
}

# The regression of y on z (treatments first) in one condition: the
# treatments' coefficients `b`, their covariance `V` and the residual
# degrees of freedom. A variable the condition holds constant carries
# nothing and leaves the set; a constant or collinear treatment leaves the
# condition out (NULL).
one_condition_fit <- function(s, n, z, nx, y) {
  v <- diag(s)[z]
  live <- v > 1e-12 * max(v, 1e-300)
  if (!all(live[seq_len(nx)])) return(NULL)
  z <- z[live]
  szz <- s[z, z, drop = FALSE]
  inv <- tryCatch(solve(szz), error = function(e) NULL)
  if (is.null(inv)) return(NULL)
  b <- inv %*% s[z, y]
  df <- n - length(z) - 1
  rss <- max(s[y, y] - sum(s[z, y] * b), 0)
  idx <- seq_len(nx)
  list(b = b[idx], V = inv[idx, idx, drop = FALSE] * rss / df, df = df)
}

# Inverse-variance (for several treatments, generalised least squares)
# combination of the conditions' estimates.
combine_estimates <- function(ests) {
  df <- sum(vapply(ests, `[[`, numeric(1), "df"))
  if (length(ests) == 1L) {
    e <- ests[[1]]
    return(list(b = e$b, se = sqrt(pmax(diag(e$V), 0)), df = df))
  }
  w <- lapply(ests, function(e) tryCatch(solve(e$V), error = function(err) NULL))
  if (any(vapply(w, is.null, logical(1)))) {
    # an exact fit somewhere (zero residual variance): plain mean
    b <- Reduce(`+`, lapply(ests, `[[`, "b")) / length(ests)
    return(list(b = b, se = rep(0, length(b)), df = df))
  }
  wsum <- Reduce(`+`, w)
  cov_b <- solve(wsum)
  b <- cov_b %*% Reduce(`+`, Map(function(wc, e) wc %*% e$b, w, ests))
  list(b = drop(b), se = sqrt(pmax(diag(cov_b), 0)), df = df)
}
