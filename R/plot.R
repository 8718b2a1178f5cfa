# Plots of learned graphs and of the optimizer's progress, in base graphics
# through igraph's plot method (no ggplot2 dependency).

# Colour-blind-safe (Okabe-Ito) colours, one per comparison outcome; a
# reversed and a misoriented edge are one kind of error for the eye, so they
# share a colour.
status_colours <- c(correct = "#0072B2", reversed = "#E69F00",
                    misoriented = "#E69F00", extra = "#CC79A7",
                    missing = "grey50")
status_labels <- c(correct = "correct", reversed = "wrong orientation",
                   extra = "extra (not in truth)", missing = "missing (in truth only)")
status_levels <- c("correct", "reversed", "misoriented", "extra", "missing")

# Mark of the pair (i, j) in a 0/1 CPDAG-style matrix, read from i to j.
pair_mark <- function(m, i, j) {
  a <- m[cbind(i, j)] != 0
  b <- m[cbind(j, i)] != 0
  ifelse(a & b, "--", ifelse(a, "->", ifelse(b, "<-", "")))
}

# One row per unordered pair adjacent in `est` or `truth` (matrices with the
# same node order). A pair is "correct" when both graphs have exactly the
# same edge on it, so the rows that are not correct are the pairs counted by
# the SHD between the two graphs.
edge_status <- function(est, truth) {
  nm <- rownames(truth)
  adj <- (est + t(est) + truth + t(truth)) != 0
  idx <- which(adj & upper.tri(adj), arr.ind = TRUE)
  idx <- idx[order(idx[, 1], idx[, 2]), , drop = FALSE]
  i <- idx[, 1]
  j <- idx[, 2]
  e <- pair_mark(est, i, j)
  tr <- pair_mark(truth, i, j)
  status <- ifelse(tr == "", "extra",
            ifelse(e == "", "missing",
            ifelse(e == tr, "correct",
            ifelse(e != "--" & tr != "--", "reversed", "misoriented"))))
  # Write each row in the direction of the estimate's arrow (or, failing that,
  # the truth's), so that "->" is the usual mark.
  flip <- e == "<-" | (e %in% c("--", "") & tr == "<-")
  from <- ifelse(flip, j, i)
  to <- ifelse(flip, i, j)
  swap_mark <- function(x) ifelse(x == "->", "<-", ifelse(x == "<-", "->", x))
  e[flip] <- swap_mark(e[flip])
  tr[flip] <- swap_mark(tr[flip])
  data.frame(from = nm[from], to = nm[to], est = e, truth = tr,
             status = factor(status, levels = status_levels),
             stringsAsFactors = FALSE)
}

# A comparison argument: a CPDAG matrix (compare = "cpdag", via the metrics'
# own conversion) or the graph as given (compare = "dag").
comparison_arg <- function(g, arg, compare, call) {
  if (compare == "cpdag") return(cpdag_arg(g, arg, call = call))
  m <- graph_arg(g, arg, call = call)
  m[] <- as.double(m != 0)
  m
}

# Node coordinates: a user matrix, a user igraph layout function, or a
# deterministic default: a layered (Sugiyama) layout of `directed` with
# isolated nodes aside when it is given (see dag_layout()), otherwise a
# force-directed layout of the skeleton.
resolve_layout <- function(layout, skeleton, call, directed = NULL) {
  d <- igraph::vcount(skeleton)
  if (is.null(layout)) {
    if (!is.null(directed)) return(dag_layout(directed))
    return(default_layout(skeleton))
  }
  if (is.function(layout)) {
    layout <- layout(skeleton)
  }
  if (!is.matrix(layout) || !is.numeric(layout) || nrow(layout) != d || ncol(layout) < 2L ||
      !all(is.finite(layout[, 1:2]))) {
    abort_arg("layout", "must be NULL, an igraph layout function, or a numeric matrix with one row per node ({d}) and 2 columns.",
              call = call)
  }
  layout[, 1:2, drop = FALSE]
}

# Kamada-Kawai started from a circle is deterministic, so the same graph
# always gets the same picture and the user's random stream is not touched.
default_layout <- function(skeleton) {
  d <- igraph::vcount(skeleton)
  if (d <= 2L || igraph::ecount(skeleton) == 0L) return(igraph::layout_in_circle(skeleton))
  igraph::layout_with_kk(skeleton, coords = igraph::layout_in_circle(skeleton))
}

# Width over height of the plot region a single-panel plot is about to
# draw in (par("pin") after its margins are set; 1 when unknown).
plot_aspect <- function() {
  pin <- graphics::par("pin")
  if (all(is.finite(pin)) && all(pin > 0)) pin[1] / pin[2] else 1
}

