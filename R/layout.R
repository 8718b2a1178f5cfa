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
