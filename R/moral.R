# Moral graph estimation (paper Appendix A.1; SPEC section 3): Markov
# blankets by IAMB, or the support of the precision matrix. The search and
# the tests run in C++ (src/iamb.cpp) on the correlation matrix.

#' Estimate the moral graph (Markov blankets) from data or a covariance
#'
#' Estimates the Markov blanket of every variable of a linear Gaussian model
#' and joins each variable to the members of its blanket. For data generated
#' by a DAG the result estimates the DAG's moral graph ([moral_graph()]),
#' which [calm()] uses to restrict its search.
#'
#' @section Methods:
#' **`method = "iamb"`** (default) runs the Incremental Association Markov
#' Blanket algorithm (Tsamardinos et al., 2003) for each target `T`:
#' * *grow*: among the variables outside the current blanket `S`, take the
#'   one whose partial correlation with `T` given `S` is largest in absolute
#'   value (equivalently, the smallest p-value, since all candidates are
#'   tested with the same conditioning set); add it if its test rejects
#'   independence at level `alpha`, otherwise stop. Growth also stops when the
#'   blanket has `max_size` members.
#' * *shrink*: test every member `Y` of the blanket against `T` given the
#'   other members; if the weakest one (largest p-value) is independent,
#'   remove it and test again, until every remaining member is dependent.
#'
#' The test of the partial correlation `rho = cor(T, Y | S)` is Fisher's z: `z = atanh(rho) *
#' sqrt(n - |S| - 3)`, two-sided p-value `2 * (1 - pnorm(|z|))`, dependence
#' when `p <= alpha`. All partial correlations come from the correlation
#' matrix: the residual covariance given the blanket is kept as a pivoted
#' Cholesky factorisation that gains one column when a variable enters, and
#' the inverse of the correlation matrix of `T` and its blanket is kept up to
#' date by bordering (entry) and a Schur complement (removal). No test solves
#' a linear system from scratch; one growth step for a target costs
#' `O(d |S|)`.
#'
#' The blankets found for different targets need not agree (`Y` in the
#' blanket of `T` but `T` not in that of `Y`). `rule = "or"` (default) keeps
#' an edge when either blanket contains the other node; `rule = "and"` only
#' when both do. OR is the default because it is what the authors' code
#' computes and because CALM needs recall more than precision:
#' the optimizer and the refinement can drop a spurious moral edge but never
#' add a missing one. The per-node blankets before this step are kept in the graph attribute
#' `blankets`.
#'
#' **`method = "precision"`** joins `i` and `j` when their partial
#' correlation given all other variables, `-K[i, j] / sqrt(K[i, i] K[j, j])`
#' with `K` the inverse correlation matrix, is nonzero. For finite `n` this
#' is decided by the same Fisher-z test at level `alpha` with `|S| = d - 2`
#' (so `n > d + 1` is needed); for `n = Inf` see below. The result is
#' symmetric, so `rule` has no effect, and the number of tests is
#' `d (d - 1) / 2`.
#'
#' @section Population covariances (`n = Inf`):
#' When `cov` is given without `n` (or with `n = Inf`) it is taken to be a
#' population covariance, the paper's "infinite sample" setting. Both methods
#' then run *exact* tests: a partial correlation is zero when `|rho| <=
#' zero_tol`, and nonzero otherwise; `alpha` is not used. The default
#' `zero_tol = 1e-8` sits well above the rounding error of partial
#' correlations computed from a positive definite matrix with condition
#' number up to about `1e10` (that error is near `1e-16` times the condition
#' number) and well below the partial correlations of simulated models
#' (for 50-node ER4 graphs of [simulate_sem()] the smallest nonzero ones are
#' around `1e-3`). Under faithfulness, exact IAMB and the precision support
#' both return the moral graph itself. Giving a large finite `n` (such as
#' `1e9`) instead runs ordinary Fisher-z tests.
#'
#' @section Other implementations:
#' How this IAMB differs from bnlearn's `iamb()` and from the authors' code
#' (shrink order, ranking of candidates, symmetrisation) is described in
#' `vignette("pcalg-bnlearn", package = "calm")`.
#'
#' @param x Data: a numeric matrix or data frame, one column per variable
#'   (at least 2 columns, no constant column, no missing values). Give
#'   either `x` or `cov` (default `NULL`). Fewer rows than columns are fine:
#'   every test conditions on fewer than `n - 3` variables (see `max_size`).
#' @param cov A covariance matrix (symmetric; positive definite unless `n`
#'   is given and at most the number of variables), used instead of data.
#' @param n Sample size behind `cov`. `NULL` (default) or `Inf` means `cov` is
#'   a population covariance (exact tests; see the section on population
#'   covariances). Leave `NULL` when `x` is given (it is `nrow(x)`).
#' @param alpha Significance level of the Fisher-z tests, in `(0, 1)`.
#' @param method `"iamb"` (default) or `"precision"`; see the section on
#'   methods.
#' @param rule How to combine the blankets into an undirected graph: `"or"`
#'   (default; what the authors' code computes) or `"and"`.
#' @param max_size Largest blanket size for `"iamb"`: `NULL` (default, no
#'   cap other than `d - 1` and what `n` allows) or a positive whole number.
#'   A Fisher-z test given `s` variables needs `n - s - 3 > 0`; when this
#'   bound, not `max_size`, stops the growth of some blanket, a warning names
#'   the blankets that may be incomplete.
#' @param zero_tol For `n = Inf` only: partial correlations with absolute
#'   value at most `zero_tol` (default `1e-8`) count as zero.
#' @param knowledge Background knowledge ([background_knowledge()]): the two
#'   ends of every required edge enter each other's blanket first, without a
#'   test, and are never dropped, so the pair stays in the moral graph
#'   (forbidden edges do not change a moral graph). `NULL`: none.
#' @return An undirected [igraph][igraph::igraph] graph whose vertices are
#'   named after the variables, with graph attributes
#'   * `blankets`: named list of character vectors, the Markov blanket found
#'     for each variable before symmetrisation;
#'   * `n_tests`: number of conditional independence tests run;
#'   * `method`, `alpha`, `rule`, `n`, `max_size`, `zero_tol`: the settings
#'     used (`max_size` is the effective cap);
#'   * `capped`: names of the variables whose blanket reached the cap, so
#'     that growth stopped without testing further candidates (empty for
#'     `"precision"`).
#'
#'   `as_amat()` turns it into a symmetric 0/1 matrix.
#' @references Tsamardinos, I., Aliferis, C. F. and Statnikov, A. (2003).
#'   Algorithms for large scale Markov blanket discovery. *FLAIRS*.
#'
#'   Jin, Ng, Zhang and Huang (2025). Revisiting differentiable structure
#'   learning: inconsistency of l1 penalty and beyond. *ICLR*.
#' @seealso [moral_graph()] for the moral graph of a known DAG,
#'   [skeleton_metrics()] to compare graphs.
#' @examples
#' set.seed(1)
#' sem <- simulate_sem(20, k = 1, n = 500)
#' mg <- estimate_moral_graph(sem$x)
#' mg
#' igraph::graph_attr(mg, "n_tests")
#' skeleton_metrics(mg, moral_graph(sem$dag))
#'
#' # population covariance: exact tests recover the moral graph
#' mg_inf <- estimate_moral_graph(cov = sem$sigma)
#' skeleton_metrics(mg_inf, moral_graph(sem$dag))
#' @export
estimate_moral_graph <- function(x = NULL, cov = NULL, n = NULL, alpha = 0.01,
                                 method = c("iamb", "precision"), rule = c("or", "and"),
                                 max_size = NULL, zero_tol = 1e-8, knowledge = NULL) {
  call <- environment()
  method <- match_choice(method, c("iamb", "precision"), "method", call)
  rule <- match_choice(rule, c("or", "and"), "rule", call)
  alpha <- check_number(alpha, "alpha", lower = 0, upper = 1, lower_open = TRUE,
                        upper_open = TRUE)
  zero_tol <- check_number(zero_tol, "zero_tol", lower = 0, upper = 1, upper_open = TRUE)
  if (!is.null(max_size)) max_size <- check_count(max_size, "max_size", min = 1)
  input <- moral_input(x, cov, n, call)
  moral_from_covariance(input[["sigma"]], input[["n"]], alpha, method, rule, max_size, zero_tol,
                        knowledge, data_given = !is.null(x), call = call)
}