# Draw a graph given as one row per edge (from, to as vertex indices, mark
# "->" or "--") with per-edge colour and line type. Each edge is bent just
# enough to clear the other nodes (route_edges()). `aspect`: the plot
# region's width over its height (plot_aspect()), which the drawing fills.
# Returns, invisibly, the geometry drawn: plot coordinates `xy`, node
# radius `r`, per-edge `curved`.
draw_edges <- function(nodes, from, to, mark, colour, lty, layout, main = NULL,
                       arrow_size = NULL, aspect = 1, ...) {
  d <- length(nodes)
  g <- igraph::make_empty_graph(n = d, directed = TRUE)
  g <- igraph::set_vertex_attr(g, "name", value = nodes)
  if (length(from) > 0L) g <- igraph::add_edges(g, as.vector(rbind(from, to)))
  user <- list(...)
  attr(layout, "aspect") <- aspect
  vs <- edge_drawing(layout, from, to, nodes, size = user[["vertex.size"]])
  if (is.null(arrow_size)) arrow_size <- if (d > 25) 0.35 else 0.5
  size <- vs[["size"]]
  curved <- user[["edge.curved"]] %||% vs[["curved"]]
  frame <- plot_frame(layout)
  args <- list(
    g, layout = plot_coords(layout), rescale = FALSE, asp = 1,
    xlim = c(-1, 1) * frame[1], ylim = c(-1, 1) * frame[2],
    vertex.size = vs[["size"]], vertex.color = "white", vertex.frame.color = "grey30",
    vertex.label = nodes, vertex.label.cex = vs[["cex"]], vertex.label.color = "black",
    vertex.label.family = "sans",
    edge.color = colour, edge.lty = lty,
    edge.arrow.mode = ifelse(mark == "->", 2, 0),
    edge.arrow.size = arrow_size, edge.width = 2, edge.curved = curved,
    main = main, margin = 0.02
  )
  args[names(user)] <- user
  do.call(plot, args)
  invisible(list(xy = plot_coords(layout), r = size / 200, curved = rep_len(curved, length(from))))
}

