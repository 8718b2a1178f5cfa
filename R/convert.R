# Conversions between the graph representations users bring: adjacency
# matrices, igraph, pcalg's transposed amat, graphNEL, bnlearn and the
# package's fit objects. Every other file goes through these functions; none
# converts on its own.

#' Adjacency matrix of a graph or fit
#'
#' Returns the adjacency matrix in the package's convention: entry `[i, j]`
#' is nonzero when the graph has the edge `i -> j`. An undirected edge (in a
#' CPDAG or an undirected graph) appears in both directions.
#'
#' @param x A square numeric or logical matrix (also a sparse `Matrix`), an
#'   [igraph][igraph::igraph] graph, a fit returned by [calm()] or another
#'   learner of this package, a `graphNEL` object (package graph), a `bn` or
#'   `bn.fit` object (package bnlearn; a Gaussian `bn.fit` gives its
#'   coefficients as weights), or from pcalg a `pcAlgo` fit, an `EssGraph`
#'   (or the list `pcalg::ges()` returns), or an `fciAlgo` fit whose PAG has
#'   only tails and arrowheads (circle marks and bidirected edges have no
#'   DAG or CPDAG reading and are an error), or an edge list: a data frame
#'   with columns `from` and `to` (and optionally `directed` and `weight`),
#'   as `as.data.frame()` of a fit gives (see [as.data.frame.calm_fit()]).
#' @param weighted If `TRUE` (default) edge weights are kept where the input
#'   has them (a numeric matrix, an igraph graph with a `weight` edge
#'   attribute, a fit); if `FALSE` the result is 0/1.
#'
#' @param graph For a fit, which of its graphs: `"cpdag"` (default: the
#'   Markov equivalence class the data support, with the orientations
#'   background knowledge forces, as `print()` shows it), `"dag"` (the one
#'   member the fit holds, `fit$amat`) or `"skeleton"` (the undirected graph
#'   of its adjacencies, each edge in both directions, as pcalg's
#'   skeleton). For other graphs, `"skeleton"` gives the skeleton and the
#'   other two the graph as it is.
#'
#' A fit's weights belong to its DAG: with `graph = "dag"` and `weighted =
#' TRUE` the result is the weighted adjacency matrix `B` on the data's
#' scale (as [coef()] gives it). A CPDAG or skeleton is 0/1 (an undirected
#' edge has no single weight). A fit that only has a CPDAG (PC, GES) has no
#' `graph = "dag"`.
#' @param ... For an edge list, `nodes`: the node names, in order (default
#'   its attribute `nodes`, else the nodes named in `from` and `to`). Any
#'   other argument here is an error naming it.
#' @return A square double matrix with node names as dimnames.
#' @seealso [as_igraph()], [as_pcalg_amat()]
#' @examples
#' g <- igraph::graph_from_literal(A -+ B, B -+ C)
#' as_amat(g)
#' @export
as_amat <- function(x, weighted = TRUE, graph = c("cpdag", "dag", "skeleton"), ...) {
  # `nodes` (for an edge list) is the one argument a method reads from `...`
  check_dots_for(list(...), function(nodes) NULL, "as_amat", environment())
  check_flag(weighted, "weighted")
  # NULL: graph_arg()'s internal default, resolved by the fit method
  if (!is.null(graph)) graph <- match_choice(graph, graph_types, "graph", environment())
  if (identical(graph, "skeleton") && !inherits(x, "calm_fit")) {
    m <- as_amat(x, weighted = FALSE, ...)
    m[] <- as.double(m != 0 | t(m) != 0)
    return(m)
  }
  UseMethod("as_amat")
}

#' @export
as_amat.default <- function(x, weighted = TRUE, ...) {
  cli::cli_abort(
    "{.arg x} must be an adjacency matrix, an igraph graph or a fit, not {.obj_type_friendly {x}}.",
    class = c("calm_error_argument", "calm_error")
  )
}

#' @export
as_amat.matrix <- function(x, weighted = TRUE, ...) {
  m <- check_numeric_matrix(x, "x", call = parent.frame(2))
  check_square(m, "x", call = parent.frame(2))
  m <- set_node_names(m)
  if (!weighted) m[] <- as.double(m != 0)
  m
}

