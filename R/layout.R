# A layered (Sugiyama) layout for directed graphs, with isolated nodes in a
# column of their own to the right, so that a sparse graph of many nodes
# keeps its edges readable.

# `g`: a directed igraph graph (mutual edges are fine; the layering breaks
# the cycles they make). Deterministic: the same graph gets the same picture.
dag_layout <- function(g) {
  d <- igraph::vcount(g)
  xy <- matrix(0, d, 2)
  iso <- igraph::degree(g) == 0
  if (d == 0L) return(xy)
  if (all(iso)) return(igraph::layout_in_circle(g))
  connected <- which(!iso)
  sub <- igraph::induced_subgraph(g, connected)
  lay <- igraph::layout_with_sugiyama(sub)$layout
  lay <- lay[seq_along(connected), 1:2, drop = FALSE]
  lay <- spread_layers(lay, d)
  xy[connected, ] <- lay
  if (any(iso)) {
    k <- sum(iso)
    x_aside <- max(lay[, 1]) + 1
    span <- range(lay[, 2])
    if (diff(span) == 0) span <- span + c(-1, 1)
    xy[iso, 1] <- x_aside
    xy[iso, 2] <- if (k == 1L) mean(span) else seq(span[2], span[1], length.out = k)
  }
  xy
}

# Nodes of each layer spread evenly over one common width, in the order the
# layered layout gave them, so that they never overlap and the widest layer
# sets the scale; a layer of more than `cap` nodes (about 2 sqrt(d)) is
# wrapped into staggered rows just below it (within 0.6 of the spacing of
# the layers, so parents stay above their children).
spread_layers <- function(lay, d) {
  cap <- max(6L, ceiling(2 * sqrt(d)))
  layers <- sort(unique(lay[, 2]))
  width <- min(cap, max(table(lay[, 2])))
  out <- lay
  for (y in layers) {
    k <- which(lay[, 2] == y)
    k <- k[order(lay[k, 1])]
    rows <- ceiling(length(k) / cap)
    chunk <- split(k, rep(seq_len(rows), each = cap, length.out = length(k)))
    for (r in seq_along(chunk)) {
      kk <- chunk[[r]]
      step <- width / length(kk)
      shift <- if (r %% 2 == 0) step / 2 else 0
      out[kk, 1] <- (seq_along(kk) - 0.5) * step + shift
      out[kk, 2] <- y - (r - 1) * 0.6 / rows
    }
  }
  out
}

# Routing of drawn edges: an edge drawn straight from one node to another
# can pass over a third node and read as two edges (on `sachs`, pka -> erk
# over pip2). Each edge gets the smallest bend (igraph's `edge.curved`) that
# keeps it clear of every other node.

# igraph draws a bent edge as an X-spline (shape 1) through the two clipped
# ends and a control point `curved / 2` chord lengths off the middle; the
# curve is affine in its control points, so it is the chord plus `bulge(u)`
# times that offset. The polynomial reproduces grDevices::xspline() to 0.3%
# of the offset (fitted once to its output).
xspline_bulge <- function(u) {
  q <- 4 * u * (1 - u)
  0.5056 * q - 0.1224 * q^2 + 0.2815 * q^3
}

# Layout coordinates as the plots draw them: each axis rescaled to [-1, 1]
# (a constant axis to 0), the wider one stretched by the layout's attribute
# `aspect` (the plot region's width over its height, see draw_edges()) so
# that the drawing fills a wide or tall device at aspect ratio 1.
plot_coords <- function(layout) {
  a <- attr(layout, "aspect") %||% 1
  xy <- apply(layout[, 1:2, drop = FALSE], 2L, function(v) {
    r <- range(v)
    if (diff(r) == 0) rep(0, length(v)) else 2 * (v - r[1]) / diff(r) - 1
  })
  xy <- matrix(xy, ncol = 2)
  if (a > 1) xy[, 1] <- xy[, 1] * a else xy[, 2] <- xy[, 2] / a
  xy
}

# The frame plot_coords() fills: half its width and half its height.
plot_frame <- function(layout) {
  a <- attr(layout, "aspect") %||% 1
  if (a > 1) c(a, 1) else c(1, 1 / a)
}

# Points along the drawn edge a -> b (plot coordinates), ends clipped at
# the node circles of radius `r`, bent by `curved`.
edge_path <- function(a, b, curved, r, k = 41L) {
  len <- sqrt(sum((b - a)^2))
  if (len > 2 * r) {
    dir <- (b - a) / len
    a <- a + r * dir
    b <- b - r * dir
  }
  offset <- curved / 2 * c(-(b[2] - a[2]), b[1] - a[1])
  u <- seq(0, 1, length.out = k)
  cbind(a[1] + u * (b[1] - a[1]) + xspline_bulge(u) * offset[1],
        a[2] + u * (b[2] - a[2]) + xspline_bulge(u) * offset[2])
}

# Smallest distance from a drawn edge to the centre of a node other than
# its ends.
edge_clearance <- function(xy, i, j, curved, r) {
  others <- xy[-c(i, j), , drop = FALSE]
  if (nrow(others) == 0L) return(Inf)
  p <- edge_path(xy[i, ], xy[j, ], curved, r)
  min(vapply(seq_len(nrow(others)), function(k) {
    min(sqrt((p[, 1] - others[k, 1])^2 + (p[, 2] - others[k, 2])^2))
  }, numeric(1)))
}