# The work of estimate_moral_graph() on a checked covariance matrix `sigma`
# (named) with sample size `n`; calm() calls it directly with the matrix it
# has already checked, and with `correlation = TRUE` when that matrix is
# already a correlation matrix (standardize = TRUE), so that neither the
# checks nor cov2cor() run twice. `data_given` only words the errors about
# the sample size. `threads`: IAMB's on one worker (iamb_blankets()).
moral_from_covariance <- function(sigma, n, alpha, method, rule, max_size, zero_tol, knowledge,
                                  data_given = FALSE, correlation = FALSE, call, threads = 1L) {
  nm <- colnames(sigma)
  d <- ncol(sigma)
  n_arg <- if (data_given) "x" else "n"
  size_text <- if (data_given) "has {n} rows," else "= {n} is"
  corr <- if (correlation) sigma else cov_to_cor(sigma)
  kn <- if (inherits(knowledge, "calm_knowledge_resolved")) knowledge else resolve_knowledge(knowledge, nm, call)
  keep <- if (is.null(kn)) NULL else pmax(kn$required, t(kn$required))

  capped <- character()
  if (method == "iamb") {
    cap <- d - 1L
    if (!is.null(max_size)) cap <- min(cap, max_size)
    if (is.finite(n)) {
      if (n > 1e15) {
        # Partial correlations from a covariance carry rounding errors of
        # about 1e-15; beyond this n the Fisher-z test declares them real.
        abort_arg(n_arg, paste(size_text, "beyond 1e15, where the tests would read rounding errors as dependence."),
                  i = "Use {.code n = Inf} (a population covariance) instead.", call = call)
      }
      if (n <= 3) {
        abort_arg(n_arg, paste(size_text, "too few for a Fisher-z test, which needs n - |S| - 3 > 0, so n > 3."),
                  call = call)
      }
      # The test that admits the m-th member, and the shrink tests of a
      # blanket of m, condition on m - 1 variables: n - (m - 1) - 3 > 0.
      cap_n <- ceiling(n - 2) - 1
      n_binds <- cap_n < cap
      cap <- as.integer(min(cap, cap_n))
    } else {
      n_binds <- FALSE
    }
    res <- iamb_blankets(corr, n, alpha, zero_tol, as.integer(cap),
                         if (!is.null(keep) && any(keep != 0)) keep, threads = threads)
    blankets <- lapply(res$blankets, function(i) nm[sort(i)])
    names(blankets) <- nm
    edges <- blanket_edges(res$blankets, rule)
    capped <- nm[res$capped]
    if (n_binds && length(capped) > 0L) {
      cli::cli_warn(c(
        "Blankets reached size {cap}, the largest a Fisher-z test with n = {n} allows; they may be incomplete.",
        i = "Capped: {.val {capped}}."
      ))
    }
    max_size_used <- cap
  } else {
    if (is.finite(n) && !(n > d + 1)) {
      abort_arg(n_arg, paste(size_text, "too few for method {.val precision} with {d} variables, which needs n > d + 1 = {d + 1}."),
                call = call)
    }
    res <- cpp_precision_support(corr, n, alpha, zero_tol)
    adj <- res$adjacency
    storage.mode(adj) <- "double"
    dimnames(adj) <- list(nm, nm)
    if (!is.null(keep)) adj <- pmax(adj, keep)
    blankets <- lapply(seq_len(d), function(i) nm[adj[i, ] != 0])
    names(blankets) <- nm
    max_size_used <- d - 1L
    edges <- which(adj != 0 & upper.tri(adj), arr.ind = TRUE)
  }

  g <- undirected_graph(edges, nm)
  attrs <- list(
    blankets = blankets, n_tests = res$n_tests, method = method, alpha = alpha,
    rule = rule, n = n, max_size = max_size_used, zero_tol = zero_tol, capped = capped
  )
  for (a in names(attrs)) g <- igraph::set_graph_attr(g, a, attrs[[a]])
  g
}