#' @export
as_amat.data.frame <- function(x, weighted = TRUE, ...) {
  if (all(c("from", "to") %in% names(x))) return(edge_list_to_amat(x, weighted, ...))
  as_amat.matrix(check_numeric_matrix(x, "x"), weighted = weighted)
}

#' @export
as_amat.igraph <- function(x, weighted = TRUE, ...) {
  attr <- if (weighted && "weight" %in% igraph::edge_attr_names(x)) "weight" else NULL
  m <- igraph::as_adjacency_matrix(x, attr = attr, sparse = FALSE)
  storage.mode(m) <- "double"
  # a repeated edge counts twice in igraph's matrix; it is one edge here
  if (is.null(attr)) m[] <- as.double(m != 0)
  nm <- igraph::V(x)$name
  if (is.null(nm)) nm <- paste0("X", seq_len(igraph::vcount(x)))
  dimnames(m) <- list(nm, nm)
  m
}

#' @export
as_amat.calm_fit <- function(x, weighted = TRUE, graph = c("cpdag", "dag", "skeleton"), ...) {
  check_fit_object(x, "x", call = parent.frame(2))
  # `graph = NULL` (graph_arg()'s internal default): the DAG when there is one
  if (is.null(graph)) graph <- if (is.null(x[["dag"]])) "cpdag" else "dag"
  graph <- match_choice(graph, graph_types, "graph", parent.frame(2))
  # fit_graph() also refuses the DAG of a fit that has none
  if (graph != "dag" || is.null(x[["dag"]])) return(fit_graph(x, graph, call = parent.frame(2)))
  # the weights on the data's scale, as coef() gives them (the stored ones
  # when the data's variances are not known)
  w <- if (weighted) tryCatch(fit_weights(x, "refit", "data"), calm_error = function(e) x[["B"]])
  m <- if (weighted && !is.null(w)) w else x[["amat"]]
  if (!weighted) m[] <- as.double(m != 0)
  m
}

#' @export
as_amat.graphNEL <- function(x, weighted = TRUE, ...) {
  rlang_check_installed("graph")
  m <- methods::as(x, "matrix")
  storage.mode(m) <- "double"
  if (!weighted) m[] <- as.double(m != 0)
  set_node_names(m, graph::nodes(x))
}

#' @export
as_amat.bn <- function(x, weighted = TRUE, ...) {
  rlang_check_installed("bnlearn")
  m <- bnlearn::amat(x)
  storage.mode(m) <- "double"
  set_node_names(m)
}

#' @export
as_amat.pcAlgo <- function(x, weighted = TRUE, ...) {
  as_amat.graphNEL(x@graph, weighted = FALSE)
}

#' @export
as_amat.amat <- function(x, weighted = TRUE, ...) {
  pcalg_amat_arg(x, "x", call = parent.frame(2))
}

#' Convert a graph or fit to igraph
#'
#' Builds a directed [igraph][igraph::igraph] graph from an adjacency matrix
#' (entry `[i, j]` nonzero for `i -> j`) or from any object [as_amat()]
#' accepts. Nonzero entries that are not all 1 are kept as the edge attribute
#' `weight`. A pair of mutual edges `i -> j`, `j -> i` is how the package
#' encodes an undirected CPDAG edge; both get the edge attribute
#' `undirected = TRUE` (all other edges `FALSE`).
#'
#' @param x An adjacency matrix, graph or fit; see [as_amat()].
#' @param graph For a fit, which of its graphs: `"cpdag"` (default), `"dag"`
#'   (with the weights on the data's scale as edge attribute `weight`) or
#'   `"skeleton"`; see [as_amat()]. Ignored for other graphs.
#' @param ... Unused; an argument given here is an error naming it.
#' @return A directed igraph graph with vertex names.
#' @examples
#' B <- matrix(c(0, 0.8, 0, 0, 0, -1.2, 0, 0, 0), 3, byrow = TRUE,
#'             dimnames = list(c("A", "B", "C"), c("A", "B", "C")))
#' g <- as_igraph(B)
#' igraph::E(g)$weight
#' @export
as_igraph <- function(x, graph = c("cpdag", "dag", "skeleton"), ...) {
  check_dots_empty(..., fn = "as_igraph", call = environment())
  UseMethod("as_igraph")
}

