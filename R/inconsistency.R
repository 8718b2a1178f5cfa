# The l1-inconsistency experiment (paper Section 3.2, Table 1): among the
# d! regression DAGs that reproduce a population covariance exactly, how
# often is the l1 norm smaller than the truth's, and what does the
# minimum-l1 DAG look like? The order enumeration runs in C++
# (src/permutations.cpp).

#' Regression DAG of a variable order
#'
#' For a covariance matrix and an order of its variables, regresses each
#' variable on all the variables before it (the "Cholesky" DAG of that
#' order). The result reproduces the covariance exactly:
#' `population_cov(B, omega)` equals `sigma`. Every one of the `d!` orders
#' gives such a DAG; the sparsest of them is Markov equivalent to the truth
#' under the sparsest-Markov faithfulness assumption (Raskutti and Uhler,
#' 2018), while the one with the smallest l1 norm in general is not (see
#' [l1_inconsistency()]).
#'
#' @param sigma A covariance matrix (symmetric, positive definite).
#' @param order The variable order: a permutation of `1:d` or of the
#'   variable names. Default: the order of the columns.
#' @return A list with `B`, the weighted adjacency matrix (`B[i, j]` is the
#'   coefficient of variable `i` in the regression of `j`, so `i -> j`), and
#'   `omega`, the residual (noise) variances.
#' @seealso [l1_inconsistency()]
#' @references Raskutti, G. and Uhler, C. (2018). Learning directed acyclic
#'   graph models based on sparsest permutations. *Stat*, 7(1), e183.
#' @examples
#' # The counterexample of the paper's Section 3.3: a v-structure 1 -> 2 <- 3
#' sigma <- matrix(c(16, 8, 0, 8, 9, -1, 0, -1, 1), 3)
#' regression_dag(sigma, c(1, 3, 2))   # recovers the true DAG
#' regression_dag(sigma, c(1, 2, 3))   # a denser DAG with a smaller l1 norm
#' @export
regression_dag <- function(sigma, order = seq_len(ncol(sigma))) {
  sigma <- check_covariance(sigma, "sigma")
  order <- order_arg(order, colnames(sigma))
  res <- cpp_regression_dag(sigma, order)
  nm <- colnames(sigma)
  list(B = set_node_names(res$B, nm), omega = stats::setNames(res$omega, nm))
}

order_arg <- function(order, nm, call = parent.frame()) {
  d <- length(nm)
  if (is.character(order)) {
    idx <- match(order, nm)
    if (anyNA(idx)) {
      abort_arg("order", "names unknown variable{?s} {.val {order[is.na(idx)]}}.", call = call)
    }
    order <- idx
  }
  if (!is.numeric(order) || anyNA(order) || length(order) != d ||
      !setequal(order, seq_len(d)) || any(order != round(order))) {
    abort_arg("order", "must be a permutation of 1..{d} (or of the variable names).",
              call = call)
  }
  as.integer(order)
}

