# Round trips between the package's adjacency matrices and the graph classes
# of igraph, pcalg, graph, bnlearn and dagitty, for DAGs and for CPDAGs
# (whose undirected edges are mutual pairs).

test_that("the test CPDAG is the CPDAG of the test DAG", {
  expect_identical(dag_to_cpdag(test_dag(), output = "matrix"), test_cpdag())
})

test_that("igraph round trips keep DAGs, CPDAGs and weights", {
  for (m in list(test_dag(), test_cpdag())) {
    g <- as_igraph(m)
    expect_s3_class(g, "igraph")
    expect_true(igraph::is_directed(g))
    expect_identical(igraph::V(g)$name, rownames(m))
    expect_identical(as_amat(g), m)
  }
  g <- as_igraph(test_cpdag())
  und <- igraph::E(g)$undirected
  ends <- igraph::ends(g, igraph::E(g))
  expect_identical(sort(unique(as.vector(ends[und, ]))), c("e", "f"))
  expect_false(any(und[ends[, 1] != "e" & ends[, 1] != "f"]))

  w <- test_dag()
  w[w != 0] <- c(0.5, -1.5, 2, 0.75)
  expect_identical(as_amat(as_igraph(w)), w)
  expect_identical(as_amat(as_igraph(w), weighted = FALSE), test_dag())
})

test_that("pcalg amat is the transpose and round trips", {
  for (m in list(test_dag(), test_cpdag())) {
    a <- as_pcalg_amat(m)
    expect_s3_class(a, "amat")
    expect_identical(attr(a, "type"), "cpdag")
    expect_equal(unclass(a)["c", "a"], 1)   # pcalg: row is the child
    expect_equal(unclass(a)["a", "c"], 0)
    expect_identical(from_pcalg_amat(a), m)
    expect_identical(as_amat(a), m)
  }
})

test_that("pcalg's own objects convert to the package's orientation", {
  skip_if_not_installed("pcalg")
  skip_if_not_installed("graph")
  # pcalg's CPDAG of our DAG (through graphNEL) is our CPDAG
  cp <- pcalg::dag2cpdag(as_graphNEL(test_dag()))
  expect_identical(as_amat(cp), test_cpdag())

  set.seed(4)
  sem <- simulate_sem(5, k = 1, n = 400)
  suff <- list(C = stats::cor(sem$x), n = nrow(sem$x))
  fit <- pcalg::pc(suff, indepTest = pcalg::gaussCItest, alpha = 0.01,
                   labels = colnames(sem$x))
  m <- as_amat(fit)
  expect_identical(rownames(m), colnames(sem$x))
  # pcalg's amat of the same fit, read back, is the same graph
  expect_identical(from_pcalg_amat(methods::as(fit, "amat")), m)
})

test_that("graphNEL round trips and stays directed", {
  skip_if_not_installed("graph")
  empty <- test_dag() * 0
  for (m in list(test_dag(), test_cpdag(), empty)) {
    g <- as_graphNEL(m)
    expect_s4_class(g, "graphNEL")
    expect_identical(graph::edgemode(g), "directed")
    expect_identical(graph::nodes(g), rownames(m))
    expect_equal(graph::numEdges(g), sum(m))
    expect_identical(as_amat(g), m)
  }
  # a CPDAG with only undirected edges is still a directed graphNEL of
  # mutual edges, which is pcalg's encoding
  chain <- matrix(c(0, 1, 0, 1, 0, 1, 0, 1, 0), 3,
                  dimnames = list(c("x", "y", "z"), c("x", "y", "z")))
  g <- as_graphNEL(chain)
  expect_identical(graph::edgemode(g), "directed")
  expect_identical(as_amat(g), chain)
})