#' Plot a learned graph against the truth
#'
#' Draws the estimated graph with each edge coloured by how it compares with
#' the true graph: **correct** (the same edge, with the same orientation or
#' lack of one), **wrong orientation** (reversed, or directed in one graph and
#' undirected in the other), **extra** (absent from the truth), and
#' **missing** (in the truth only; drawn dashed with the truth's orientation).
#' By default both graphs are compared as CPDAGs ([dag_to_cpdag()]), the way
#' [shd_cpdag()] compares them, so the edges that are not "correct" are
#' exactly the pairs that SHD of CPDAG counts.
#'
#' @param est,truth Graphs: DAGs or CPDAGs as adjacency matrices or igraph
#'   graphs (a graph with a mutual pair of edges is taken to be a CPDAG), or
#'   fits; see [as_amat()]. They must have the same nodes.
#' @param layout `NULL` (a deterministic layered layout (igraph's Sugiyama
#'   layout) in which the truth's edges point down, and an extra edge as the
#'   estimate has it, with the nodes that have no edge in either graph set
#'   aside in a column on the right, so that the picture of a graph does not
#'   change between calls; an edge that would pass over another node is
#'   bent around it), an igraph layout function such as [igraph::layout_in_circle], or
#'   a numeric matrix of coordinates with one row per node, in the node order
#'   of `truth`.
#' @param compare `"cpdag"` (default): compare the Markov equivalence
#'   classes. `"dag"`: compare the graphs as given (a fit's DAG), which
#'   counts orientations that data cannot decide.
#' @param side_by_side If `TRUE` (default `FALSE`), draw the truth (left, with the edges the
#'   estimate misses dashed) and the coloured estimate (right) in two panels
#'   with the same layout, instead of one panel with the missing edges added
#'   to the estimate.
#' @param legend Draw a legend below the graph (default `TRUE`).
#' @param main Title of the (right-hand) panel; by default it gives the
#'   number of differing pairs (the SHD).
#' @param ... Further arguments to igraph's plot method
#'   ([igraph::plot.igraph()]), such as `vertex.size` or `vertex.color`.
#' @return Invisibly, a data frame with one row per pair of nodes adjacent in
#'   either graph: `from`, `to` (written in the direction of the estimated
#'   edge, or the true one), `est` and `truth` (the edge between them in each
#'   graph read from `from` to `to`: `"->"`, `"<-"`, `"--"`, or `""` for
#'   none) and `status`, a factor with levels `"correct"`, `"reversed"`
#'   (directed both times, opposite ways), `"misoriented"` (directed in one,
#'   undirected in the other), `"extra"` and `"missing"`.
#' @seealso [shd_cpdag()], [plot.calm_fit()]
#' @examples
#' truth <- igraph::graph_from_literal(A -+ C, B -+ C, C -+ D, D -+ E)
#' est <- igraph::graph_from_literal(A -+ C, B -+ C, C -+ D, B -+ E)
#' status <- plot_comparison(est, truth)
#' status
#' plot_comparison(est, truth, side_by_side = TRUE)
#' table(status$status)
#' @export
plot_comparison <- function(est, truth, layout = NULL, compare = c("cpdag", "dag"),
                            side_by_side = FALSE, legend = TRUE, main = NULL, ...) {
  compare <- match_choice(compare, c("cpdag", "dag"), "compare", environment())
  check_flag(side_by_side, "side_by_side")
  check_flag(legend, "legend")
  env <- environment()
  tru <- comparison_arg(truth, "truth", compare, env)
  e <- comparison_arg(est, "est", compare, env)
  conflict <- attr(e, "conflict")
  e <- check_same_nodes(tru, e, "truth", "est", call = env, by_position = by_position(est, truth))
  warn_conflict(structure(e, conflict = conflict), "est")
  warn_conflict(tru, "truth")
  nodes <- rownames(tru)
  status <- edge_status(e, tru)

  skeleton <- igraph::graph_from_adjacency_matrix(
    ((e + t(e) + tru + t(tru)) != 0) * 1, mode = "undirected"
  )
  # layers follow the truth; an extra edge adds its estimated direction
  extra <- e * ((tru + t(tru)) == 0)
  xy <- resolve_layout(layout, skeleton, env,
                       directed = igraph::graph_from_adjacency_matrix(((tru + extra) != 0) * 1))

  idx <- match(status[["from"]], nodes)
  jdx <- match(status[["to"]], nodes)
  kind <- as.character(status[["status"]])
  # Side by side, a missing edge is drawn in the truth panel only.
  shown <- if (side_by_side) kind != "missing" else rep(TRUE, length(kind))
  # The mark to draw: the estimate's edge, or the truth's for a missing one.
  mark <- ifelse(kind == "missing", status[["truth"]], status[["est"]])

  if (is.null(main)) {
    main <- sprintf("%s vs truth: %d of %d pairs differ",
                    if (compare == "cpdag") "CPDAG" else "graph",
                    sum(kind != "correct"), nrow(status))
  }

  old <- graphics::par(no.readonly = TRUE)
  on.exit(graphics::par(old), add = TRUE)
  # The legend gets a strip of its own below the graph, so it can never hide
  # a node or an edge.
  panels <- if (side_by_side) matrix(1:2, 1) else matrix(1)
  if (legend) {
    panels <- rbind(panels, max(panels) + 1L)
    graphics::layout(panels, heights = c(1, graphics::lcm(1.6)))
  } else {
    graphics::layout(panels)
  }
  graphics::par(mar = c(0.3, 0.3, 2, 0.3))

  if (side_by_side) {
    # The truth panel shows what the estimate lacks: missing edges dashed.
    tt <- status[status[["truth"]] != "", , drop = FALSE]
    lost <- tt[["status"]] == "missing"
    draw_edges(nodes, match(tt[["from"]], nodes), match(tt[["to"]], nodes),
               ifelse(tt[["truth"]] == "--", "--", "->"),
               colour = ifelse(lost, status_colours[["missing"]], "grey15"),
               lty = ifelse(lost, 2, 1), layout = xy, main = "truth", ...)
  }
  draw_edges(nodes, idx[shown], jdx[shown], mark[shown],
             colour = unname(status_colours[kind[shown]]),
             lty = ifelse(kind[shown] == "missing", 2, 1),
             layout = xy, main = main, ...)
  if (legend) {
    keys <- c("correct", "reversed", "extra", "missing")
    counts <- c(correct = sum(kind == "correct"),
                reversed = sum(kind %in% c("reversed", "misoriented")),
                extra = sum(kind == "extra"), missing = sum(kind == "missing"))
    draw_status_legend(keys, counts)
  }
  invisible(status)
}