# The undirected edges of the Markov blankets `blankets` (each node's
# blanket as 1-based indices): pairs in each other's blanket (`rule`
# "and") or in either (`rule` "or"), as a two-column matrix with the smaller
# index first, sorted by its first column, then its second (the order of
# igraph's graph from an adjacency matrix). Built from the blankets, not
# from a d x d matrix (three of them, 2.4 GB, at 10,000 variables).
blanket_edges <- function(blankets, rule) {
  from <- rep(seq_along(blankets), lengths(blankets))
  to <- as.integer(unlist(blankets, use.names = FALSE))
  i <- pmin(from, to)
  j <- pmax(from, to)
  key <- (as.double(i) - 1) * length(blankets) + j
  keep <- if (rule == "and") duplicated(key) else !duplicated(key)
  keep <- keep & i != j
  o <- order(key[keep])
  cbind(i[keep][o], j[keep][o])
}

# The undirected igraph graph on the nodes `nm` with the edges `edges`
# (a two-column matrix of indices).
undirected_graph <- function(edges, nm) {
  g <- igraph::make_empty_graph(length(nm), directed = FALSE)
  g <- igraph::add_edges(g, as.vector(t(edges)))
  igraph::set_vertex_attr(g, "name", value = nm)
}

# Covariance, sample size and names for estimate_moral_graph(). A covariance
# goes through resolve_covariance(). Data take a faster route with the same
# checks: the covariance is accumulated in C++ over blocks of rows (no
# centred copy; several times faster than stats::cov() for large n), then
# checked like any covariance.
moral_input <- function(x, cov, n, call) {
  if (is.null(x) || !is.null(cov)) {
    return(resolve_covariance(x, cov, n, call = call, small_n = TRUE))
  }
  note_logical(x, "x", call = call)
  x <- check_numeric_matrix(x, "x", min_rows = 2L, min_cols = 2L, call = call)
  if (!is.null(n)) {
    abort_arg("n", "is taken from the data; leave it NULL when {.arg x} is given.", call = call)
  }
  nm <- node_names(x)
  const <- apply(x, 2L, function(col) max(col) == min(col))
  if (any(const)) {
    abort_arg("x", "has constant column{?s} {.val {nm[const]}}.", call = call)
  }
  res <- cpp_data_covariance(x)
  s <- res$cov
  if (!covariance_representable(s)) {
    # only the correlation matrix is used, which rescaling leaves unchanged
    s <- rescaled_covariance(x, TRUE, call = call, cov_fun = function(z) cpp_data_covariance(z)$cov)
  }
  s <- set_node_names(s, nm)
  s <- check_covariance(s, "x", call = call, n_rows = nrow(x), small_n = nrow(x) <= ncol(x))
  list(sigma = s, n = nrow(x), names = nm)
}

