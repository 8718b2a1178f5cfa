test_that("is_dag and topological_order agree on DAGs and cycles", {
  set.seed(11)
  for (i in 1:20) {
    B <- simulate_dag(sample(3:15, 1), k = 1)
    expect_true(is_dag(B))
    ord <- topological_order(B)
    pos <- match(rownames(B), ord)
    e <- which(B != 0, arr.ind = TRUE)
    expect_true(all(pos[e[, 1]] < pos[e[, 2]]))
  }
  cyc <- named(matrix(c(0, 1, 0, 0, 0, 1, 1, 0, 0), 3, byrow = TRUE))
  expect_false(is_dag(cyc))
  expect_error(topological_order(cyc), "cycle")
  expect_false(is_dag(named(matrix(c(0, 1, 1, 0), 2))))
})

test_that("dag_to_cpdag keeps v-structures and undirects chains", {
  v <- named(matrix(c(0, 0, 1, 0, 0, 1, 0, 0, 0), 3, byrow = TRUE))  # A -> C <- B
  expect_equal(unname(dag_to_cpdag(v, "matrix")), unname(v))
  chain <- named(matrix(c(0, 1, 0, 0, 0, 1, 0, 0, 0), 3, byrow = TRUE))  # A -> B -> C
  cp <- dag_to_cpdag(chain, "matrix")
  expect_equal(unname(cp), unname(chain + t(chain)))
  g <- dag_to_cpdag(chain)
  expect_s3_class(g, "igraph")
  expect_true(all(igraph::E(g)$undirected))
  # Meek rule 1: A -> C <- B, C -> D: C - D is compelled C -> D
  m <- named(matrix(0, 4, 4)); m["A", "C"] <- m["B", "C"] <- m["C", "D"] <- 1
  expect_equal(dag_to_cpdag(m, "matrix"), m)
})

test_that("dag_to_cpdag equals pcalg::dag2cpdag on 240 random DAGs", {
  skip_on_cran()   # among the slowest tests; CI runs it with NOT_CRAN=true
  skip_if_not_installed("pcalg")
  skip_if_not_installed("graph")
  set.seed(2024)
  sizes <- rep(c(5, 10, 20, 40), each = 60)
  ks <- rep(c(0.5, 1, 2, 3), times = 60)
  agree <- logical(length(sizes))
  for (r in seq_along(sizes)) {
    B <- simulate_dag(sizes[r], k = min(ks[r], (sizes[r] - 1) / 2))
    ours <- dag_to_cpdag(B, "matrix")
    theirs <- as_amat(pcalg::dag2cpdag(as_graphNEL(B)), weighted = FALSE)
    agree[r] <- identical(unname(ours), unname(theirs[rownames(B), rownames(B)]))
  }
  expect_true(all(agree))
})

test_that("moral_graph marries parents and drops directions", {
  v <- named(matrix(c(0, 0, 1, 0, 0, 1, 0, 0, 0), 3, byrow = TRUE))
  mg <- moral_graph(v, "matrix")
  expect_equal(unname(mg), matrix(c(0, 1, 1, 1, 0, 1, 1, 1, 0), 3))
  expect_false(igraph::is_directed(moral_graph(v)))
  set.seed(5)
  B <- simulate_dag(12, 2)
  mg <- moral_graph(B, "matrix")
  expect_true(isSymmetric(mg))
  expect_true(all(mg[B != 0] == 1))
})

test_that("make_acyclic drops the weakest edge on each cycle only", {
  w <- named(matrix(0, 4, 4))
  w["A", "B"] <- 2; w["B", "C"] <- 0.3; w["C", "A"] <- 1.5; w["C", "D"] <- 0.01
  res <- calm:::make_acyclic(w)
  expect_true(is_dag(res$B))
  expect_equal(res$removed$from, "B")
  expect_equal(res$removed$to, "C")
  expect_equal(res$B["C", "D"], 0.01)  # weak, but on no cycle
  dag <- calm:::make_acyclic(simulate_dag(6))
  expect_equal(nrow(dag$removed), 0L)
})

