# Simulation of random DAGs and linear Gaussian structural equation models
# (paper Section 4.2), population covariances and standardization.

#' Simulate an Erdos-Renyi DAG
#'
#' Draws a random DAG with `k * d` edges on average (`edges = "expected"`,
#' each of the `d * (d - 1) / 2` pairs is an edge with probability
#' `2 k / (d - 1)`) or exactly (`edges = "exact"`, a uniformly random set of
#' `round(k * d)` pairs), oriented along a uniformly random order of the
#' nodes. This is the "ER-k" family of the paper.
#'
#' @param d Number of nodes (at least 2).
#' @param k Expected number of edges per node (default 1).
#' @param edges `"expected"` or `"exact"`: see Description.
#' @return A 0/1 adjacency matrix (`[i, j] = 1` for `i -> j`) with node names
#'   `X1`, ..., `Xd`.
#' @seealso [simulate_sem()]
#' @examples
#' set.seed(1)
#' B <- simulate_dag(10, k = 2, edges = "exact")
#' sum(B)
#' is_dag(B)
#' @export
simulate_dag <- function(d, k = 1, edges = c("expected", "exact")) {
  d <- check_count(d, "d", min = 2)
  check_number(k, "k", lower = 0, lower_open = TRUE)
  edges <- match_choice(edges, c("expected", "exact"), "edges", environment())
  n_pairs <- d * (d - 1) / 2
  if (k * d > n_pairs) {
    abort_arg("k", "is too large: {d} nodes have at most {n_pairs} edges, so {.arg k} must be at most {(d - 1) / 2}.",
              call = environment())
  }
  check_memory(2 * 8 * as.double(d)^2, "d", environment())
  lower <- which(lower.tri(matrix(0, d, d)))
  chosen <- if (edges == "expected") {
    lower[stats::runif(length(lower)) < 2 * k / (d - 1)]
  } else {
    lower[sample.int(length(lower), round(k * d))]
  }
  m <- matrix(0, d, d)
  m[chosen] <- 1
  # m is lower triangular: row i > column j, read as edge j -> i; transpose
  # to put parents in rows, then relabel the nodes by a random permutation.
  m <- t(m)
  perm <- sample.int(d)
  m <- m[perm, perm]
  set_node_names(m, paste0("X", seq_len(d)))
}

