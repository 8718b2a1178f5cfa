# Model methods for fits: logLik() (so AIC() and BIC() work), nobs() and
# simulate() from the fitted linear Gaussian SEM.

#' Log-likelihood, observations and simulation of a fitted SEM
#'
#' A fit that has a DAG and noise variances (from [calm()], [exact_search()],
#' [golem_nv()], [notears_linear()]) is a linear Gaussian structural equation
#' model with least-squares (maximum-likelihood) weights. `logLik()` gives its
#' maximised Gaussian log-likelihood,
#' `-n/2 sum_j (log(2 pi omega_j) + 1)`, where `omega_j` are the residual
#' variances (divisor `n`). When the fit standardised data (the default), the
#' log-likelihood is reported on the scale of the original data (the
#' Jacobian of the scaling, `-n/2 sum_j log(var_j)`, is added), so it can be
#' compared with fits on the raw data such as `bnlearn::hc()` or
#' `pcalg::ges()`. Degrees of freedom: one weight per edge plus a mean and a
#' variance per variable, as bnlearn counts them, so [stats::AIC()] and
#' [stats::BIC()] work. Fits of a population covariance (`n = Inf`) have no
#' likelihood.
#'
#' `simulate()` draws new data from the fitted SEM: `x = e (I - B)^{-1}`,
#' `e ~ N(0, diag(omega))`, with `B` and `omega` on the data's scale (as
#' [coef()] gives them) and zero means.
#'
#' @param object A `calm_fit` with a DAG.
#' @param nsim Number of rows (observations) to draw.
#' @param seed Optional seed for [set.seed()]; the random state is restored
#'   afterwards, as [stats::simulate()] does.
#' @param ... Unused; an argument given here is an error naming it.
#' @return `logLik()`: an object of class `logLik` with attributes `df` and
#'   `nobs`. `nobs()`: the sample size. `simulate()`: a data frame with
#'   `nsim` rows and one column per variable.
#' @examples
#' set.seed(1)
#' sem <- simulate_sem(5, k = 1, n = 400)
#' fit <- calm(sem$x, verbose = FALSE)
#' logLik(fit)
#' BIC(fit)
#' head(simulate(fit, nsim = 3, seed = 1))
#' @name calm_fit_model
#' @importFrom stats logLik nobs simulate
NULL

#' @rdname calm_fit_model
#' @export
logLik.calm_fit <- function(object, ...) {
  call <- environment()
  check_dots_empty(..., fn = "logLik.calm_fit", call = call)
  if (is.null(object$omega) || is.null(object$B)) {
    abort_arg("object", "has no DAG with noise variances (a CPDAG-only fit such as PC or GES has no single likelihood); fit a DAG or use {.fn score_dag}.",
              call = call)
  }
  n <- object$n
  if (is.null(n) || !is.finite(n)) {
    abort_arg("object", "was fitted to a population covariance (n = Inf), which has no likelihood; give the data or a finite {.arg n}.",
              call = call)
  }
  omega <- object$omega
  d <- length(omega)
  ll <- -n / 2 * sum(log(2 * pi * omega) + 1)
  if (!is.null(object$data_var)) ll <- ll - n / 2 * sum(log(object$data_var))
  structure(ll, df = sum(object$amat != 0) + 2 * d, nobs = n, class = "logLik")
}

#' @rdname calm_fit_model
#' @export
nobs.calm_fit <- function(object, ...) {
  object$n
}

#' @rdname calm_fit_model
#' @export
simulate.calm_fit <- function(object, nsim = 1, seed = NULL, ...) {
  call <- environment()
  check_dots_empty(..., fn = "simulate.calm_fit", call = call)
  if (is.null(object$omega) || is.null(object$B)) {
    abort_arg("object", "has no DAG with noise variances to simulate from.", call = call)
  }
  nsim <- check_count(nsim, "nsim", min = 1, call = call)
  if (!is.null(seed)) {
    check_number(seed, "seed", call = call)
    if (exists(".Random.seed", envir = globalenv(), inherits = FALSE)) {
      old <- get(".Random.seed", envir = globalenv(), inherits = FALSE)
      on.exit(assign(".Random.seed", old, envir = globalenv()), add = TRUE)
    } else {
      on.exit(rm(".Random.seed", envir = globalenv()), add = TRUE)
    }
    set.seed(seed)
  }
  # on the data's scale, as coef() (the stored scale when the data's
  # variances are not known)
  B <- tryCatch(fit_weights(object, "refit", "data"), calm_error_argument = function(e) object$B)
  omega <- if (identical(B, object$B)) object$omega else noise_variances(object, "data")
  d <- ncol(B)
  e <- matrix(stats::rnorm(nsim * d), nsim, d) %*% diag(sqrt(omega), d)
  x <- e %*% solve(diag(d) - B)
  colnames(x) <- colnames(B)
  as.data.frame(x)
}

#' Fit the linear Gaussian SEM of a given graph
#'
#' Least-squares (maximum-likelihood) weights and noise variances of a DAG
#' on data, returned as a `calm_fit`, so that any graph (from bnlearn,
#' pcalg, dagitty, a file) gets [logLik()], [stats::BIC()], [coef()],
#' [simulate()] and the comparisons. A CPDAG (or pcalg's `EssGraph`) is
#' replaced by one of its DAGs (all have the same likelihood).
#'
#' @param graph A DAG or CPDAG in any form [as_amat()] accepts (a fit gives
#'   its DAG, whose likelihood every member of its class shares).
#' @inheritParams calm
#' @param standardize Work on standardised data (default `FALSE`, the data's
#'   own scale; `logLik()` is on the data's scale either way).
#' @return A `calm_fit` with `method = "sem"`.
#' @examples
#' set.seed(1)
#' sem <- simulate_sem(5, k = 1, n = 400)
#' BIC(fit_sem(sem$B, sem$x))
#' @export
fit_sem <- function(graph, x, cov = NULL, n = NULL, standardize = FALSE) {
  call <- environment()
  if (missing(x)) x <- NULL
  check_flag(standardize, "standardize", call = call)
  cv <- resolve_covariance(x, cov, n, standardize, call = call, small_n = TRUE)
  sigma <- set_node_names(cv$sigma)
  m <- graph_arg(graph, "graph", weighted = FALSE, call = call)
  m <- check_same_nodes(sigma, m, if (is.null(x)) "cov" else "x", "graph", call = call,
                        by_position = !has_node_names(graph))
  m[] <- as.double(m != 0)
  if (!cpp_is_dag(m)) m <- dag_of_class(m, "graph", call)
  new_calm_fit(m, sigma = sigma, n = cv$n, method = "sem",
               settings = list(standardize = standardize), call = match.call(),
               extra = data_summary(x, cov, standardize))
}
