# Round trips between the package's adjacency matrices and the graph classes
# of igraph, pcalg, graph, bnlearn and dagitty, for DAGs and for CPDAGs
# (whose undirected edges are mutual pairs).

# a -> c <- b is a v-structure (stays directed in the CPDAG); c -> d follows
# from it; e -> f is undirected in the CPDAG.
test_dag <- function() {
  nm <- c("a", "b", "c", "d", "e", "f")
  m <- matrix(0, 6, 6, dimnames = list(nm, nm))
  m["a", "c"] <- m["b", "c"] <- m["c", "d"] <- m["e", "f"] <- 1
  m
}

test_cpdag <- function() {
  m <- test_dag()
  m["f", "e"] <- 1
  m
}

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

test_that("dagitty text is built without dagitty", {
  code <- calm:::dagitty_code(test_dag())
  expect_match(code, "^dag \\{")
  expect_match(code, "a -> c", fixed = TRUE)
  expect_false(grepl("--", code, fixed = TRUE))
  # every node is listed, so isolated nodes survive
  lone <- test_dag()
  lone["e", "f"] <- 0
  lines <- strsplit(calm:::dagitty_code(lone), "\n")[[1]]
  expect_true(all(c("e", "f") %in% lines))

  code <- calm:::dagitty_code(test_cpdag())
  expect_match(code, "^pdag \\{")
  expect_match(code, "e -- f", fixed = TRUE)
  expect_false(grepl("f -- e", code, fixed = TRUE))
  expect_false(grepl("e -> f", code, fixed = TRUE))

  expect_identical(calm:::dagitty_quote(c("x.1", "my node", "a\"b", "X_2")),
                   c("x.1", "\"my node\"", "\"a\\\"b\"", "X_2"))
})

test_that("dagitty round trips DAGs and CPDAGs", {
  for (m in list(test_dag(), test_cpdag())) {
    g <- as_dagitty(m)
    expect_s3_class(g, "dagitty")
    back <- as_amat(g)
    expect_setequal(rownames(back), rownames(m))
    expect_identical(back[rownames(m), rownames(m)], m)
  }
  expect_match(as_dagitty(test_dag()), "^dag \\{")
  expect_match(as_dagitty(test_cpdag()), "^pdag \\{")
  # dagitty's own notation: chains, "<-", attributes and ";" separators
  hand <- structure('dag {\nx [exposure,pos="0,1"]\ny [outcome]\nx -> m -> y; z <- y\n}',
                    class = "dagitty")
  m <- as_amat(hand)
  expect_identical(rownames(m), c("x", "y", "m", "z"))
  expect_equal(sum(m), 3)
  expect_equal(m["x", "m"] + m["m", "y"] + m["y", "z"], 3)
  # names that need quoting survive
  odd <- test_dag()
  dimnames(odd) <- rep(list(c("A b", "c-d", "e", "f.g", "h", "i")), 2)
  back <- as_amat(as_dagitty(odd))
  expect_identical(back[rownames(odd), rownames(odd)], odd)
  # marks with no matrix form are refused
  expect_error(as_amat(structure("mag { a <-> b }", class = "dagitty")),
               class = "calm_error_argument")
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