# Legend on an empty panel: one row when it fits the width, two otherwise.
draw_status_legend <- function(keys, counts) {
  labels <- paste0(status_labels[keys], " (", counts[keys], ")")
  graphics::par(mar = c(0, 0, 0, 0))
  graphics::plot.new()
  cex <- 0.85
  width <- sum(graphics::strwidth(labels, cex = cex)) +
    length(labels) * 4 * graphics::strwidth("M", cex = cex)
  ncol <- if (width < 0.95) length(labels) else ceiling(length(labels) / 2)
  graphics::legend(
    "center", legend = labels, col = unname(status_colours[keys]),
    lty = ifelse(keys == "missing", 2, 1), lwd = 2.5, ncol = ncol,
    bty = "n", cex = cex, seg.len = 2.5, x.intersp = 0.6
  )
}

#' Plot the optimizer trace of a fit
#'
#' Shows how the acyclicity violation `h` (log scale) and the objective
#' change over the rounds of the penalty schedule: one point per round, the
#' value at the end of that round. When the fit records the tolerance
#' `h_tol`, it is drawn as a dashed line; `h` must fall below it for the
#' schedule to stop. For a fit split by the components of the moral graph
#' (see [calm_control()], `split_components`), each component has its own
#' schedule and is drawn as a line of its own colour.
#'
#' @param fit A fit with a trace: a `calm_fit` whose `trace` is a data frame
#'   with columns `round`, `h` and `objective` (as returned by [calm()]), or
#'   such a data frame.
#' @param ... Further graphical parameters passed to [graphics::plot()] for
#'   both panels (for example `pch` or `col`).
#' @return `fit`, invisibly.
#' @seealso [plot.calm_fit()]
#' @examples
#' tr <- data.frame(round = 1:5, rho = 1e-5 * 3^(0:4),
#'                  h = c(0.4, 0.05, 3e-3, 1e-6, 1e-10),
#'                  objective = c(5.1, 4.6, 4.5, 4.48, 4.47),
#'                  edges = c(14, 11, 10, 10, 10), seconds = 1:5)
#' plot_trace(tr)
#' @export
plot_trace <- function(fit, ...) {
  tr <- trace_arg(fit, environment())
  h_tol <- if (inherits(fit, "calm_fit")) find_h_tol(fit[["settings"]]) else NULL

  old <- graphics::par(no.readonly = TRUE)
  on.exit(graphics::par(old), add = TRUE)
  graphics::par(mfrow = c(1, 2), mar = c(4.2, 4.2, 2.5, 1))

  # h is exactly 0 once the graph is acyclic; a log axis cannot show 0, so
  # such rounds are drawn at the axis floor with an open symbol.
  h <- tr[["h"]]
  pos <- h[is.finite(h) & h > 0]
  floor_h <- if (length(pos)) min(c(pos, h_tol)) / 10 else 1e-12
  zero <- !(h > 0)
  h_plot <- ifelse(zero, floor_h, h)
  ylim <- range(c(h_plot, h_tol), finite = TRUE)
  base <- list(type = "b", pch = 19, xlab = "round")
  user <- list(...)
  # a fit split by components: one line per component
  comp <- if (is.null(tr[["component"]])) rep(1L, nrow(tr)) else tr[["component"]]
  groups <- split(seq_len(nrow(tr)), factor(comp, levels = unique(comp)))
  several <- length(groups) > 1L
  if (several) base$type <- "n"
  cols <- if (several) grDevices::hcl.colors(length(groups), "Dark 3") else NULL
  draw_groups <- function(y) {
    if (!several) return(invisible())
    for (g in seq_along(groups)) {
      i <- groups[[g]]
      graphics::lines(tr[["round"]][i], y[i], type = "b", pch = 19, col = cols[g])
    }
  }
  hargs <- utils::modifyList(c(list(tr[["round"]], h_plot, log = "y", ylim = ylim,
                                    ylab = "h (acyclicity)", main = "acyclicity"), base), user)
  do.call(graphics::plot, hargs)
  draw_groups(h_plot)
  if (any(zero)) graphics::points(tr[["round"]][zero], h_plot[zero], pch = 1, cex = 1.6)
  if (!is.null(h_tol)) graphics::abline(h = h_tol, lty = 2, col = "grey40")

  oargs <- utils::modifyList(c(list(tr[["round"]], tr[["objective"]], ylab = "objective",
                                    main = if (several) "objective (per component)" else "objective"),
                               base), user)
  do.call(graphics::plot, oargs)
  draw_groups(tr[["objective"]])
  invisible(fit)
}

