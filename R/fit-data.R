# What a fit keeps of its data: the sufficient statistics of the linear
# Gaussian model (n, the means, the covariance the learner worked on and the
# variances that put it back on the data's scale) and a fingerprint of the
# rows. The methods then need no data, and data given again is checked
# against the fingerprint.

# The data's summary every learner stores with its fit (`extra` of
# new_calm_fit()); the covariance itself is kept by new_calm_fit().
data_summary <- function(x, cov, standardize) {
  list(data_var = data_variances(x, cov, standardize), data_mean = data_means(x),
       data_check = data_fingerprint(x))
}

# A fingerprint of the rows, cheap to store and to compare (2d + 2
# numbers, one pass over the data): the number of rows, each column's mean
# and variance (divisor n), and the variance of the rows' sums of
# standardized values, which is the sum of all correlations and so changes
# with the columns' joint behaviour, not only with each column. The order
# of the rows does not enter: the same rows in another order are the same
# data for every method.
data_fingerprint <- function(x) {
  if (is.null(x)) return(NULL)
  x <- as.matrix(x)
  n <- nrow(x)
  mu <- colMeans(x)
  v <- vapply(seq_len(ncol(x)), function(j) sum((x[, j] - mu[j])^2) / n, numeric(1))
  sd <- sqrt(v)
  sd[sd == 0] <- 1
  s <- drop(x %*% (1 / sd)) - sum(mu / sd)
  list(n = n, names = node_names(x), mean = unname(mu), var = v, row_sum_var = sum(s^2) / n)
}

# Data given to a fit's method again, as a numeric matrix in the fit's
# column order: an error of class `calm_error_data_mismatch` when its rows
# or columns are not the fit's (another number of rows, missing
# variables), a warning of class `calm_warning_data_mismatch` when its
# values are not those the fit was learned from. Rows with missing values
# are dropped first when the fit dropped them (`na = "complete"`).
check_fit_data <- function(fit, data, arg, call) {
  nm <- rownames(fit[["amat"]])
  x <- sem_data(data, nm, arg, call)
  if (identical(fit[["settings"]][["na"]], "complete") && anyNA(x)) {
    x <- x[stats::complete.cases(x), , drop = FALSE]
  }
  n <- fit[["n"]]
  if (is.numeric(n) && is.finite(n) && nrow(x) != n) {
    cli::cli_abort(c("{.arg {arg}} has {nrow(x)} row{?s}, but the fit was learned from {n}.",
                     i = "Give the data the fit was learned from, or leave {.arg {arg}} out: the fit keeps its covariance."),
                   class = c("calm_error_data_mismatch", "calm_error_argument", "calm_error"),
                   call = call)
  }
  if (!same_fingerprint(fit[["data_check"]], x, nm)) {
    cli::cli_warn(c("{.arg {arg}} is not the data the fit was learned from: its means, variances or correlations differ.",
                    i = "The graph was learned on other values; the numbers below use {.arg {arg}} as given."),
                  class = c("calm_warning_data_mismatch", "calm_warning"), call = call)
  }
  x
}

# Does `x` (columns in the fit's order `nm`) match the stored fingerprint?
# TRUE when the fit has none (learned from a covariance, or an older fit).
same_fingerprint <- function(fp, x, nm, tol = 1e-8) {
  if (is.null(fp)) return(TRUE)
  mine <- data_fingerprint(x)
  k <- match(nm, fp$names)
  close <- function(a, b, scale) all(abs(a - b) <= tol * pmax(scale, 1e-300))
  close(mine$mean, fp$mean[k], sqrt(fp$var[k]) + abs(fp$mean[k])) &&
    close(mine$var, fp$var[k], fp$var[k]) &&
    # the rows' sums are over every column: comparable only with them all
    (length(k) != length(fp$names) || close(mine$row_sum_var, fp$row_sum_var, fp$row_sum_var + 1))
}

# The covariance a fit keeps (`fit$sigma`, on the scale it learned on) with
# the standard deviations that put regressions on it back on the data's
# scale (NULL when it is the data's covariance) and n; NULL when the fit
# keeps none (a graph, or a fit whose covariance was dropped).
fit_covariance <- function(fit) {
  if (!inherits(fit, "calm_fit") || is.null(fit[["sigma"]])) return(NULL)
  sd <- if (fit_scale(fit) == "standardized") fit_sd(fit) else NULL
  list(sigma = fit[["sigma"]], sd = sd, n = fit[["n"]])
}

# The error of a method that needs the data's rows, which a fit does not
# keep (only their summary).
abort_no_rows <- function(what, arg, call) {
  cli::cli_abort(c("{.arg {arg}} is missing: {.fn {what}} needs the data's rows, and a fit keeps only their summary (n, means, covariance).",
                   i = "Give the data the fit was learned from, as in {.code {what}(fit, x)}."),
                 class = c("calm_error_no_rows", "calm_error_argument", "calm_error"), call = call)
}

# The variances of the data (divisor n) when a learner standardises, so that
# logLik() can report the likelihood on the data's own scale; NULL otherwise.
data_variances <- function(x, cov, standardize) {
  if (!isTRUE(standardize)) return(NULL)
  if (!is.null(x)) {
    x <- as.matrix(x)
    n <- nrow(x)
    return(apply(x, 2L, stats::var) * (n - 1) / n)
  }
  if (!is.null(cov)) return(diag(as.matrix(cov)))
  NULL
}

# Data for the SEM methods: a numeric matrix with the fit's variables as
# columns, in the fit's order.
sem_data <- function(x, nm, arg, call) {
  x <- check_numeric_matrix(x, arg, call = call)
  if (is.null(colnames(x))) {
    if (ncol(x) != length(nm)) {
      abort_arg(arg, "has {ncol(x)} unnamed column{?s} but the fit has {length(nm)} variable{?s}.",
                call = call)
    }
    colnames(x) <- nm
  }
  missing_cols <- setdiff(nm, colnames(x))
  if (length(missing_cols)) {
    abort_arg(arg, "lacks the variable{?s} {.val {missing_cols}} of the fit.", call = call)
  }
  x[, nm, drop = FALSE]
}

# The column means of data, NULL for a covariance.
data_means <- function(x) {
  if (is.null(x)) return(NULL)
  x <- as.matrix(x)
  stats::setNames(colMeans(x), node_names(x))
}