test_that("graph functions reject bad input with the argument's name", {
  expect_error(is_dag(matrix(1:6, 2)), "`g`.*square")
  expect_error(is_dag("a"), "`g`")
  expect_error(dag_to_cpdag(named(matrix(c(0, 1, 1, 0), 2))), "`g`.*cycle")
  expect_error(moral_graph(matrix(c(0, NA, 0, 0), 2)), "`g`.*missing")
  expect_error(dag_to_cpdag(named(matrix(c(1, 0, 0, 0), 2))), "self-loops")
})

# Bad inputs (the table of helper-bad-input.R)
test_that("bad inputs to graph algorithms end in clear errors, warnings or results", {
  expect_bad_inputs(bad_input_section({
err("is_dag", "g", is_dag("a"))
err("is_dag", "g", is_dag(nonsq))
err("is_dag", "g", is_dag(matrix(NA, 2, 2)))
ok("is_dag", is_dag(loop), isFALSE)   # a self-loop is a cycle, as for igraph::is_dag()
err("is_dag", "g", is_dag(matrix(0, 0, 0)))
ok("is_dag", is_dag(cyc), isFALSE)
ok("is_dag", is_dag(-B * 1e-8), isTRUE)
ok("is_dag", is_dag(matrix(0, 1, 1)), isTRUE)
err("topological_order", "g", topological_order(cyc))
err("topological_order", "g", topological_order(loop))
err("topological_order", "g", topological_order(list()))
err("dag_to_cpdag", "g", dag_to_cpdag(cyc))
err("dag_to_cpdag", "g", dag_to_cpdag(cyc + t(cyc)))
err("dag_to_cpdag", "g", dag_to_cpdag(igraph::make_ring(4)))
err("dag_to_cpdag", "g", dag_to_cpdag(loop))
err("dag_to_cpdag", "g", dag_to_cpdag("a"))
err("dag_to_cpdag", "g", dag_to_cpdag(nonsq))
err("dag_to_cpdag", "output", dag_to_cpdag(A, output = "graphNEL"))
err("dag_to_cpdag", "output", dag_to_cpdag(A, output = NA))
ok("dag_to_cpdag", dag_to_cpdag(matrix(0, 1, 1), output = "matrix"), function(m) all(m == 0))
err("moral_graph", "g", moral_graph(cyc))
err("moral_graph", "g", moral_graph(loop))
err("moral_graph", "g", moral_graph(TRUE))
err("moral_graph", "output", moral_graph(A, output = 2))
  }))
})

test_that("the graph helpers without d x d temporaries agree with R's own", {
  # amat_to_igraph(), new_calm_fit() and class_cpdag() read double matrices
  # in C++ (cpp_nonzero_pairs(), cpp_is_zero_one(), cpp_dag_to_cpdag_double());
  # other types go through R's which(): both must give the same graphs
  set.seed(11)
  for (d in c(2, 7, 30)) {
    m <- matrix(sample(c(0, 0, 0, 1, -0.5, 2), d * d, TRUE), d, d)
    diag(m)[1] <- 1
    m[sample(d * d, 2)] <- NaN
    ref <- which(!is.na(m) & m != 0 & row(m) != col(m), arr.ind = TRUE)
    ref <- unname(ref[order(ref[, 1], ref[, 2]), , drop = FALSE])
    expect_identical(calm:::cpp_nonzero_pairs(m), ref)
    expect_false(calm:::cpp_is_zero_one(m))
    dag <- as_amat(simulate_dag(d, k = min(1, (d - 1) / 2))) * 1
    expect_true(calm:::cpp_is_zero_one(dag))
    expect_identical(calm:::cpp_is_zero_one(dag * 0.5), !any(dag != 0))
    g_dbl <- calm:::amat_to_igraph(dag)
    g_int <- calm:::amat_to_igraph(dag != 0)
    expect_identical(igraph::as_edgelist(g_dbl), igraph::as_edgelist(g_int))
    expect_identical(igraph::E(g_dbl)$undirected, igraph::E(g_int)$undirected)
    cp <- calm:::class_cpdag(dag)
    expect_type(cp, "double")
    expect_identical(unname(cp), unname(calm:::cpp_dag_to_cpdag(dag) * 1))
    expect_identical(calm:::class_cpdag(dag * 3), cp)
    expect_identical(calm:::class_cpdag(dag != 0), cp)
  }
  expect_identical(calm:::cpp_nonzero_pairs(matrix(0, 3, 3)), matrix(0L, 0, 2))
})