trace_arg <- function(fit, call) {
  tr <- if (inherits(fit, "calm_fit")) fit[["trace"]] else fit
  if (is.null(tr) && inherits(fit, "calm_fit")) {
    abort_arg("fit", "has no optimizer trace (method {.val {fit[['method']]}}).", call = call)
  }
  if (!is.data.frame(tr)) {
    abort_arg("fit", "must be a fit with a trace or a trace data frame, not {.obj_type_friendly {fit}}.",
              call = call)
  }
  need <- c("round", "h", "objective")
  miss <- setdiff(need, names(tr))
  if (length(miss)) {
    abort_arg("fit", "has a trace without column{?s} {.val {miss}}.", call = call)
  }
  if (nrow(tr) == 0L) abort_arg("fit", "has an empty trace.", call = call)
  for (col in need) {
    v <- tr[[col]]
    if (!is.numeric(v) || !any(is.finite(v))) {
      abort_arg("fit", "has a trace whose column {.val {col}} has no finite numbers.", call = call)
    }
  }
  tr
}

# h_tol lives in the settings a learner stores, possibly inside its control
# list.
find_h_tol <- function(settings) {
  for (s in list(settings[["h_tol"]], settings[["control"]][["h_tol"]])) {
    if (is.numeric(s) && length(s) == 1L && is.finite(s) && s > 0) return(s)
  }
  NULL
}

# The title of plot.calm_fit(): what is drawn, by which learner, how many
# edges.
graph_title <- function(x, cpdag) {
  show_cpdag <- cpdag || is.null(x[["dag"]])
  m <- fit_graph(x, if (show_cpdag) "cpdag" else "dag")
  sprintf("%s (%s): %d edges", if (show_cpdag) "CPDAG" else "one DAG of the class", x[["method"]],
          as.integer(sum(m[upper.tri(m)] | t(m)[upper.tri(m)])))
}

#' Plot a fit
#'
#' `type = "graph"` draws the learned graph: on its own, or compared with
#' `truth` by [plot_comparison()]. `type = "trace"` draws the optimizer's
#' progress by [plot_trace()].
#'
#' @param x A fit returned by [calm()] or another learner of the package.
#' @param truth Optional true graph (see [as_amat()]); with it the plot
#'   colours each edge by its comparison with the truth.
#' @param type `"graph"` or `"trace"`.
#' @param cpdag Without `truth`: draw the fit's CPDAG (default `TRUE`: its
#'   Markov equivalence class, as `print()` shows it, with the orientations
#'   background knowledge forces). `FALSE` draws one DAG of the class,
#'   `fit$amat`, whose directions on the CPDAG's undirected edges the data
#'   do not decide; the title says which is drawn. A fit that only has a
#'   CPDAG (PC, GES) always shows it.
#' @param layout Node coordinates; see [plot_comparison()].
#' @param ... Passed to [plot_comparison()], [plot_trace()] or igraph's plot
#'   method.
#' @return With `truth`, the edge-status data frame of [plot_comparison()];
#'   otherwise `x`; invisibly.
#' @examples
#' set.seed(2)
#' sem <- simulate_sem(6, k = 1, n = 500)
#' fit <- fit_sem(sem$B, sem$x)   # the true graph's SEM, fitted to the data
#' plot(fit)                      # the CPDAG
#' plot(fit, cpdag = FALSE)       # one DAG of the class
#' plot(fit, truth = sem$dag)
#' @export
plot.calm_fit <- function(x, truth = NULL, type = c("graph", "trace"), cpdag = TRUE,
                          layout = NULL, ...) {
  type <- match_choice(type, c("graph", "trace"), "type", environment())
  check_flag(cpdag, "cpdag")
  if (type == "trace") {
    plot_trace(x, ...)
    return(invisible(x))
  }
  if (!is.null(truth)) {
    return(plot_comparison(x, truth, layout = layout, ...))
  }
  m <- as_amat(x, weighted = FALSE, graph = if (cpdag || is.null(x[["dag"]])) "cpdag" else "dag")
  nodes <- rownames(m)
  env <- environment()
  skeleton <- igraph::graph_from_adjacency_matrix(((m + t(m)) != 0) * 1, mode = "undirected")
  xy <- resolve_layout(layout, skeleton, env,
                       directed = igraph::graph_from_adjacency_matrix((m != 0) * 1))
  idx <- which((m != 0 & t(m) == 0) | (m != 0 & upper.tri(m)), arr.ind = TRUE)
  mark <- ifelse(t(m)[idx] != 0, "--", "->")
  old <- graphics::par(no.readonly = TRUE)
  on.exit(graphics::par(old), add = TRUE)
  graphics::par(mar = c(0.5, 0.5, 2, 0.5))
  draw_edges(nodes, idx[, 1], idx[, 2], mark, colour = "grey20", lty = 1, layout = xy,
             aspect = plot_aspect(),
             main = graph_title(x, cpdag), ...)
  invisible(x)
}
