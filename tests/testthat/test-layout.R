# The layered layout of graph plots (R/layout.R): layers, edges bent around
# nodes, labels placed where they cover nothing.

use_sem <- function() {
  set.seed(51)
  simulate_sem(6, k = 1, n = 300)
}

test_that("DAG plots use a layered layout with isolated nodes aside", {
  m <- matrix(0, 6, 6, dimnames = list(LETTERS[1:6], LETTERS[1:6]))
  m["A", "B"] <- m["B", "C"] <- m["A", "D"] <- 1   # E, F isolated
  xy <- calm:::dag_layout(igraph::graph_from_adjacency_matrix(m))
  expect_equal(dim(xy), c(6L, 2L))
  # isolated nodes share one column to the right of everything else
  expect_equal(xy[5, 1], xy[6, 1])
  expect_gt(xy[5, 1], max(xy[1:4, 1]))
  # parents above children
  expect_gt(xy[1, 2], xy[2, 2])
  expect_gt(xy[2, 2], xy[3, 2])
  # nodes of one layer at least one unit apart
  same <- which(abs(outer(xy[1:4, 2], xy[1:4, 2], "-")) < 1e-9 & upper.tri(diag(4)), arr.ind = TRUE)
  if (nrow(same)) expect_true(all(abs(xy[same[, 1], 1] - xy[same[, 2], 1]) >= 1 - 1e-9))
  empty <- calm:::dag_layout(igraph::make_empty_graph(3))
  expect_equal(dim(empty), c(3L, 2L))
})

test_that("layered plots do not overlap nodes at 10, 20 and 50 nodes", {
  for (d in c(10, 20, 50)) {
    set.seed(d)
    g <- igraph::graph_from_adjacency_matrix(simulate_dag(d, k = 1))
    xy <- calm:::dag_layout(g)
    nodes <- paste0("X", seq_len(d))
    vs <- calm:::fit_vertex_style(calm:::vertex_style(d, nodes), xy, nodes)
    # as igraph draws it: each axis rescaled to [-1, 1], radius size / 200
    norm <- apply(xy, 2, function(v) if (diff(range(v)) == 0) 0 * v else 2 * (v - min(v)) / diff(range(v)) - 1)
    expect_lte(vs$size / 100, min(stats::dist(norm)) + 1e-12)
    expect_gte(vs$size, 6)   # still readable
    # parents above their children
    e <- igraph::as_edgelist(g, names = FALSE)
    expect_true(all(xy[e[, 1], 2] > xy[e[, 2], 2]))
  }
})