#' @export
as_igraph.default <- function(x, graph = c("cpdag", "dag", "skeleton"), ...) {
  amat_to_igraph(as_amat(x, weighted = TRUE))
}

#' @export
as_igraph.igraph <- function(x, graph = c("cpdag", "dag", "skeleton"), ...) {
  x
}

#' @export
as_igraph.calm_fit <- function(x, graph = c("cpdag", "dag", "skeleton"), ...) {
  check_fit_object(x, "x")
  graph <- match_choice(graph, graph_types, "graph", environment())
  if (graph == "dag" && !is.null(x[["dag"]])) return(x[["dag"]])
  amat_to_igraph(fit_graph(x, graph))
}

# The (row, column) pairs of the nonzero entries of the matrix `m` off its
# diagonal (NA and NaN skipped), ordered by row and then column: in C++ for
# doubles, where which() and row()/col() make four d x d matrices (1.6 GB
# at 10,000 variables).
nonzero_pairs <- function(m) {
  if (is.double(m) && is.matrix(m)) return(cpp_nonzero_pairs(m))
  idx <- which(m != 0 & row(m) != col(m), arr.ind = TRUE)
  unname(idx[order(idx[, 1], idx[, 2]), , drop = FALSE])
}

# The one place an adjacency matrix becomes an igraph graph.
amat_to_igraph <- function(m) {
  nm <- node_names(m)
  idx <- nonzero_pairs(m)
  g <- igraph::make_empty_graph(n = nrow(m), directed = TRUE)
  g <- igraph::set_vertex_attr(g, "name", value = nm)
  if (nrow(idx) > 0L) {
    g <- igraph::add_edges(g, as.vector(t(idx)))
    w <- m[idx]
    if (any(w != 1)) g <- igraph::set_edge_attr(g, "weight", value = w)
    mutual <- m[idx[, c(2, 1), drop = FALSE]] != 0
    g <- igraph::set_edge_attr(g, "undirected", value = mutual)
  }
  g
}

#' Convert to and from pcalg's adjacency matrix
#'
#' pcalg stores a graph as a matrix `amat` with `amat[j, i] = 1` for the
#' edge `i -> j`: the transpose of this package's convention.
#' `as_pcalg_amat()` returns that transposed 0/1 matrix with class `amat`
#' (so pcalg's methods recognise it); `from_pcalg_amat()` goes back.
#'
#' DAG or CPDAG: for a fit, `as_pcalg_amat()` returns its **CPDAG** (the
#' Markov equivalence class, which is what the data identify); a matrix or
#' graph is converted as it is.
#'
#' @param x A graph or fit; see [as_amat()].
#' @param type The pcalg type to record: `"cpdag"` (also used for DAGs) or
#'   `"pag"`.
#' @param amat A pcalg adjacency matrix.
#' @return `as_pcalg_amat()`: a matrix of class `amat`. `from_pcalg_amat()`:
#'   a plain 0/1 matrix in this package's convention.
#' @examples
#' B <- matrix(c(0, 1, 0, 0), 2, dimnames = list(c("a", "b"), c("a", "b")))
#' a <- as_pcalg_amat(B)
#' a["b", "a"]  # pcalg: row is the child
#' identical(from_pcalg_amat(a), B)
#' @export
as_pcalg_amat <- function(x, type = c("cpdag", "pag")) {
  type <- match_choice(type, c("cpdag", "pag"), "type", environment())
  # a fit gives its CPDAG, the class its data identify
  m <- if (inherits(x, "calm_fit")) t(fit_cpdag(x)) else t(as_amat(x, weighted = FALSE))
  if (type == "pag") {
    # pcalg's PAG marks both ends: pag[a, b] is the mark at b (2 arrowhead,
    # 3 tail). a -> b is pag[a, b] = 2, pag[b, a] = 3; a - b is 3 at both.
    a <- t(m)
    directed <- a != 0 & t(a) == 0
    m[] <- 0
    m[directed] <- 2
    m[t(directed)] <- 3
    m[a != 0 & t(a) != 0] <- 3
  }
  structure(m, class = "amat", type = type)
}