test_that("bnlearn round trips DAGs and CPDAGs", {
  skip_if_not_installed("bnlearn")
  b <- as_bn(test_dag())
  expect_s3_class(b, "bn")
  expect_identical(bnlearn::nodes(b), rownames(test_dag()))
  expect_equal(nrow(bnlearn::directed.arcs(b)), 4)
  expect_equal(nrow(bnlearn::undirected.arcs(b)), 0)
  expect_identical(as_amat(b), test_dag())

  bc <- as_bn(test_cpdag())
  # bnlearn lists an undirected arc in both directions
  expect_equal(nrow(bnlearn::undirected.arcs(bc)), 2)
  expect_equal(nrow(bnlearn::directed.arcs(bc)), 3)
  expect_identical(as_amat(bc), test_cpdag())

  # bnlearn's CPDAG of the DAG agrees with ours
  expect_identical(as_amat(bnlearn::cpdag(b)), test_cpdag())
})

test_that("bnlearn can fit parameters on a converted DAG", {
  skip_if_not_installed("bnlearn")
  set.seed(7)
  sem <- simulate_sem(5, k = 1, n = 300)
  dag <- sem$B != 0
  dat <- as.data.frame(sem$x)
  fitted <- bnlearn::bn.fit(as_bn(dag), dat)
  expect_s3_class(fitted, "bn.fit")
  # each node's coefficients are the least-squares regression on its parents
  for (v in colnames(dat)) {
    pa <- rownames(dag)[dag[, v]]
    co <- stats::coef(fitted[[v]])
    expect_setequal(setdiff(names(co), "(Intercept)"), pa)
    X <- cbind(1, as.matrix(dat[, pa, drop = FALSE]))
    ref <- qr.coef(qr(X), dat[[v]])
    expect_equal(unname(co[c("(Intercept)", pa)]), unname(ref), tolerance = 1e-8)
  }
})

test_that("fits convert through their CPDAG, and through their DAG on request", {
  set.seed(3)
  sem <- simulate_sem(5, k = 1)
  fit <- calm:::new_calm_fit(sem$B, sigma = sem$sigma)
  expect_identical(as_amat(fit), fit$cpdag_amat)
  expect_equal(as_amat(fit, graph = "dag"), sem$B, tolerance = 1e-10)
  expect_identical(as_amat(fit, weighted = FALSE, graph = "dag"), (sem$B != 0) * 1)
  # pcalg's amat of a fit is its CPDAG
  expect_identical(as_amat(as_pcalg_amat(fit)), fit$cpdag_amat)
  expect_true(any(fit$cpdag_amat != (sem$B != 0) * 1))
  expect_identical(calm:::dagitty_code(fit, graph = "dag"), calm:::dagitty_code(sem$B))
  expect_identical(calm:::dagitty_code(fit), calm:::dagitty_code(fit$cpdag_amat))
  skip_if_not_installed("bnlearn")
  expect_identical(as_amat(as_bn(fit, graph = "dag")), (sem$B != 0) * 1)
  expect_identical(as_amat(as_bn(fit)), fit$cpdag_amat)
})

test_that("as_bn(graph = \"dag\") gives a DAG of a CPDAG's class that bnlearn fits", {
  skip_if_not_installed("bnlearn")
  set.seed(31)
  sem <- simulate_sem(5, k = 1.5, n = 300)
  cp <- dag_to_cpdag(sem$dag, output = "matrix")
  expect_error(bnlearn::bn.fit(as_bn(cp), as.data.frame(sem$x)))
  bn <- as_bn(cp, graph = "dag")
  m <- as_amat(bn)
  expect_true(is_dag(m))
  expect_equal(shd_cpdag(m, cp), 0)
  fitted <- bnlearn::bn.fit(bn, as.data.frame(sem$x))
  expect_s3_class(fitted, "bn.fit")
  fit <- boss(sem$x, starts = 1)
  expect_s3_class(bnlearn::bn.fit(as_bn(fit, graph = "dag"), as.data.frame(sem$x)), "bn.fit")
})