#' Simulate a linear Gaussian structural equation model
#'
#' Draws an ER-k DAG (or uses `dag`), edge weights uniformly from
#' `[-hi, -lo] U [lo, hi]` with `weight_range = c(lo, hi)`, and noise
#' variances, then computes the population covariance and, for finite `n`,
#' draws data from `X = B^T X + N`.
#'
#' By default the noise variances follow the paper's "noise ratio" design:
#' two randomly chosen variables get variances 1 and `noise_ratio`, and the
#' others are drawn uniformly from `[1, noise_ratio]`.
#'
#' @inheritParams simulate_dag
#' @param n Sample size; `Inf` (default) returns no data, only the population
#'   covariance (the "infinite sample" setting).
#' @param weight_range Two numbers `0 < lo < hi` (default `c(0.5, 2)`):
#'   absolute edge weights are uniform on `[lo, hi]` with a random sign.
#' @param noise_ratio Ratio of the largest to the smallest noise variance
#'   (default 16, at least 1).
#' @param noise_var Optional vector of `d` positive noise variances
#'   (default `NULL`, drawn from `noise_ratio`); overrides `noise_ratio`.
#' @param dag Optional DAG to use instead of drawing one (default `NULL`;
#'   anything [as_amat()] accepts); its nonzero pattern is used, weights are drawn.
#' @return An object of class `calm_sem`, a list with
#'   * `B`: weighted adjacency matrix (`B[i, j]` is the weight of `i -> j`),
#'   * `dag`: the DAG as igraph with edge attribute `weight`,
#'   * `omega`: noise variances,
#'   * `sigma`: population covariance `(I - B)^{-T} diag(omega) (I - B)^{-1}`,
#'   * `x`: an `n` x `d` data matrix (`NULL` when `n = Inf`),
#'   * `n`, `k`.
#' @seealso [population_cov()], [standardize()]
#' @examples
#' set.seed(42)
#' sem <- simulate_sem(10, k = 1, n = 500)
#' sem
#' dim(sem$x)
#' @export
simulate_sem <- function(d, k = 1, n = Inf, edges = c("expected", "exact"),
                         weight_range = c(0.5, 2), noise_ratio = 16,
                         noise_var = NULL, dag = NULL) {
  edges <- match_choice(edges, c("expected", "exact"), "edges", environment())
  if (is.null(dag)) {
    adj <- simulate_dag(d, k = k, edges = edges)
  } else {
    adj <- dag_arg(dag, "dag")
  }
  d <- nrow(adj)
  if (d < 2L) abort_arg("dag", "must have at least 2 nodes.", call = environment())
  check_number(n, "n", lower = 2, allow_inf = TRUE)
  if (is.finite(n)) n <- check_count(n, "n", min = 2)
  if (!is.numeric(weight_range) || length(weight_range) != 2L || anyNA(weight_range) ||
      any(!is.finite(weight_range)) || weight_range[1] <= 0 || weight_range[2] < weight_range[1]) {
    abort_arg("weight_range", "must be two finite numbers with 0 < lo <= hi.", call = environment())
  }
  if (is.null(noise_var)) {
    check_number(noise_ratio, "noise_ratio", lower = 1)
    omega <- stats::runif(d, 1, noise_ratio)
    two <- sample.int(d, 2L)
    omega[two] <- c(1, noise_ratio)
  } else {
    if (!is.numeric(noise_var) || length(noise_var) != d || anyNA(noise_var) ||
        any(!is.finite(noise_var)) || any(noise_var <= 0)) {
      abort_arg("noise_var", "must be {d} positive finite numbers.", call = environment())
    }
    omega <- as.double(noise_var)
  }
  names(omega) <- rownames(adj)
  B <- adj
  idx <- which(adj != 0)
  B[idx] <- stats::runif(length(idx), weight_range[1], weight_range[2]) *
    sample(c(-1, 1), length(idx), replace = TRUE)
  sigma <- simulated_cov(B, omega, if (is.null(noise_var)) "weight_range" else "noise_var",
                         environment())
  x <- NULL
  if (is.finite(n)) {
    # the noise, the data and a transposed copy of each
    check_memory(4 * 8 * as.double(n) * d, "n", environment())
    noise <- matrix(stats::rnorm(n * d), n, d) * rep(sqrt(omega), each = n)
    x <- t(backsolve_sem(B, t(noise)))
    colnames(x) <- rownames(adj)
  }
  structure(
    list(B = B, dag = amat_to_igraph(B), omega = omega, sigma = sigma, x = x,
         n = n, k = if (is.null(dag)) k else sum(adj) / d),
    class = "calm_sem"
  )
}

# Solves (I - B)^T X = N for X (columns are samples): the data of the SEM.
backsolve_sem <- function(B, noise) {
  solve(t(diag(nrow(B)) - B), noise)
}

#' @export
print.calm_sem <- function(x, ...) {
  d <- nrow(x$B)
  cat(sprintf("<calm_sem> linear Gaussian SEM: %d nodes, %d edges, %s\n",
              d, sum(x$B != 0),
              if (is.finite(x$n)) paste0(x$n, " samples") else "population covariance (n = Inf)"))
  cat(sprintf("  noise variances in [%.3g, %.3g]; |weights| in [%.3g, %.3g]\n",
              min(x$omega), max(x$omega),
              if (any(x$B != 0)) min(abs(x$B[x$B != 0])) else NA,
              if (any(x$B != 0)) max(abs(x$B)) else NA))
  invisible(x)
}

#' Population covariance of a linear Gaussian SEM
#'
#' @param B Weighted adjacency matrix (`B[i, j]` is the weight of `i -> j`)
#'   or anything [as_amat()] accepts; a fit gives its DAG with its weights
#'   (`as_amat(fit, graph = "dag")`), the member of the class that has them.
#' @param omega Vector of noise variances, one per node (a single number is
#'   recycled).
#' @return The covariance `(I - B)^{-T} diag(omega) (I - B)^{-1}`, with node
#'   names. `B` need not be acyclic: for a cyclic linear SEM this is the
#'   covariance of its equilibrium whenever `I - B` is invertible (a singular
#'   `I - B` is an error).
#' @examples
#' # the paper's 3-node example (Section 3.3)
#' B <- matrix(0, 3, 3); B[1, 2] <- 1/2; B[3, 2] <- -1
#' population_cov(B, c(16, 4, 1))
#' @export
population_cov <- function(B, omega) {
  B <- graph_arg(B, "B", weighted = TRUE)
  d <- nrow(B)
  if (length(omega) == 1L) omega <- rep(omega, d)
  if (!is.numeric(omega) || length(omega) != d || anyNA(omega) || any(!is.finite(omega)) ||
      any(omega <= 0)) {
    abort_arg("omega", "must be {d} positive finite noise variances.", call = environment())
  }
  ib <- diag(d) - B
  inv <- tryCatch(solve(ib), error = function(e) {
    # For a DAG, I - B is unit triangular up to a permutation and never
    # singular: a failed solve there means the weights overflow.
    if (cpp_is_dag((B != 0) * 1)) {
      abort_arg("B", "has weights so large (up to {signif(max(abs(B)), 3)}) that the covariance overflows double precision.",
                call = parent.frame(3))
    }
    abort_arg("B", "gives a singular I - B; its SEM has no covariance.", call = parent.frame(3))
  })
  s <- t(inv) %*% (omega * inv)
  s <- (s + t(s)) / 2
  set_node_names(s, rownames(B))
}