#' @rdname as_pcalg_amat
#' @export
from_pcalg_amat <- function(amat) {
  pcalg_amat_arg(amat, "amat", call = environment())
}

pcalg_amat_arg <- function(amat, arg, call) {
  type <- attr(amat, "type")
  m <- unclass(amat)
  attr(m, "type") <- NULL
  m <- check_numeric_matrix(m, arg, call = call)
  check_square(m, arg, call = call)
  if (identical(type, "pag")) return(set_node_names(pag_to_amat(m, arg, call)))
  if (!all(m %in% c(0, 1))) {
    abort_arg(arg, "must hold only 0 and 1 (a DAG or CPDAG); marks 2 and 3 belong to a PAG (type {.val pag}).",
              call = call)
  }
  set_node_names(t(m))
}

# A PAG whose edges are all directed (arrowhead and tail) or undirected
# (two tails) is a DAG or CPDAG; circles and bidirected edges have no
# counterpart in this package's matrices.
pag_to_amat <- function(p, arg, call) {
  if (!all(p %in% c(0, 2, 3)) || any((p == 0) != (t(p) == 0)) || any(p == 2 & t(p) == 2)) {
    abort_arg(arg, "is a PAG with circle, bidirected or one-sided marks; only PAGs of directed and undirected edges convert.",
              call = call)
  }
  (p == 2 & t(p) == 3) + (p == 3 & t(p) == 3) + 0
}

#' Convert to graphNEL or bnlearn objects
#'
#' `as_graphNEL()` returns a directed `graphNEL` (package graph) with the
#' same edges, as used by pcalg; an undirected CPDAG edge becomes two
#' directed edges, which is also pcalg's encoding. `as_bn()` returns a bnlearn
#' network structure (`bn`), in which mutual edges become undirected arcs;
#' bnlearn needs a graph without self-loops or directed cycles and with
#' distinct node names, so anything else is an error.
#'
#' DAG or CPDAG: for a fit, both return its **CPDAG** by default (the
#' equivalence class the data support; undirected arcs in bnlearn), as
#' `print()` shows it; `graph = "dag"` gives the one member `fit$amat` holds,
#' which is what `bnlearn::bn.fit()` and pcalg's DAG functions need:
#' `bnlearn::bn.fit(as_bn(fit, graph = "dag"), x)` (bnlearn refuses to fit
#' a partially directed graph). Every DAG of the class has the same
#' likelihood, so which member does not matter for the fitted model.
#'
#' @param x A graph or fit; see [as_amat()].
#' @param graph For a fit, which of its graphs: `"cpdag"` (default), `"dag"`
#'   or `"skeleton"`; see [as_amat()]. For a partially directed graph given
#'   as it is, `as_bn(x, graph = "dag")` gives one DAG of its class (a
#'   consistent extension, which keeps its directed edges), or an error
#'   when it has none; otherwise ignored for other graphs.
#' @return A `graphNEL` or `bn` object.
#' @examplesIf requireNamespace("graph", quietly = TRUE)
#' B <- matrix(c(0, 1, 0, 0), 2, dimnames = list(c("a", "b"), c("a", "b")))
#' as_graphNEL(B)
#' @export
as_graphNEL <- function(x, graph = c("cpdag", "dag", "skeleton")) {
  rlang_check_installed("graph")
  m <- as_amat(x, weighted = FALSE, graph = graph)
  g <- methods::as(m, "graphNEL")
  # graph makes a symmetric matrix (an all-undirected CPDAG, or a graph with
  # no edges) an undirected graphNEL; keep the promised directed encoding.
  graph::edgemode(g) <- "directed"
  g
}

