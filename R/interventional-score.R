# The interventional (GIES) score's sufficient statistics, carried to C++ as
# an attribute of the covariance (src/rcpp_glue.h, calm_glue::local_score()),
# so that every search scores with it unchanged.

# Node j is scored on the rows where it was not intervened on (Hauser and
# Buehlmann 2012). Nodes that are free in the same conditions share those
# rows, so there is one covariance per distinct set of conditions: at most
# one more than the number of targeted variables. Each is the covariance of
# its rows about their own mean (divisor: their count), as pcalg's
# GaussL0penIntScore with its intercept; with `standardize` every entry is
# divided by the standard deviations of the pooled data, as the pooled
# covariance is, which shifts each node's score by a constant.
interventional_moments <- function(x, tg, standardize) {
  d <- ncol(x)
  n <- nrow(x)
  # free[c, j]: node j is not a target of condition c
  free <- t(vapply(tg$targets, function(t) !seq_len(d) %in% t, logical(d)))
  if (d == 1L) free <- matrix(free, ncol = 1L)
  free <- matrix(free, nrow = length(tg$targets))
  key <- apply(free, 2L, function(f) paste(which(f), collapse = ","))
  groups <- unique(key)
  scale <- if (standardize) sqrt(diag(data_cov(x))) else rep(1, d)
  covs <- lapply(groups, function(g) {
    j <- match(g, key)
    rows <- free[tg$index, j]
    s <- data_cov(x[rows, , drop = FALSE])
    s <- s / outer(scale, scale)
    dimnames(s) <- NULL
    s
  })
  n_free <- vapply(seq_len(d), function(j) sum(free[tg$index, j]), numeric(1))
  list(covs = covs, group = match(key, groups) - 1L, weight = n_free / n,
       max_parents = as.integer(n_free - 2), n_free = n_free)
}

# The covariance `sigma` with the interventional score attached (unchanged
# when `tg` is NULL).
with_targets <- function(sigma, x, tg, standardize) {
  if (is.null(tg)) return(sigma)
  mo <- interventional_moments(x, tg, standardize)
  attr(sigma, "calm_interventional") <- mo[c("covs", "group", "weight", "max_parents")]
  sigma
}

has_targets <- function(sigma) !is.null(attr(sigma, "calm_interventional"))

# calm(na = "complete") drops incomplete rows: their conditions go too.
complete_target_index <- function(x, target_index, na) {
  if (is.null(target_index) || is.null(x) || identical(na, "fail")) return(target_index)
  keep <- stats::complete.cases(x)
  if (length(target_index) != length(keep) || all(keep)) return(target_index)
  target_index[keep]
}