# IAMB's blankets of every variable (cpp_iamb()), with the targets split
# between the workers of the future plan from IAMB_SPREAD_D variables on:
# each blanket depends on its own target only, so the result is the same
# under any plan. Below that size sending the correlation matrix to the
# workers costs more than it saves. On one worker, `threads` threads share
# the targets (the same result).
IAMB_SPREAD_D <- 1000
iamb_blankets <- function(corr, n, alpha, zero_tol, cap, keep = NULL, min_d = IAMB_SPREAD_D,
                          threads = 1L) {
  d <- ncol(corr)
  workers <- future::nbrOfWorkers()
  if (workers <= 1) return(cpp_iamb(corr, n, alpha, zero_tol, cap, keep, threads = threads))
  if (d < min_d) return(cpp_iamb(corr, n, alpha, zero_tol, cap, keep))
  cuts <- unique(round(seq(0, d, length.out = min(d, workers) + 1L)))
  groups <- lapply(seq_len(length(cuts) - 1L), function(g) c(cuts[g] + 1L, cuts[g + 1L]))
  parts <- future.apply::future_lapply(groups, function(g) {
    cpp_iamb(corr, n, alpha, zero_tol, cap, keep, g[1], g[2])
  }, future.seed = FALSE, future.packages = "calm")
  owner <- rep(seq_along(groups), vapply(groups, function(g) g[2] - g[1] + 1L, numeric(1)))
  list(blankets = lapply(seq_len(d), function(t) parts[[owner[t]]]$blankets[[t]]),
       n_tests = sum(vapply(parts, `[[`, numeric(1), "n_tests")),
       capped = vapply(seq_len(d), function(t) parts[[owner[t]]]$capped[[t]], logical(1)))
}