# For each edge (node indices `from`, `to`) of a drawing with node radius
# `r` (plot units: igraph's vertex.size / 200), the bend to draw it with:
# straight when it clears every other node by 1.3 radii, else the smallest
# bend of either sign that does and stays inside the frame, else the bend
# with the most room. Returns `curved` and the resulting `clearance`.
route_edges <- function(layout, from, to, r) {
  xy <- plot_coords(layout)
  frame <- 1.05 * plot_frame(layout)
  steps <- c(0.2, 0.4, 0.6, 0.8, 1, 1.3)
  bends <- c(0, as.vector(rbind(steps, -steps)))
  need <- 1.3 * r
  curved <- clearance <- numeric(length(from))
  for (e in seq_along(from)) {
    best <- -Inf
    for (b in bends) {
      p <- edge_path(xy[from[e], ], xy[to[e], ], b, r)
      if (b != 0 && any(abs(p[, 1]) > frame[1] | abs(p[, 2]) > frame[2])) next
      cl <- edge_clearance(xy, from[e], to[e], b, r)
      if (cl > best) {
        best <- cl
        curved[e] <- b
      }
      if (cl >= need) break
    }
    clearance[e] <- best
  }
  list(curved = curved, clearance = clearance)
}

# Edge labels placed where they can be read: each label is tried at the
# middle of its drawn edge, then a third of the way from either end, and
# kept at the first spot whose box overlaps no node circle and no label
# placed before; labels are placed in the order given (the most
# informative first), and a label with no free spot is left out.
# `paths`: list of edge_path() matrices; `w`, `h`: box sizes (plot units).
# Returns `x`, `y` (NA when left out) and `kept`.
place_labels <- function(xy, r, paths, w, h) {
  k <- length(paths)
  x <- y <- rep(NA_real_, k)
  boxes <- matrix(numeric(), 0, 4)   # x0, x1, y0, y1
  for (e in seq_len(k)) {
    p <- paths[[e]]
    spots <- p[round(c(0.5, 0.33, 0.67) * (nrow(p) - 1)) + 1, , drop = FALSE]
    for (s in seq_len(nrow(spots))) {
      b <- c(spots[s, 1] - w[e] / 2, spots[s, 1] + w[e] / 2,
             spots[s, 2] - h[e] / 2, spots[s, 2] + h[e] / 2)
      if (box_hits_circles(b, xy, r) || box_hits_boxes(b, boxes)) next
      x[e] <- spots[s, 1]
      y[e] <- spots[s, 2]
      boxes <- rbind(boxes, b)
      break
    }
  }
  list(x = x, y = y, kept = !is.na(x))
}

box_hits_circles <- function(b, xy, r) {
  # the point of the box nearest each centre
  nx <- pmin(pmax(xy[, 1], b[1]), b[2])
  ny <- pmin(pmax(xy[, 2], b[3]), b[4])
  any((nx - xy[, 1])^2 + (ny - xy[, 2])^2 < r^2)
}

box_hits_boxes <- function(b, boxes) {
  if (nrow(boxes) == 0L) return(FALSE)
  any(boxes[, 1] < b[2] & b[1] < boxes[, 2] & boxes[, 3] < b[4] & b[3] < boxes[, 4])
}

# Node size, label size and edge bends of a drawing: the vertex style that
# fits the layout (fit_vertex_style()), shrunk step by step (not below 6,
# or the label would not fit) while some edge cannot be routed clear of the
# other nodes. A size the user gives is kept. Returns `size`, `cex`,
# `curved` and `clearance` (per edge) and `r`, the node radius in plot units.
edge_drawing <- function(layout, from, to, nodes, size = NULL) {
  vs <- fit_vertex_style(vertex_style(length(nodes), nodes), layout, nodes)
  sizes <- if (is.numeric(size)) max(size) else unique(pmax(pmin(6, vs[["size"]]),
                                                          vs[["size"]] * c(1, 0.85, 0.7, 0.55)))
  for (s in sizes) {
    rt <- route_edges(layout, from, to, s / 200)
    if (all(rt[["clearance"]] > s / 200)) break
  }
  width <- max(nchar(nodes), 1L)
  cex <- if (s == vs[["size"]]) vs[["cex"]] else max(0.45, min(1, s / (5 * max(width, 2))))
  cex <- max(cex, device_label_cex(s, width, layout))
  c(list(size = s, cex = cex, r = s / 200), rt)
}

# The label size that fills a node circle of igraph size `s` with `width`
# characters on the current device (its plot region in inches), at least
# 0.6 (about 7 points, readable; a label may then overflow a small circle)
# and at most 1. 0 without an open device to measure.
device_label_cex <- function(s, width, layout) {
  if (grDevices::dev.cur() == 1L) return(0)
  pin <- graphics::par("pin")
  frame <- plot_frame(layout)
  inch_per_unit <- min(pin / (2 * frame))
  char_in <- 0.6 * graphics::par("cin")[2] * graphics::par("cex")
  fit <- (s / 100) * inch_per_unit / (max(width, 2) * char_in)
  max(0.6, min(1, fit))
}

# Vertex size and label size that stay readable from a handful of nodes to
# about fifty.
vertex_style <- function(d, labels) {
  size <- max(6, min(22, 75 / sqrt(d)))
  width <- max(nchar(labels), 1L)
  cex <- max(0.5, min(1, size / (5 * max(width, 2))))
  list(size = size, cex = cex)
}

# The vertex style shrunk so that no two circles overlap in the layout as
# igraph draws it (each axis rescaled to [-1, 1], aspect 1, circle radius
# size / 200): the diameter at most 85% of the smallest distance between
# two nodes, and not below 3 (then labels shrink with it).
fit_vertex_style <- function(vs, layout, labels) {
  if (nrow(layout) < 2L) return(vs)
  norm <- plot_coords(layout)
  dmin <- min(stats::dist(norm))
  size <- max(3, min(vs[["size"]], 85 * dmin))
  width <- max(nchar(labels), 1L)
  list(size = size, cex = max(0.45, min(1, size / (5 * max(width, 2)))))
}
