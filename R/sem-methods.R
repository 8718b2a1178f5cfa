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
#'   centred on their own means.
#' * `fitted(fit, x)` and `residuals(fit, x)`: the same on the data the
#'   model was fitted to, and `x` minus it. Fits do not keep their data, so
#'   `x` must be given again; the residuals' variances (divisor `n`) are the
#'   noise variances of `summary(fit)` on the data's scale.
#' * `vcov(fit, x)`: the covariance matrix of the weights of the edges
#'   (named `"from->to"`), as [stats::lm()] gives it for each variable's
#'   regression (residual variance with divisor `n - |pa(j)| - 1`); the
#'   regressions of different variables are independent, so the matrix is
#'   block diagonal.
#'
#' CPDAG-only fits (PC, GES through pcalg) have no weights: these methods
#' stop with an error that says so.
#'
#' @param object A fit with a DAG and weights.
#' @param newdata,x Data: a numeric matrix or data frame with a column for
#'   every variable of the fit (matched by name; extra columns are ignored).
#' @param ... Unused.
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
#' vcov(fit, sem$x)
#' @name calm_fit_predict
#' @importFrom stats predict fitted residuals vcov
NULL

#' @rdname calm_fit_predict
#' @export
predict.calm_fit <- function(object, newdata, ...) {
  call <- environment()
  B <- sem_weights(object, call)
  if (missing(newdata)) {
    abort_arg("newdata", "is missing: give the data to predict from, one column per variable.",
              call = call)
  }
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
  sem_weights(object, call)
  if (missing(x)) abort_no_data("fitted", call)
  predict(object, x)
}

#' @rdname calm_fit_predict
#' @export
residuals.calm_fit <- function(object, x, ...) {
  call <- environment()
  B <- sem_weights(object, call)
  if (missing(x)) abort_no_data("residuals", call)
  x <- sem_data(x, colnames(B), "x", call)
  x - predict(object, x)
}

#' @rdname calm_fit_predict
#' @export
vcov.calm_fit <- function(object, x, ...) {
  call <- environment()
  B <- sem_weights(object, call)
  if (missing(x)) abort_no_data("vcov", call)
  x <- sem_data(x, colnames(B), "x", call)
  nm <- colnames(B)
  xc <- sweep(x, 2L, colMeans(x))
  n <- nrow(x)
  blocks <- lapply(seq_along(nm), function(j) {
    pa <- which(object[["amat"]][, j] != 0)
    if (length(pa) == 0L) return(NULL)
    xp <- xc[, pa, drop = FALSE]
    res <- xc[, j] - xp %*% B[pa, j]
    s2 <- sum(res^2) / (n - length(pa) - 1)
    v <- s2 * solve(crossprod(xp))
    # symmetric to the bit, whatever the BLAS kernel's order of operations
    v <- (v + t(v)) / 2
    dimnames(v) <- rep(list(paste0(nm[pa], "->", nm[j])), 2)
    v
  })
  blocks <- blocks[!vapply(blocks, is.null, logical(1))]
  labels <- unlist(lapply(blocks, rownames))
  out <- matrix(0, length(labels), length(labels), dimnames = list(labels, labels))
  for (b in blocks) out[rownames(b), colnames(b)] <- b
  out
}

# The weights on the data's scale of a fit that has a DAG, or an error.
sem_weights <- function(object, call) {
  if (is.null(object[["B"]]) || is.null(object[["omega"]])) {
    abort_arg("object", "has no DAG with weights (a CPDAG-only fit such as PC or GES); fit its graph with {.fn fit_sem} first.",
              call = call)
  }
  fit_weights(object, "refit", "data", call = call)
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

abort_no_data <- function(what, call) {
  abort_arg("x", "is missing: fits do not keep their data, so give it again, as in {.code {what}(fit, x)}.",
            call = call)
}

# The column means of data, NULL for a covariance.
data_means <- function(x) {
  if (is.null(x)) return(NULL)
  x <- as.matrix(x)
  stats::setNames(colMeans(x), node_names(x))
}