#' Standardize data or a covariance matrix
#'
#' For data: centre each column and scale it to unit variance. For a
#' covariance matrix: `D^{-1/2} S D^{-1/2}` with `D = diag(S)`, the
#' correlation matrix. For a simulated SEM ([simulate_sem()]): the
#' equivalent SEM of the standardized variables (weights `B[i, j] * sd_i /
#' sd_j`, noise variances `omega_j / var_j`), its correlation matrix and
#' standardized data. Data of an extreme scale (whose variances would under-
#' or overflow, e.g. values of order `1e-170`) are rescaled column by column
#' first, so they standardize like any other.
#'
#' @param x A numeric matrix or data frame of data, a covariance matrix, or a
#'   `calm_sem` object.
#' @param type `"auto"` (default) treats a square symmetric matrix with a
#'   positive diagonal that is positive semi-definite as a covariance matrix
#'   and anything else as data; `"data"` or `"covariance"` say which it is.
#' @return An object of the same kind, standardized.
#' @examples
#' set.seed(1)
#' sem <- simulate_sem(5, n = 200)
#' round(diag(standardize(sem$sigma)), 10)
#' round(apply(standardize(sem$x), 2, sd), 10)
#' @export
standardize <- function(x, type = c("auto", "data", "covariance")) {
  type <- match_choice(type, c("auto", "data", "covariance"), "type", environment())
  if (inherits(x, "calm_sem")) return(standardize_sem(x))
  m <- check_numeric_matrix(x, "x")
  if (type == "auto") type <- if (looks_like_covariance(m)) "covariance" else "data"
  if (type == "covariance") {
    s <- check_covariance(m, "x")
    return(stats::cov2cor(s))
  }
  x <- prescale_extreme(check_data(m, "x"))
  scale(x, center = TRUE, scale = TRUE) |> `attributes<-`(list(dim = dim(x), dimnames = dimnames(x)))
}

# Data whose squares leave double precision's normal range (a scale like
# 1e-170, where the variance underflows to 0 or a denormal, or 1e160, where
# it overflows) are first divided, column by column, by their largest
# absolute value: standardizing does not depend on the scale. Other data are
# returned as they are, so their results do not change in the last bits.
prescale_extreme <- function(x) {
  big <- apply(abs(x), 2L, max)
  if (all(big > 1e-140 & big < 1e140)) return(x)
  x / rep(big, each = nrow(x))
}

# The population covariance of a simulated SEM; when it overflows (or
# population_cov() finds the weights too large), the error names `arg`, the
# argument the user gave, not population_cov()'s `B`.
simulated_cov <- function(B, omega, arg, call) {
  overflow <- function() {
    abort_arg(arg, "gives a covariance that overflows double precision (largest noise variance {signif(max(omega), 3)}, largest weight {signif(max(abs(B)), 3)}).",
              call = call)
  }
  sigma <- tryCatch(population_cov(B, omega), calm_error_argument = function(e) overflow())
  if (!all(is.finite(sigma))) overflow()
  sigma
}

looks_like_covariance <- function(m) {
  nrow(m) == ncol(m) && nrow(m) > 1L && isSymmetric(unname(m)) && all(diag(m) > 0) &&
    min(eigen(m, symmetric = TRUE, only.values = TRUE)$values) >= -1e-10 * max(abs(m))
}

standardize_sem <- function(sem) {
  sd <- sqrt(diag(sem$sigma))
  B <- sem$B * outer(sd, 1 / sd)
  omega <- sem$omega / sd^2
  out <- sem
  out$B <- B
  out$dag <- amat_to_igraph(B)
  out$omega <- omega
  out$sigma <- stats::cov2cor(sem$sigma)
  if (!is.null(sem$x)) out$x <- standardize(sem$x, type = "data")
  out
}