#' @rdname as_graphNEL
#' @examplesIf requireNamespace("bnlearn", quietly = TRUE)
#' as_bn(B)
#' # a CPDAG: one DAG of it, which bnlearn can fit
#' cp <- matrix(c(0, 1, 1, 0), 2, dimnames = list(c("a", "b"), c("a", "b")))
#' as_bn(cp, graph = "dag")
#' set.seed(1)
#' sem <- simulate_sem(4, k = 1, n = 200)
#' fit <- boss(sem$x)
#' bnlearn::bn.fit(as_bn(fit, graph = "dag"), as.data.frame(sem$x))
#' @export
as_bn <- function(x, graph = c("cpdag", "dag", "skeleton")) {
  rlang_check_installed("bnlearn")
  call <- environment()
  graph <- match_choice(graph, graph_types, "graph", call)
  m <- graph_arg(x, "x", call = call, graph = graph)
  m[] <- as.double(m != 0)
  if (graph == "dag" && !inherits(x, "calm_fit") && any(m != 0 & t(m) != 0)) {
    m <- dag_of_class(m, "x", call)
  }
  g <- bnlearn::empty.graph(rownames(m))
  # bnlearn refuses graphs with a directed cycle; say which argument it was.
  tryCatch(bnlearn::amat(g) <- m, error = function(e) {
    abort_arg("x", "cannot become a bnlearn network: {conditionMessage(e)}", call = call)
  })
  g
}

# One DAG of a partially directed graph's class: its consistent extension
# (the directed edges kept, no new v-structure), or an error naming `arg`.
dag_of_class <- function(m, arg, call) {
  ext <- cpp_pdag_extension(m)
  if (is.null(ext) || !cpp_is_dag(ext)) {
    abort_arg(arg, "has no DAG in its class (no consistent extension): it is not a valid CPDAG or PDAG.",
              call = call)
  }
  ext[] <- as.double(ext != 0)
  dimnames(ext) <- dimnames(m)
  ext
}

# rlang::check_installed() (which offers to install in an interactive
# session), with the package's error class on top of rlang's.
rlang_check_installed <- function(pkg) {
  tryCatch(rlang::check_installed(pkg), error = function(e) {
    cli::cli_abort("Package {.pkg {pkg}} is needed for this; install it first.", parent = e,
                   class = c("calm_error_dependency", "calm_error"), call = NULL)
  })
  invisible(TRUE)
}

# Graph argument of an exported function: any input as_amat() takes, checked
# and returned as a 0/1 (or weighted) matrix with node names. Self-loops are
# rejected. A fit gives the graph `graph` names; by default (NULL) its DAG,
# or its CPDAG when it has no DAG, which is what the functions that need one
# member (scores, likelihoods, simulation) read.
graph_arg <- function(x, arg, weighted = FALSE, loops = FALSE, call = parent.frame(),
                      graph = NULL) {
  m <- tryCatch(
    as_amat(x, weighted = weighted, graph = graph),
    calm_error_argument = function(e) {
      abort_arg(arg, conditionMessage(e) |> sub(pattern = "^`x` ", replacement = ""),
                call = call)
    }
  )
  if (nrow(m) == 0L) abort_arg(arg, "must have at least one node.", call = call)
  nm <- rownames(m)
  if (anyNA(nm) || any(nm == "")) {
    abort_arg(arg, "must have node names that are neither missing nor empty.", call = call)
  }
  if (anyDuplicated(nm)) {
    abort_arg(arg, "must have distinct node names; {.val {unique(nm[duplicated(nm)])}} {?is/are} repeated.",
              call = call)
  }
  if (!loops && any(diag(m) != 0)) abort_arg(arg, "must not have self-loops.", call = call)
  m
}

# Two graphs compared with each other must share their nodes.
check_same_nodes <- function(a, b, arg_a, arg_b, call = parent.frame(), by_position = FALSE) {
  if (nrow(a) != nrow(b)) {
    cli::cli_abort("{.arg {arg_a}} has {nrow(a)} node{?s} but {.arg {arg_b}} has {nrow(b)}.",
                   class = c("calm_error_argument", "calm_error"), call = call)
  }
  if (!identical(rownames(a), rownames(b))) {
    if (setequal(rownames(a), rownames(b))) {
      return(b[rownames(a), rownames(a), drop = FALSE])
    }
    # a side that came without node names is matched by position, as
    # pcalg::shd() does
    if (by_position) {
      dimnames(b) <- dimnames(a)
      return(b)
    }
    cli::cli_abort("{.arg {arg_a}} and {.arg {arg_b}} have different node names.",
                   class = c("calm_error_argument", "calm_error"), call = call)
  }
  b
}
