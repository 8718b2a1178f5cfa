# predict(), fitted(), residuals() and vcov() of a fitted linear Gaussian
# SEM: the node-wise regressions of every variable on its parents.

#' Predictions, residuals and weight covariance of a fitted SEM
#'
#' A fit with a DAG and weights (from [calm()], [boss()], [exact_search()],
#' [golem_nv()], [notears_linear()], [fit_sem()]) is a linear Gaussian
#' structural equation model: each variable is a regression on its parents,
#' `x_j = mu_j + sum_i b_ij (x_i - mu_i) + e_j`, with the weights of
#' [coef()] on the data's scale and `mu` the means of the data the model
#' was fitted to.
#'
#' * `predict(fit, newdata)`: every variable's regression on its parents,
#'   evaluated at the parents' values in `newdata` (one column per variable;
#'   a variable without parents is predicted by its mean). A fit learned
#'   from a covariance matrix has no means: the columns of `newdata` are
#'   centred on their own means. Unlike `predict()` of [stats::lm()],
#'   `newdata` is needed: a fit does not keep the rows it was learned from.
#' * `fitted(fit, x)` and `residuals(fit, x)`: the same on the data the
#'   model was fitted to, and `x` minus it. They need the rows, so `x` must
#'   be given again (an error of class `calm_error_no_rows` says so); the
#'   residuals' variances (divisor `n`) are the noise variances of
#'   `summary(fit)` on the data's scale.
#' * `vcov(fit)`: the covariance matrix of the weights of the edges
#'   (named `"from->to"`), as [stats::lm()] gives it for each variable's
#'   regression (residual variance with divisor `n - |pa(j)| - 1`); the
#'   regressions of different variables are independent, so the matrix is
#'   block diagonal. From the fit's covariance, or from `x` when given.
#'
#' What a fit keeps of its data. Every learner's fit keeps the sufficient
#' statistics of the linear Gaussian model: `fit$n`, the means
#' (`fit$data_mean`), the covariance it learned from (`fit$sigma`: the
#' correlation matrix when it standardized, with the data's variances in
#' `fit$data_var`, else the covariance), the node names, and a fingerprint
#' of the rows (`fit$data_check`: n, each column's mean and variance, and
#' the variance of the rows' sums of standardized values). So
#' [causal_effects()], `vcov()` and [logLik()] need no data. `fit$sigma` is
#' the matrix the learner worked on, kept rather than copied, so keeping it
#' costs no memory during the fit, but the fit then holds `d^2` numbers
#' (0.8 GB at 10,000 variables). Drop it with `fit$sigma <- NULL`: those
#' methods then need the data again. The rows themselves are not kept, so
#' `fitted()` and `residuals()` need them. Data given again to a method
#' (`x`, or `data` of [causal_effects()]) is checked against the
#' fingerprint: another number of rows or missing variables is an error of
#' class `calm_error_data_mismatch`, other values a warning of class
#' `calm_warning_data_mismatch`.
#'
#' CPDAG-only fits (PC, GES through pcalg) have no weights: these methods
#' stop with an error that says so.
#'
#' @param object A fit with a DAG and weights.
#' @param newdata,x Data: a numeric matrix or data frame with a column for
#'   every variable of the fit (matched by name; extra columns are ignored).
#' @param ... Unused; an argument given here is an error naming it.
#' @return `predict()` and `fitted()`: a matrix with one row per row of the
#'   data and one column per variable. `residuals()`: the same shape.
#'   `vcov()`: a square matrix, one row and column per edge.
#' @seealso [coef.calm_fit()], [logLik.calm_fit()]
#' @examples
#' set.seed(1)
#' sem <- simulate_sem(5, k = 1, n = 400)
#' fit <- calm(sem$x, verbose = FALSE)
#' head(predict(fit, sem$x[1:3, ]))
#' r <- residuals(fit, sem$x)
#' colMeans(r^2)
#' vcov(fit)
#' # what the fit keeps of its data
#' fit$n
#' dim(fit$sigma)
#' @name calm_fit_predict
#' @importFrom stats predict fitted residuals vcov
NULL

