# Comparison of an estimated graph with the truth: SHD between CPDAGs and
# skeleton precision / recall.

warn_conflict <- function(m, arg) {
  what <- attr(m, "conflict")
  if (is.null(what)) return(invisible(m))
  cli::cli_warn(c(
    paste0("{.arg ", arg, "} ", what, "."),
    i = "It is compared as it is, pair by pair, as {.fn pcalg::shd} does: a bidirected edge counts as undirected, a directed edge by its direction, and no CPDAG is derived from it."
  ), class = c("calm_warning_conflict", "calm_warning"))
  invisible(m)
}

metric_pair <- function(est, truth, call, targets = NULL) {
  if (!is.null(targets)) {
    nodes <- node_names(graph_arg(truth, "truth", call = call))
    targets <- graph_targets(targets, nodes, call)
  }
  e <- cpdag_arg(est, "est", call = call, targets = targets)
  t <- cpdag_arg(truth, "truth", call = call, targets = targets)
  conflict <- attr(e, "conflict")
  e <- check_same_nodes(t, e, "truth", "est", call = call, by_position = by_position(est, truth))
  warn_conflict(structure(e, conflict = conflict), "est")
  warn_conflict(t, "truth")
  list(est = e, truth = t)
}

#' Structural Hamming distance between CPDAGs
#'
#' Counts the unordered pairs of nodes on which the two CPDAGs differ in any
#' way: an edge missing or extra, reversed, or directed in one and undirected
#' in the other. Each pair counts at most once. DAGs are first converted to
#' their CPDAGs ([dag_to_cpdag()]), so the distance is zero exactly when the
#' two graphs are Markov equivalent. A fit gives its own CPDAG
#' (`fit$cpdag_amat`): learned under background knowledge, that is the
#' class restricted by the knowledge, not the CPDAG of its DAG alone. This is the "SHD of CPDAG" of the paper
#' and agrees with `pcalg::shd()` applied to the two CPDAGs.
#'
#' @section Conflicting orientations: PC can orient an edge both ways
#'   (pcalg's `pc()` returns such graphs: with `solve.confl = TRUE` as
#'   bidirected edges, otherwise possibly as a directed cycle). Such a graph
#'   is neither a DAG nor a CPDAG. It is compared as it is, pair by pair,
#'   with one warning (class `calm_warning_conflict`) per graph, following
#'   `pcalg::shd()`: a bidirected edge counts as an undirected edge, a
#'   directed edge by its direction, and no CPDAG is derived from the graph.
#'   A fit is compared by its own CPDAG (`fit$cpdag_amat`), which carries
#'   the orientations its background knowledge forces.
#'
#' @param est,truth Graphs: a DAG or CPDAG as an adjacency matrix or igraph
#'   graph (a graph with a mutual pair of edges is taken to be a CPDAG), a
#'   pcalg `pcAlgo` result, or a fit. They must have the same nodes, matched
#'   by name (by position when one of them has no node names, as
#'   `pcalg::shd()` does). A PAG's matrix of edge marks is refused.
#' @param targets Intervention targets (a list of variable sets, as in
#'   [intervention_targets()]; a fit's `targets` works too): DAGs are then
#'   converted to their interventional essential graphs
#'   ([dag_to_cpdag()] with `targets`), so that the distance is zero exactly
#'   when the two DAGs are interventionally Markov equivalent. A fit learned
#'   with targets is compared by its own interventional CPDAG. `NULL`
#'   (default): observational data.
#' @return A single integer.
#' @examples
#' set.seed(3)
#' truth <- simulate_dag(8, k = 1.5)
#' est <- truth
#' est[est != 0][1] <- 0   # drop one edge
#' shd_cpdag(est, truth)
#' shd_cpdag(truth, truth)
#' # with an experiment on X1, the edges at X1 count by direction
#' shd_cpdag(t(truth), truth, targets = list(integer(0), 1L))
#' @export
shd_cpdag <- function(est, truth, targets = NULL) {
  p <- metric_pair(est, truth, environment(), targets)
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
compare_graphs <- function(est, truth, targets = NULL) {
  p <- metric_pair(est, truth, environment(), targets)
  shd <- shd_count(p[["est"]], p[["truth"]])
  s <- skeleton_counts(p[["est"]], p[["truth"]])
  data.frame(shd = shd, precision = s[["precision"]], recall = s[["recall"]],
             f1 = s[["f1"]], n_est = as.integer(s[["n_est"]]),
             n_true = as.integer(s[["n_true"]]), tp = as.integer(s[["tp"]]),
             fp = as.integer(s[["fp"]]), fn = as.integer(s[["fn"]]))
}
