# Graph algorithms (C++ in src/graph_core.cpp): acyclicity, topological
# order, CPDAG and moral graph of a DAG.

#' Is a graph acyclic?
#'
#' @param g A directed graph as an adjacency matrix (`[i, j]` nonzero for
#'   `i -> j`), an igraph graph, or a fit (read as its DAG, `fit$amat`);
#'   see [as_amat()]. A mutual pair of edges counts as a cycle, and so does a
#'   self-loop.
#'
#' `is_dag()` has the name of [igraph::is_dag()] and, whichever of the two
#' packages is attached last, gives the same answer on an igraph graph:
#' `FALSE` for an undirected graph (with an edge), a self-loop or a directed
#' cycle, `TRUE` otherwise. It accepts matrices and fits besides.
#' @return `is_dag()`: `TRUE` or `FALSE`. `topological_order()`: node names
#'   ordered so that every edge points forward.
#' @examples
#' B <- simulate_dag(6, k = 1)
#' is_dag(B)
#' topological_order(B)
#' is_dag(B + t(B))
#' @export
is_dag <- function(g) {
  m <- graph_arg(g, "g", loops = TRUE)
  if (any(diag(m) != 0)) return(FALSE)
  cpp_is_dag(m)
}

#' @rdname is_dag
#' @export
topological_order <- function(g) {
  m <- graph_arg(g, "g")
  ord <- cpp_topological_order(m)
  if (length(ord) == 0L) {
    abort_arg("g", "has a directed cycle, so it has no topological order.", call = environment())
  }
  rownames(m)[ord]
}

# A DAG argument: checked, 0/1, acyclic.
dag_arg <- function(g, arg, call = parent.frame()) {
  m <- graph_arg(g, arg, call = call)
  if (any(m != 0 & t(m) != 0)) {
    abort_arg(arg, "has a mutual pair of edges (an undirected edge, or a directed 2-cycle); a DAG has neither.",
              call = call)
  }
  if (!cpp_is_dag(m)) abort_arg(arg, "must be acyclic (a DAG) but has a directed cycle.", call = call)
  m
}

#' CPDAG of a DAG
#'
#' Computes the completed partially directed acyclic graph (essential graph)
#' representing the Markov equivalence class of a DAG, with Chickering's
#' (1995) edge-labelling algorithm: an edge stays directed when every DAG in
#' the class has it with that orientation, and becomes undirected otherwise.
#' The result matches `pcalg::dag2cpdag()`.
#'
#' @param g A DAG; see [as_amat()]. A fit gives its own CPDAG
#'   (`fit$cpdag_amat`, which carries the orientations its background
#'   knowledge forces), as [print()][print.calm_fit()] shows it.
#' @param output `"igraph"` (default): a directed igraph graph in which an
#'   undirected edge is a pair of mutual edges with attribute
#'   `undirected = TRUE`; `"matrix"`: the 0/1 CPDAG matrix (`C[i, j] = 1,
#'   C[j, i] = 0` for `i -> j`, both 1 for `i - j`).
#' @param targets Intervention targets: a list of variable sets (names or
#'   column positions; see [intervention_targets()]), or a fit's `targets`.
#'   The result is then the interventional essential graph of Hauser and
#'   Buehlmann (2012), which represents the DAGs that no mix of observation
#'   and these experiments can tell apart: besides the CPDAG's orientations,
#'   every edge with exactly one end in some target set is directed, and
#'   Meek's rules orient what follows. It matches
#'   `pcalg::dag2essgraph(dag, targets)` (for targets that leave every
#'   variable alone in some condition, as learning from data requires).
#'   `NULL` (default): observational data, the CPDAG.
#' @return The CPDAG as igraph or matrix.
#' @references Chickering, D. M. (1995). A transformational characterization
#'   of equivalent Bayesian network structures. *UAI*.
#'
#'   Hauser, A. and Buehlmann, P. (2012). Characterization and greedy learning
#'   of interventional Markov equivalence classes of directed acyclic graphs.
#'   *JMLR* 13, 2409-2464.
#' @examples
#' # a v-structure stays directed; a chain becomes undirected
#' v <- igraph::graph_from_literal(A -+ C, B -+ C)
#' as_amat(dag_to_cpdag(v))
#' chain <- igraph::graph_from_literal(A -+ B, B -+ C)
#' as_amat(dag_to_cpdag(chain))
#' # an experiment on A orients the chain's edge A - B, and Meek's rules B - C
#' as_amat(dag_to_cpdag(chain, targets = list(integer(0), "A")))
#' @export
dag_to_cpdag <- function(g, output = c("igraph", "matrix"), targets = NULL) {
  env <- environment()
  output <- match_choice(output, c("igraph", "matrix"), "output", env)
  if (inherits(g, "calm_fit") && is.null(targets)) {
    cp <- as_amat(g, graph = "cpdag")
    return(if (output == "matrix") cp else amat_to_igraph(cp))
  }
  kn <- if (inherits(g, "calm_fit")) g[["knowledge"]]
  m <- dag_arg(if (inherits(g, "calm_fit")) g[["amat"]] else g, "g")
  tg <- graph_targets(targets, node_names(m), call = env)
  cp <- class_cpdag(m, tg, kn)
  if (output == "matrix") cp else amat_to_igraph(cp)
}

#' Moral graph of a DAG
#'
#' The undirected graph with an edge between every parent and child and
#' between every two parents of a common child. Its edges join each node to
#' its Markov blanket.
#'
#' @param g A DAG; see [as_amat()]. A fit gives the moral graph of its DAG,
#'   which every DAG of its equivalence class shares.
#' @param output `"igraph"` (default, an undirected igraph graph) or
#'   `"matrix"` (symmetric 0/1 matrix).
#' @return The moral graph.
#' @examples
#' v <- igraph::graph_from_literal(A -+ C, B -+ C)
#' moral_graph(v)
#' @export
moral_graph <- function(g, output = c("igraph", "matrix")) {
  output <- match_choice(output, c("igraph", "matrix"), "output", environment())
  m <- dag_arg(g, "g")
  mg <- cpp_moral_graph(m)
  storage.mode(mg) <- "double"
  dimnames(mg) <- dimnames(m)
  if (output == "matrix") {
    mg
  } else {
    igraph::graph_from_adjacency_matrix(mg, mode = "undirected")
  }
}

# Make a weighted graph acyclic by dropping, while a cycle remains, the
# weakest edge that lies on a cycle. Returns the new matrix and a data frame
# of the removed edges (empty when the graph was already a DAG).
make_acyclic <- function(w) {
  res <- cpp_make_acyclic(w)
  out <- res$w
  dimnames(out) <- dimnames(w)
  nm <- node_names(w)
  removed <- data.frame(
    from = nm[res$from], to = nm[res$to],
    weight = w[cbind(res$from, res$to)],
    stringsAsFactors = FALSE
  )
  list(B = out, removed = removed)
}
