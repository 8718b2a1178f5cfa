# Edge lists: a fit or a bootstrap result as a data frame with one row per
# edge, the form dplyr, ggplot2 and spreadsheets work with.

#' A fit or a bootstrap as an edge list
#'
#' `as.data.frame()` of a fit (from [calm()], [boss()], [exact_search()],
#' [golem_nv()], [notears_linear()], [pc_pcalg()], [ges_pcalg()]) or of a
#' [bootstrap_edges()] result gives its edge list: one row per edge, ready
#' for dplyr, ggplot2 or `write.csv()`.
#'
#' **Which graph.** For a fit, `graph = "cpdag"` (the default, the graph
#' `print()` shows) lists its Markov equivalence class, the part of the
#' graph the data can tell apart, with the orientations background
#' knowledge forces: an edge whose direction the class leaves open is one
#' row, `directed = FALSE`, its two nodes in the order of the variables.
#' `graph = "dag"` lists the one member of the class the fit holds, every
#' edge directed, with its weight. A learner that returns only a CPDAG
#' ([pc_pcalg()], [ges_pcalg()]) has no `"dag"`. For a bootstrap the
#' default is `"cpdag"` too, as in [average_graph()] and bnlearn's
#' `boot.strength(cpdag = TRUE)`.
#'
#' **Weights.** `weight` is the fit's refitted weight of the edge on the
#' data's scale, as [coef.calm_fit()] gives it (least squares of each node
#' on its parents in the DAG). An undirected edge has no weight of its own (its
#' value depends on the direction chosen, and on the direction of the
#' other undirected edges at its ends), so its `weight` is `NA`; a directed
#' edge of the CPDAG keeps its weight in the learned DAG, which is one
#' member of the class. A fit without weights (PC, GES) has `NA` throughout.
#'
#' **Bootstraps.** The rows are the edges of the averaged graph at
#' `threshold` (see [average_graph()]; `threshold = 0` lists every pair seen
#' as an edge in at least one replicate), with `strength` (the share of
#' replicates with an edge between the two nodes) and `direction` (the
#' share of those in which it points `from -> to`; in the CPDAG an
#' undirected edge counts one half). A bootstrap keeps no weights, so it
#' has no `weight` column.
#'
#' [as_amat()] of the edge list gives the fit's adjacency matrix back (with
#' the node names as its `nodes` argument when a node has no edge).
#'
#' @param x A `calm_fit` or a `calm_bootstrap`.
#' @param row.names,optional Ignored; there for the generic.
#' @param ... Ignored when base R passes them on (`stringsAsFactors` and the like); any other argument is an error naming it.
#' @param graph `"cpdag"` (default) or `"dag"` (see Details).
#' @param threshold For a bootstrap: the strength at or above which a pair
#'   is listed (default the one stored in `x`).
#' @return A data frame with columns `from`, `to` (character), `directed`
#'   (logical) and, for a fit, `weight` (numeric); for a bootstrap,
#'   `strength` and `direction` (numeric). Rows are in the order of the
#'   variables (`from`, then `to`); the nodes are in attribute `nodes`.
#' @seealso [as_amat()], which turns an edge list back into a matrix.
#' @examples
#' set.seed(1)
#' sem <- simulate_sem(5, k = 1, n = 500)
#' fit <- boss(sem$x)
#' as.data.frame(fit)                  # its equivalence class (CPDAG)
#' as.data.frame(fit, graph = "dag")   # one DAG of it, with its weights
#' # back to the adjacency matrix
#' all(as_amat(as.data.frame(fit), weighted = FALSE) == as_amat(fit))
#'
#' bs <- bootstrap_edges(sem$x, R = 5, learner = boss)
#' as.data.frame(bs)
#' @name as.data.frame.calm_fit
#' @order 1
#' @export
as.data.frame.calm_fit <- function(x, row.names = NULL, optional = FALSE, ...,
                                   graph = c("cpdag", "dag")) {
  check_frame_dots(list(...), "as.data.frame.calm_fit", environment())
  graph <- match_choice(graph, c("cpdag", "dag"), "graph", environment())
  check_fit_object(x, "x")
  m <- fit_graph(x, graph)
  e <- edge_rows(m != 0)
  # on the data's scale, as coef() gives them
  B <- if (is.null(x[["B"]])) NULL else fit_weights(x, "refit", "data", call = environment())
  e$weight <- if (is.null(B)) rep(NA_real_, nrow(e)) else
    ifelse(e$directed, B[cbind(e$from, e$to)], NA_real_)
  attr(e, "nodes") <- rownames(m)
  e
}

# The `...` of the as.data.frame() methods: what base R's data.frame()
# and as.data.frame() may pass on (and these methods ignore), else an
# error naming the argument (a misspelt `graph`, say).
check_frame_dots <- function(dots, fn, call) {
  base_args <- function(stringsAsFactors, cut.names, col.names, fix.empty.names, check.names,
                        make.names, nm) NULL
  check_dots_for(dots, base_args, fn, call)
}

# The edges of a logical adjacency matrix with node names: `i -> j` when
# only [i, j] is set, one undirected row (i before j) when both are.
edge_rows <- function(m) {
  nm <- rownames(m)
  keep <- m & (!t(m) | upper.tri(m))
  idx <- which(keep, arr.ind = TRUE)
  idx <- idx[order(idx[, 1], idx[, 2]), , drop = FALSE]
  data.frame(from = nm[idx[, 1]], to = nm[idx[, 2]],
             directed = !t(m)[idx], stringsAsFactors = FALSE)
}

# An edge list (columns `from`, `to`, optionally `directed`, `weight`) as an
# adjacency matrix; an undirected row sets both entries, an NA weight is 1.
edge_list_to_amat <- function(x, weighted = TRUE, nodes = attr(x, "nodes"), ...) {
  from <- as.character(x[["from"]])
  to <- as.character(x[["to"]])
  if (is.null(nodes)) nodes <- unique(c(from, to))
  nodes <- as.character(nodes)
  unknown <- setdiff(c(from, to), nodes)
  if (length(unknown)) {
    abort_arg("x", "names nodes that are not in {.arg nodes}: {.val {unknown}}.",
              call = parent.frame(2))
  }
  w <- if (weighted && "weight" %in% names(x)) as.double(x[["weight"]]) else rep(1, length(from))
  w[is.na(w)] <- 1
  directed <- if ("directed" %in% names(x)) as.logical(x[["directed"]]) else rep(TRUE, length(from))
  d <- length(nodes)
  m <- matrix(0, d, d, dimnames = list(nodes, nodes))
  m[cbind(from, to)] <- w
  und <- !is.na(directed) & !directed
  m[cbind(to[und], from[und])] <- w[und]
  m
}
