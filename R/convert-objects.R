# More of the graph objects users already have, for as_amat() and so for
# every function that takes a graph: pcalg's EssGraph, gAlgo/fciAlgo and
# ges() results, bnlearn's bn.fit, Matrix's sparse matrices; and pcalg's
# EssGraph as an output.

#' @export
as_amat.EssGraph <- function(x, weighted = TRUE, ...) {
  nm <- x$.nodes
  d <- length(nm)
  m <- matrix(0, d, d, dimnames = list(nm, nm))
  parents <- x$.in.edges
  for (j in seq_len(d)) m[parents[[j]], j] <- 1
  m
}

#' @export
as_amat.gAlgo <- function(x, weighted = TRUE, ...) {
  # pcAlgo (PC) is a gAlgo with a graphNEL; fciAlgo has its own method
  as_amat.graphNEL(x@graph, weighted = FALSE)
}

#' @export
as_amat.fciAlgo <- function(x, weighted = TRUE, ...) {
  # pcalg's PAG codes: amat[a, b] is the mark at b on the edge a - b
  # (0 none, 1 circle, 2 arrowhead, 3 tail)
  a <- x@amat
  nm <- colnames(a)
  if (is.null(nm)) nm <- paste0("X", seq_len(ncol(a)))
  circle <- sum(a == 1)
  bidirected <- sum(a == 2 & t(a) == 2) / 2
  if (circle > 0 || bidirected > 0) {
    cli::cli_abort(c(
      "{.arg x} is a PAG from FCI with {circle} circle mark{?s} and {bidirected} bidirected edge{?s}; such marks have no reading as a DAG or CPDAG.",
      i = "Only a PAG whose marks are all tails and arrowheads (no latent confounding, every mark decided) can be converted."
    ), class = c("calm_error_argument", "calm_error"))
  }
  m <- matrix(0, ncol(a), ncol(a), dimnames = list(nm, nm))
  m[a == 2 & t(a) == 3] <- 1          # a -> b: arrowhead at b, tail at a
  m[a == 3 & t(a) == 3] <- 1          # a - b: tails at both ends
  m
}

#' @export
as_amat.bn.fit <- function(x, weighted = TRUE, ...) {
  rlang_check_installed("bnlearn")
  m <- as_amat.bn(bnlearn::bn.net(x))
  if (weighted && inherits(x, "bn.fit.gnet")) {
    for (node in names(x)) {
      cf <- stats::coef(x[[node]])
      pa <- setdiff(names(cf), "(Intercept)")
      if (length(pa)) m[pa, node] <- cf[pa]
    }
  }
  m
}

#' @export
as_amat.Matrix <- function(x, weighted = TRUE, ...) {
  as_amat.matrix(as.matrix(x), weighted = weighted)
}

# pcalg::ges() and pcalg::gies() return a list with the EssGraph and a
# representative DAG; take the equivalence class.
as_amat_pcalg_list <- function(x) {
  is.list(x) && !is.null(x$essgraph) && inherits(x$essgraph, "EssGraph")
}

#' pcalg's `EssGraph` of a graph or fit
#'
#' Returns the equivalence class of a DAG, or a CPDAG as it is, as pcalg's
#' `EssGraph` reference object, as `pcalg::ges()` returns in `$essgraph`.
#' DAG or CPDAG: for a fit, the result is its **CPDAG** (`fit$cpdag_amat`).
#'
#' @param x A graph or fit; see [as_amat()]. A DAG is turned into its CPDAG.
#' @return A `pcalg::EssGraph`.
#' @examplesIf requireNamespace("pcalg", quietly = TRUE)
#' set.seed(1)
#' sem <- simulate_sem(5, k = 1)
#' eg <- as_essgraph(sem$B)
#' eg$.in.edges
#' @export
as_essgraph <- function(x) {
  rlang_check_installed("pcalg")
  cp <- cpdag_arg(x, "x", call = environment())
  if (!is.null(attr(cp, "conflict"))) {
    abort_arg("x", "{attr(cp, 'conflict')}; an essential graph needs a DAG or CPDAG.",
              call = environment())
  }
  nm <- rownames(cp)
  in_edges <- lapply(seq_len(ncol(cp)), function(j) which(cp[, j] != 0))
  names(in_edges) <- nm
  methods::new("EssGraph", nodes = nm, in.edges = in_edges)
}

#' @export
as_amat.list <- function(x, weighted = TRUE, ...) {
  if (as_amat_pcalg_list(x)) return(as_amat.EssGraph(x$essgraph))
  as_amat.default(x)
}

# Did the graph come with node names? Matrices and igraph graphs may come
# without; every other graph object names its nodes.
has_node_names <- function(x) {
  if (is.matrix(x) || is.data.frame(x) || methods::is(x, "Matrix")) {
    return(!is.null(colnames(x)) || !is.null(rownames(x)))
  }
  if (inherits(x, "igraph")) return(!is.null(igraph::V(x)$name))
  TRUE
}

# Compare by position when one of two graphs has no node names.
by_position <- function(x, y) !has_node_names(x) || !has_node_names(y)