# Bad inputs (the table of helper-bad-input.R)
test_that("bad inputs to conversions end in clear errors, warnings or results", {
  expect_bad_inputs(bad_input_section({
err("as_amat", "x", as_amat("a"))
err("as_amat", "x", as_amat(NULL))
err("as_amat", "x", as_amat(list(1)))
err("as_amat", "x", as_amat(matrix("a", 2, 2)))
err("as_amat", "x", as_amat(nonsq))
err("as_amat", "x", as_amat(matrix(NA_real_, 2, 2)))
err("as_amat", "x", as_amat(with_na(A, v = NaN)))
err("as_amat", "x", as_amat(with_na(A, v = Inf)))
err("as_amat", "x", as_amat(matrix(0, 0, 0)))
err("as_amat", "x", as_amat(data.frame(a = 1:2, b = c("u", "v"))))
err("as_amat", "weighted", as_amat(B, weighted = NA))
err("as_amat", "weighted", as_amat(B, weighted = "yes"))
err("as_amat", "x", as_amat(structure("dag { a <-> b }", class = "dagitty")))
err("as_amat", "x", as_amat(structure("not a graph", class = "dagitty")))
err("as_amat", "x", as_amat(structure(NA_character_, class = "dagitty")))
err("as_amat", "x", as_amat(structure(c("dag { a }", "dag { b }"), class = "dagitty")))
err("as_amat", "x", as_amat(structure("dag { -> b }", class = "dagitty")))
err("as_amat", "x", as_amat(structure("dag { a -> }", class = "dagitty")))
err("as_amat", "x", as_amat(structure("dag { a ! b }", class = "dagitty")))
ok("as_amat", as_amat(structure("dag { a b a -> b }", class = "dagitty")),
   function(m) identical(dim(m), c(2L, 2L)) && sum(m) == 1 && m["a", "b"] == 1)
ok("as_amat", as_amat(cyc), function(m) sum(m) == 3)   # conversion keeps cycles
ok("as_amat", as_amat(B * 1e8), function(m) isTRUE(all.equal(m, B * 1e8)))
err("as_igraph", "x", as_igraph("a"))
err("as_igraph", "x", as_igraph(nonsq))
err("as_igraph", "x", as_igraph(matrix(NA, 2, 2)))
ok("as_igraph", as_igraph(matrix(0, 1, 1)), function(g) igraph::vcount(g) == 1)
err("as_pcalg_amat", "x", as_pcalg_amat("a"))
err("as_pcalg_amat", "x", as_pcalg_amat(nonsq))
err("as_pcalg_amat", "type", as_pcalg_amat(A, type = "dag"))
err("as_pcalg_amat", "type", as_pcalg_amat(A, type = 1))
err("from_pcalg_amat", "amat", from_pcalg_amat("a"))
err("from_pcalg_amat", "amat", from_pcalg_amat(NULL))
err("from_pcalg_amat", "amat", from_pcalg_amat(nonsq))
err("from_pcalg_amat", "amat", from_pcalg_amat(matrix(NA, 2, 2)))
err("as_graphNEL", "x", as_graphNEL("a"), needs = "graph")
err("as_graphNEL", "x", as_graphNEL(matrix(NA, 2, 2)), needs = "graph")
ok("as_graphNEL", as_graphNEL(loop), function(g) inherits(g, "graphNEL"), needs = "graph")
err("as_bn", "x", as_bn("a"), needs = "bnlearn")
err("as_bn", "x", as_bn(cyc), needs = "bnlearn")
err("as_bn", "x", as_bn(loop), needs = "bnlearn")
err("as_bn", "x", as_bn(matrix(0, 2, 2, dimnames = list(c("a", "a"), c("a", "a")))),
    needs = "bnlearn")
err("as_dagitty", "x", as_dagitty("a"))
err("as_dagitty", "x", as_dagitty(loop))
err("as_dagitty", "x", as_dagitty(matrix(NA, 2, 2)))
err("as_dagitty", "x", as_dagitty(matrix(0, 2, 2, dimnames = list(c("a", "a"), c("a", "a")))))
  }))
})
