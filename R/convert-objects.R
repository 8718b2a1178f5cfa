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

# A graph argument of a metric, as a CPDAG matrix: a fit gives its own
# CPDAG (fit_cpdag(): `cpdag_amat`, which carries the orientations its
# background knowledge forces; an edited fit the CPDAG of its edited DAG),
# a DAG is converted to its CPDAG, and a graph with
# undirected (mutual) edges is taken as a CPDAG as it is. A graph whose
# orientations conflict (a directed cycle; a bidirected edge of pcalg's
# pc(), which arrives as a mutual pair) is compared as it is, pair by pair,
# as pcalg::shd() does, with a warning.
cpdag_arg <- function(g, arg, call = parent.frame(), targets = NULL) {
  # a fit's amat is a DAG unless the learner returns a CPDAG (no `dag`)
  dag_fit <- inherits(g, "calm_fit") && !is.null(g[["dag"]])
  if (dag_fit) {
    check_fit_object(g, arg, call = call)
    # an edited fit whose DAG has a cycle is compared as it is, below
    if (cpp_is_dag((g[["amat"]] != 0) * 1)) {
      if (is.null(targets)) return(fit_cpdag(g))
      return(class_cpdag(g[["amat"]], targets, g[["knowledge"]]))
    }
  }
  if (inherits(g, "calm_fit")) g <- check_fit_object(g, arg, call = call)[["amat"]]
  check_not_pag_codes(g, arg, call)
  # pcalg's CPDAG objects say what they are: one with every edge directed
  # (oriented by knowledge) must not be read as a DAG and unoriented again
  declared <- inherits(g, "EssGraph") || (inherits(g, "amat") && identical(attr(g, "type"), "cpdag"))
  bidirected <- pcalg_bidirected(g)
  m <- graph_arg(g, arg, call = call)
  m[] <- as.double(m != 0)
  mutual <- any(m * t(m) != 0)
  # the conflict is said by warn_conflict() once the graphs are known to
  # match, so that no warning comes before an error
  if (!cpp_is_dag(if (dag_fit) m else m * (1 - t(m)))) {
    return(structure(m, conflict = "has a directed cycle, so it is neither a DAG nor a CPDAG"))
  }
  if (bidirected > 0L) {
    attr(m, "conflict") <- sprintf("has %d bidirected edge%s (conflicting orientations)",
                                   bidirected, if (bidirected == 1L) "" else "s")
  }
  if (mutual || declared) return(m)
  if (!is.null(targets)) return(interventional_cpdag(m, targets))
  cp <- cpp_dag_to_cpdag(m)
  storage.mode(cp) <- "double"
  dimnames(cp) <- dimnames(m)
  cp
}

# pcalg's pc() marks the edges it oriented both ways (solve.confl = TRUE)
# with weight 2 in its graphNEL; as_amat() reads them as undirected edges.
pcalg_bidirected <- function(g) {
  if (!inherits(g, "pcAlgo")) return(0L)
  w <- tryCatch(as_amat.graphNEL(g@graph, weighted = TRUE), error = function(e) NULL)
  if (is.null(w)) return(0L)
  as.integer(sum(w == 2 & t(w) == 2) / 2)
}

# pcalg's matrix of edge marks of a PAG (fci()'s `@amat`: 1 circle,
# 2 arrowhead, 3 tail, every edge marked at both ends) given as a plain
# matrix would otherwise be read as a weighted graph.
check_not_pag_codes <- function(g, arg, call) {
  if (!is.matrix(g) || !is.numeric(g) || inherits(g, "amat") || anyNA(g)) return(invisible())
  if (all(g %in% 0:3) && any(g %in% 2:3) && all((g != 0) == (t(g) != 0))) {
    abort_arg(arg, "looks like a PAG's matrix of edge marks (pcalg's codes: 1 circle, 2 arrowhead, 3 tail), not a DAG or CPDAG.",
              i = "A PAG with every mark decided converts with {.code from_pcalg_amat(structure(m, class = \"amat\", type = \"pag\"))}; circle marks have no DAG or CPDAG reading.",
              call = call)
  }
  invisible()
}
