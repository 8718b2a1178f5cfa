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
  # at least one unit between neighbours of a layer, so nodes never overlap
  for (y in unique(lay[, 2])) {
    k <- which(lay[, 2] == y)
    k <- k[order(lay[k, 1])]
    for (a in seq_along(k)[-1]) lay[k[a], 1] <- max(lay[k[a], 1], lay[k[a - 1], 1] + 1)
  }
  xy[connected, ] <- lay
  if (any(iso)) {
    k <- sum(iso)
    x_aside <- max(lay[, 1]) + max(1.5, diff(range(lay[, 1])) / 8)
    span <- range(lay[, 2])
    if (diff(span) == 0) span <- span + c(-1, 1)
    xy[iso, 1] <- x_aside
    xy[iso, 2] <- if (k == 1L) mean(span) else seq(span[2], span[1], length.out = k)
  }
  xy
}