#' The l1-inconsistency experiment
#'
#' Reproduces the paper's Section 3.2 and Table 1. For each of `n_graphs`
#' random linear Gaussian SEMs ([simulate_sem()] with `n = Inf`, noise ratio
#' 16, weights in `[-2, -0.5] U [0.5, 2]`), and for each of the `d!` orders
#' of the variables, it builds the regression DAG of that order
#' ([regression_dag()]), which reproduces the population covariance exactly.
#' It records the share of orders whose DAG has a smaller l1 norm than the
#' true DAG, and compares the minimum-l1 DAG with the truth by l1 norm,
#' number of edges (l0) and SHD between CPDAGs ([shd_cpdag()]). As a
#' contrast it also reports the sparsest (minimum-l0) DAG over all orders,
#' which the l0 penalty would select.
#'
#' The search is exhaustive and exact: the regression of a node on its
#' predecessors depends only on the set of predecessors, so the
#' `d * 2^(d - 1)` distinct regressions are computed once (growing a
#' Cholesky factor one variable at a time) and the `d!` orders are then
#' enumerated by a depth-first walk over prefixes. With `d = 8` a graph takes
#' about two milliseconds (1000 graphs in 2 seconds), with `d = 10` about
#' a tenth of a second.
#'
#' @section Zero tolerance:
#' A regression coefficient that is zero in exact arithmetic (a conditional
#' independence) comes out of floating point as about `1e-15`. `zero_tol`
#' decides what counts as an edge for l0 and SHD: a coefficient `b_ij` is an
#' edge when its standardized size `|b_ij| * sd_i / sd_j` exceeds
#' `zero_tol` (so the rule does not depend on the scale of the variables).
#' `zero_tol = 0` counts every coefficient that is not exactly zero, which
#' is what a plain floating-point count does. The default `1e-8` lies far
#' above rounding error (about `1e-13` and below at `d = 8`) and far below
#' the smallest coefficients that are nonzero in exact arithmetic in these
#' simulations. The l1 norms never use a tolerance. An order counts as
#' having a smaller l1 norm than the truth only when it is smaller by more
#' than a relative `1e-9`, so that orders whose DAG is the true DAG itself
#' (equal l1 up to rounding) are not counted.
#'
#' @param n_graphs Number of random DAGs (default 1000).
#' @param d Number of variables, 2 to 10 (default 8; `d!` orders per graph).
#' @param k Edges per node of the ER graphs (default 1; `k * d` edges).
#' @param edges `"exact"` (default, as in the paper: exactly `k * d` edges)
#'   or `"expected"`; see [simulate_dag()].
#' @param zero_tol Tolerance on standardized coefficients below which a
#'   coefficient is not an edge (default `1e-8`); see the section "Zero tolerance".
#' @param seed Optional integer seed; when given the results are
#'   reproducible and the global random number stream is left untouched.
#' @param noise_ratio,weight_range Passed to [simulate_sem()]; `noise_ratio` at most
#'   `1e12`, beyond which the population covariance is singular to double
#'   precision.
#' @return An object of class `calm_l1_inconsistency`, a list with
#'   * `per_graph`: one row per graph with `share_smaller_l1` (share of the
#'     `d!` orders whose DAG has a smaller l1 norm than the truth),
#'     `l1_true`, `l1_min` (smallest l1 over the orders), `l0_true`, `l0_min`
#'     (edges of the minimum-l1 DAG), `shd_min` (its SHD of CPDAG to the
#'     truth), `l1_sparsest`, `l0_sparsest`, `shd_sparsest` (the same for
#'     the sparsest DAG over the orders, ties broken by l1), `n_orders`;
#'   * `summary`: the paper's Table 1 layout, averages over the graphs: one
#'     row per quantity (l1 norm, l0 norm, SHD of CPDAG), columns
#'     `true_dag`, `min_l1_dag`, `percent_smaller_l1` (the average share of
#'     orders with a smaller l1 norm, in percent, on the first row) and
#'     `sparsest_dag`;
#'   * `settings`: the arguments.
#' @seealso [regression_dag()]; `vignette("l1-inconsistency", package =
#'   "calm")` for the full-size results next to the paper's.
#' @examples
#' res <- l1_inconsistency(n_graphs = 5, d = 5, seed = 1)
#' res$summary
#' res$per_graph
#' @export
l1_inconsistency <- function(n_graphs = 1000, d = 8, k = 1, edges = c("exact", "expected"),
                             zero_tol = 1e-8, seed = NULL, noise_ratio = 16,
                             weight_range = c(0.5, 2)) {
  n_graphs <- check_count(n_graphs, "n_graphs", min = 1)
  d <- check_count(d, "d", min = 2, max = 10)
  check_number(k, "k", lower = 0, lower_open = TRUE)
  edges <- match_choice(edges, c("exact", "expected"), "edges", environment())
  check_number(zero_tol, "zero_tol", lower = 0)
  # noise variances spanning more than 1e12 make the population covariance
  # singular to double precision, and the order enumeration meaningless
  check_number(noise_ratio, "noise_ratio", lower = 1, upper = 1e12)
  if (!is.null(seed)) seed <- check_count(seed, "seed", max = .Machine$integer.max)
  run <- function() {
    rows <- vector("list", n_graphs)
    for (g in cli::cli_progress_along(seq_len(n_graphs), "Searching variable orders")) {
      sem <- simulate_sem(d, k = k, n = Inf, edges = edges, noise_ratio = noise_ratio,
                          weight_range = weight_range)
      rows[[g]] <- inconsistency_one(sem$B, sem$sigma, zero_tol)
    }
    rows
  }
  rows <- if (is.null(seed)) run() else with_local_seed(seed, run())
  per_graph <- do.call(rbind, rows)
  per_graph <- cbind(graph = seq_len(n_graphs), per_graph)
  structure(
    list(per_graph = per_graph,
         summary = summarise_inconsistency(per_graph),
         settings = list(n_graphs = n_graphs, d = d, k = k, edges = edges,
                         zero_tol = zero_tol, seed = seed, noise_ratio = noise_ratio,
                         weight_range = weight_range)),
    class = "calm_l1_inconsistency"
  )
}