#' @rdname calm_fit_predict
#' @export
predict.calm_fit <- function(object, newdata, ...) {
  call <- environment()
  check_dots_empty(..., fn = "predict.calm_fit", call = call)
  B <- sem_weights(object, call)
  if (missing(newdata)) abort_no_rows("predict", "newdata", call)
  x <- sem_data(newdata, colnames(B), "newdata", call)
  mu <- object[["data_mean"]]
  mu <- if (is.null(mu)) colMeans(x) else mu[colnames(B)]
  xc <- sweep(x, 2L, mu)
  pred <- sweep(xc %*% B, 2L, mu, `+`)
  dimnames(pred) <- list(rownames(x), colnames(B))
  pred
}

#' @rdname calm_fit_predict
#' @export
fitted.calm_fit <- function(object, x, ...) {
  call <- environment()
  check_dots_empty(..., fn = "fitted.calm_fit", call = call)
  sem_weights(object, call)
  if (missing(x)) abort_no_rows("fitted", "x", call)
  predict(object, check_fit_data(object, x, "x", call))
}

#' @rdname calm_fit_predict
#' @export
residuals.calm_fit <- function(object, x, ...) {
  call <- environment()
  check_dots_empty(..., fn = "residuals.calm_fit", call = call)
  sem_weights(object, call)
  if (missing(x)) abort_no_rows("residuals", "x", call)
  x <- check_fit_data(object, x, "x", call)
  x - predict(object, x)
}

#' @rdname calm_fit_predict
#' @export
vcov.calm_fit <- function(object, x, ...) {
  call <- environment()
  check_dots_empty(..., fn = "vcov.calm_fit", call = call)
  B <- sem_weights(object, call)
  nm <- colnames(B)
  if (missing(x)) {
    st <- fit_covariance(object)
    if (is.null(st)) {
      abort_arg("x", "is missing and this fit keeps no covariance (it was dropped); give the data it was learned from.",
                call = call)
    }
    if (!is.finite(st$n)) {
      abort_arg("x", "is missing and this fit was learned from a population covariance (n = Inf), whose weights have no sampling variance; give the data.",
                call = call)
    }
    sd <- st$sd
    block <- function(idx) {
      s <- st$sigma[idx, idx, drop = FALSE]
      if (is.null(sd)) s else s * outer(sd[idx], sd[idx])
    }
    n <- st$n
  } else {
    x <- check_fit_data(object, x, "x", call)
    xc <- sweep(x, 2L, colMeans(x))
    n <- nrow(x)
    block <- function(idx) crossprod(xc[, idx, drop = FALSE]) / n
  }
  blocks <- lapply(seq_along(nm), function(j) {
    pa <- which(object[["amat"]][, j] != 0)
    if (length(pa) == 0L) return(NULL)
    weight_vcov(block(c(pa, j)), B[pa, j], n, paste0(nm[pa], "->", nm[j]))
  })
  blocks <- blocks[!vapply(blocks, is.null, logical(1))]
  labels <- unlist(lapply(blocks, rownames))
  out <- matrix(0, length(labels), length(labels), dimnames = list(labels, labels))
  for (b in blocks) out[rownames(b), colnames(b)] <- b
  out
}

# The covariance of one node's weights b on its parents, from the
# covariance (divisor n) of (parents, node): the residual variance with
# divisor n - |pa| - 1 times the inverse of the parents' cross-products,
# as lm() gives it.
weight_vcov <- function(s, b, n, labels) {
  k <- length(b)
  sp <- s[seq_len(k), seq_len(k), drop = FALSE]
  spj <- s[seq_len(k), k + 1L]
  rss <- s[k + 1L, k + 1L] - 2 * sum(spj * b) + drop(crossprod(b, sp %*% b))
  v <- rss * n / (n - k - 1) * solve(sp * n)
  # symmetric to the bit, whatever the BLAS kernel's order of operations
  v <- (v + t(v)) / 2
  dimnames(v) <- list(labels, labels)
  v
}

# The weights on the data's scale of a fit that has a DAG, or an error.
sem_weights <- function(object, call) {
  if (is.null(object[["B"]]) || is.null(object[["omega"]])) {
    abort_arg("object", "has no DAG with weights (a CPDAG-only fit such as PC or GES); fit its graph with {.fn fit_sem} first.",
              call = call)
  }
  fit_weights(object, "refit", "data", call = call)
}
