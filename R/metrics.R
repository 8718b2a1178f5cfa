# Comparison of an estimated graph with the truth: SHD between CPDAGs and
# skeleton precision / recall.

# A graph argument of a metric, as a CPDAG matrix: a fit gives its CPDAG, a
# DAG is converted to its CPDAG, and a graph with undirected (mutual) edges is
# taken as a CPDAG as it is.
cpdag_arg <- function(g, arg, call = parent.frame()) {
  if (inherits(g, "calm_fit")) return(g[["cpdag_amat"]])
  m <- graph_arg(g, arg, call = call)
  m[] <- as.double(m != 0)
  if (any(m * t(m) != 0)) return(m)
  if (!cpp_is_dag(m)) {
    abort_arg(arg, "has a directed cycle; it is neither a DAG nor a CPDAG.", call = call)
  }
  cp <- cpp_dag_to_cpdag(m)
  storage.mode(cp) <- "double"
  dimnames(cp) <- dimnames(m)
  cp
}

metric_pair <- function(est, truth, call) {
  e <- cpdag_arg(est, "est", call = call)
  t <- cpdag_arg(truth, "truth", call = call)
  e <- check_same_nodes(t, e, "truth", "est", call = call, by_position = by_position(est, truth))
  list(est = e, truth = t)
}

#' Structural Hamming distance between CPDAGs
#'
#' Counts the unordered pairs of nodes on which the two CPDAGs differ in any
#' way: an edge missing or extra, reversed, or directed in one and undirected
#' in the other. Each pair counts at most once. DAGs are first converted to
#' their CPDAGs ([dag_to_cpdag()]), so the distance is zero exactly when the
#' two graphs are Markov equivalent. This is the "SHD of CPDAG" of the paper
#' and agrees with `pcalg::shd()` applied to the two CPDAGs.
#'
#' @param est,truth Graphs: a DAG or CPDAG as an adjacency matrix or igraph
#'   graph (a graph with a mutual pair of edges is taken to be a CPDAG), or a
#'   fit. They must have the same nodes, matched by name (by position when
#'   one of them has no node names, as `pcalg::shd()` does).
#' @return A single integer.
#' @examples
#' set.seed(3)
#' truth <- simulate_dag(8, k = 1.5)
#' est <- truth
#' est[est != 0][1] <- 0   # drop one edge
#' shd_cpdag(est, truth)
#' shd_cpdag(truth, truth)
#' @export
shd_cpdag <- function(est, truth) {
  p <- metric_pair(est, truth, environment())
  shd_count(p[["est"]], p[["truth"]])
}

shd_count <- function(est, truth) {
  diff <- (est != truth)
  as.integer(sum((diff | t(diff))[upper.tri(diff)]))
}

#' Skeleton precision, recall and F1
#'
#' Compares the skeletons (undirected versions) of two graphs.
#' Precision is the share of estimated adjacencies that are true, recall the
#' share of true adjacencies that are estimated. By convention precision is 1
#' when nothing is estimated and recall is 1 when the truth has no edge, so
#' that the empty estimate of an empty truth scores 1, 1, 1.
#'
#' @inheritParams shd_cpdag
#' @return A named numeric vector: `precision`, `recall`, `f1`, and the counts
#'   `tp`, `fp`, `fn`, `n_est` (estimated adjacencies), `n_true`.
#' @examples
#' set.seed(3)
#' truth <- simulate_dag(8, k = 1.5)
#' skeleton_metrics(truth, truth)
#' @export
skeleton_metrics <- function(est, truth) {
  p <- metric_pair(est, truth, environment())
  skeleton_counts(p[["est"]], p[["truth"]])
}

skeleton_counts <- function(est, truth) {
  ut <- upper.tri(est)
  se <- ((est + t(est)) != 0)[ut]
  st <- ((truth + t(truth)) != 0)[ut]
  tp <- sum(se & st)
  fp <- sum(se & !st)
  fn <- sum(!se & st)
  precision <- if (tp + fp == 0) 1 else tp / (tp + fp)
  recall <- if (tp + fn == 0) 1 else tp / (tp + fn)
  f1 <- if (precision + recall == 0) 0 else 2 * precision * recall / (precision + recall)
  c(precision = precision, recall = recall, f1 = f1, tp = tp, fp = fp, fn = fn,
    n_est = tp + fp, n_true = tp + fn)
}

#' Compare an estimated graph with the truth
#'
#' One row of the paper's comparison tables: SHD of CPDAG, skeleton
#' precision, recall and F1, and the edge counts.
#'
#' @inheritParams shd_cpdag
#' @return A one-row data frame with columns `shd`, `precision`, `recall`,
#'   `f1`, `n_est`, `n_true`, `tp`, `fp`, `fn`.
#' @examples
#' set.seed(3)
#' truth <- simulate_dag(8, k = 1.5)
#' compare_graphs(truth, truth)
#' @export
compare_graphs <- function(est, truth) {
  p <- metric_pair(est, truth, environment())
  shd <- shd_count(p[["est"]], p[["truth"]])
  s <- skeleton_counts(p[["est"]], p[["truth"]])
  data.frame(shd = shd, precision = s[["precision"]], recall = s[["recall"]],
             f1 = s[["f1"]], n_est = as.integer(s[["n_est"]]),
             n_true = as.integer(s[["n_true"]]), tp = as.integer(s[["tp"]]),
             fp = as.integer(s[["fp"]]), fn = as.integer(s[["fn"]]))
}