# One graph: search all orders of sigma, then describe the minimum-l1 and
# the sparsest DAG against the truth B.
inconsistency_one <- function(B, sigma, zero_tol) {
  l1_true <- sum(abs(B))
  truth_cpdag <- cpp_dag_to_cpdag(B)
  res <- tryCatch(
    cpp_enumerate_orders(sigma, l1_true * (1 - 1e-9), zero_tol),
    error = function(e) {
      abort_arg("noise_ratio", "and {.arg weight_range} give a population covariance that is numerically singular ({conditionMessage(e)}).",
                call = NULL)
    }
  )
  sd <- sqrt(diag(sigma))
  shd_of <- function(order) {
    Bo <- cpp_regression_dag(sigma, order)$B
    support <- (abs(Bo) * outer(sd, 1 / sd) > zero_tol) + 0
    shd_count(cpp_dag_to_cpdag(support), truth_cpdag)
  }
  data.frame(
    share_smaller_l1 = res$n_smaller / res$n_orders,
    l1_true = l1_true,
    l1_min = res$l1_min,
    # the same rule as the candidates' (cpp_enumerate_orders): standardized
    # coefficients above zero_tol
    l0_true = sum(abs(B) * outer(sd, 1 / sd) > zero_tol),
    l0_min = res$l0_at_l1_min,
    shd_min = shd_of(res$order_l1_min),
    l1_sparsest = res$l1_at_l0_min,
    l0_sparsest = res$l0_min,
    shd_sparsest = shd_of(res$order_l0_min),
    n_orders = res$n_orders
  )
}

summarise_inconsistency <- function(per_graph) {
  data.frame(
    metric = c("Average l1 norm", "Average l0 norm (number of edges)",
               "Average SHD of CPDAG"),
    true_dag = c(mean(per_graph$l1_true), mean(per_graph$l0_true), 0),
    min_l1_dag = c(mean(per_graph$l1_min), mean(per_graph$l0_min), mean(per_graph$shd_min)),
    percent_smaller_l1 = c(100 * mean(per_graph$share_smaller_l1), NA, NA),
    sparsest_dag = c(mean(per_graph$l1_sparsest), mean(per_graph$l0_sparsest),
                     mean(per_graph$shd_sparsest))
  )
}

#' @export
print.calm_l1_inconsistency <- function(x, ...) {
  s <- x$settings
  cat(sprintf("<calm_l1_inconsistency> %d graphs, d = %d (%s orders each), ER%s, zero_tol = %g\n",
              s$n_graphs, s$d, format(factorial(s$d), big.mark = ","), format(s$k), s$zero_tol))
  tab <- x$summary
  out <- data.frame(
    average = c("l1 norm", "l0 norm (edges)", "SHD of CPDAG"),
    true = formatC(tab$true_dag, format = "f", digits = 2),
    min_l1 = formatC(tab$min_l1_dag, format = "f", digits = 2),
    sparsest = formatC(tab$sparsest_dag, format = "f", digits = 2)
  )
  names(out) <- c("Average", "True DAG", "Min-l1 DAG", "Sparsest DAG")
  print(out, row.names = FALSE, right = FALSE)
  cat(sprintf("Orders whose DAG has a smaller l1 norm than the truth: %.2f%%\n",
              tab$percent_smaller_l1[1]))
  invisible(x)
}

# Evaluates `expr` with R's generator seeded by `seed` (Mersenne-Twister,
# Inversion, Rejection: independent of the session's RNG kind), restoring
# the caller's RNG state afterwards.
with_local_seed <- function(seed, expr) {
  env <- globalenv()
  old_kind <- RNGkind()
  had_seed <- exists(".Random.seed", envir = env, inherits = FALSE)
  old_seed <- if (had_seed) get(".Random.seed", envir = env, inherits = FALSE)
  on.exit({
    RNGkind(old_kind[1], old_kind[2], old_kind[3])
    if (had_seed) {
      assign(".Random.seed", old_seed, envir = env)
    } else if (exists(".Random.seed", envir = env, inherits = FALSE)) {
      rm(".Random.seed", envir = env)
    }
  }, add = TRUE)
  set.seed(seed, kind = "Mersenne-Twister", normal.kind = "Inversion",
           sample.kind = "Rejection")
  expr
}
