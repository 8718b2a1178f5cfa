# Which graph of a fit each function uses: the fit's own CPDAG (with the
# orientations its knowledge forces) by default, the DAG on request.

# Two chains, X1 - X2 - X3 and X4 - X5: no v-structure, so without
# knowledge every edge of the CPDAG is undirected; forbidding X2 -> X1
# orients the first chain (Meek's first rule carries it to X2 -> X3) and
# leaves X4 - X5 undirected.
chain_data <- function(n = 1000, seed = 3) {
  set.seed(seed)
  x1 <- rnorm(n)
  x2 <- 0.8 * x1 + rnorm(n)
  x3 <- 0.8 * x2 + rnorm(n)
  x4 <- rnorm(n)
  x5 <- 0.8 * x4 + rnorm(n)
  cbind(X1 = x1, X2 = x2, X3 = x3, X4 = x4, X5 = x5)
}

chain_fits <- function() {
  x <- chain_data()
  bk <- background_knowledge(forbidden = data.frame(from = "X2", to = "X1"))
  list(x = x, free = exact_search(x), bk = exact_search(x, knowledge = bk))
}

plot_comparison_status <- function(est, truth) {
  grDevices::pdf(NULL)
  on.exit(grDevices::dev.off())
  plot_comparison(est, truth)
}

test_that("comparisons use the fit's own CPDAG, with its knowledge", {
  f <- chain_fits()
  expect_true(all(f$free$cpdag_amat == t(f$free$cpdag_amat)))
  expect_identical(f$bk$cpdag_amat["X1", "X2"] - f$bk$cpdag_amat["X2", "X1"], 1)
  expect_identical(f$bk$cpdag_amat["X4", "X5"] + f$bk$cpdag_amat["X5", "X4"], 2)
  # the same skeleton, two edges oriented by the knowledge in one of them
  expect_identical(compare_graphs(f$bk, f$free)$shd, 2L)
  expect_identical(shd_cpdag(f$bk, f$free), 2L)
  expect_identical(compare_graphs(f$bk, f$free), compare_graphs(f$bk$cpdag_amat, f$free$cpdag_amat))
  expect_identical(shd_cpdag(f$bk, f$bk$cpdag_amat), 0L)
  truth <- dag_to_cpdag(f$bk$amat, output = "matrix")
  expect_identical(compare_graphs(f$bk, truth), compare_graphs(f$bk$cpdag_amat, truth))
  expect_identical(dag_to_cpdag(f$bk, output = "matrix"), f$bk$cpdag_amat)
  st <- plot_comparison_status(f$bk, f$free)
  expect_identical(sum(st$status != "correct"), 2L)
  # pcalg's CPDAG objects are taken as CPDAGs, even with every edge directed
  only_first <- exact_search(f$x[, 1:3], knowledge = background_knowledge(
    forbidden = data.frame(from = "X2", to = "X1")))
  expect_identical(sum(only_first$cpdag_amat * t(only_first$cpdag_amat)), 0)
  expect_identical(shd_cpdag(as_pcalg_amat(only_first), only_first), 0L)
  expect_identical(shd_cpdag(only_first$amat, only_first), 2L)
})

test_that("a fit whose DAG was edited is compared by the CPDAG of the edited DAG", {
  f <- chain_fits()
  ed <- f$bk
  ed$amat["X2", "X3"] <- 0   # drop an edge: the stored CPDAG is stale
  cp <- as_amat(ed)
  expect_identical(cp["X2", "X3"] + cp["X3", "X2"], 0)
  # the knowledge still orients what is left
  expect_identical(cp["X1", "X2"] - cp["X2", "X1"], 1)
  expect_identical(shd_cpdag(ed, f$bk), 1L)
})

test_that("comparing a fit with PC equals comparing its CPDAG with PC", {
  skip_if_not_installed("pcalg")
  f <- chain_fits()
  pc <- pcalg::pc(suffStat = list(C = cor(f$x), n = nrow(f$x)), indepTest = pcalg::gaussCItest,
                  alpha = 0.01, labels = colnames(f$x))
  expect_identical(compare_graphs(f$bk, pc), compare_graphs(f$bk$cpdag_amat, pc))
  expect_gt(compare_graphs(f$bk, pc)$shd, 0L)
})

test_that("every converter gives a fit's CPDAG by default, the DAG on request", {
  f <- chain_fits()
  fit <- f$free
  cp <- fit$cpdag_amat
  expect_identical(as_amat(fit), cp)
  expect_identical(as_amat(fit, weighted = FALSE, graph = "dag"), fit$amat)
  expect_equal(as_amat(fit, graph = "dag"), coef(fit))
  sk <- as_amat(fit, graph = "skeleton")
  expect_true(isSymmetric(sk))
  expect_identical(sum(sk), 6)
  expect_identical(as_amat(fit$amat, graph = "skeleton"), sk)
  df <- as.data.frame(fit)
  expect_identical(nrow(df), 3L)
  expect_false(any(df$directed))
  expect_true(all(as.data.frame(fit, graph = "dag")$directed))
  g <- as_igraph(fit)
  expect_identical(igraph::ecount(g), 6)
  expect_true(all(igraph::E(g)$undirected))
  expect_identical(igraph::ecount(as_igraph(fit, graph = "dag")), 3)
  expect_match(unclass(as_dagitty(fit)), "^pdag")
  expect_match(unclass(as_dagitty(fit, graph = "dag")), "^dag")
  # with knowledge the default keeps the oriented edges
  expect_match(unclass(as_dagitty(f$bk)), "X1 -> X2", fixed = TRUE)
  expect_error(as_amat(fit, graph = "pdag"), class = "calm_error_argument")
})

test_that("as_bn() and as_graphNEL() give the CPDAG by default", {
  skip_if_not_installed("bnlearn")
  skip_if_not_installed("graph")
  fit <- chain_fits()$free
  bn <- as_bn(fit)
  expect_identical(nrow(bnlearn::undirected.arcs(bn)), 6L)
  expect_identical(nrow(bnlearn::directed.arcs(as_bn(fit, graph = "dag"))), 3L)
  expect_identical(sum(as_amat(as_graphNEL(fit))), 6)
  expect_identical(sum(as_amat(as_graphNEL(fit, graph = "dag"))), 3)
})

test_that("a fit that holds only a CPDAG has no DAG to give", {
  fit <- chain_fits()$free
  cp <- calm:::new_calm_fit(fit$cpdag_amat, is_cpdag = TRUE, method = "pc")
  expect_identical(as_amat(cp), fit$cpdag_amat)
  expect_error(as_amat(cp, graph = "dag"), "CPDAG only", class = "calm_error_argument")
  expect_error(as.data.frame(cp, graph = "dag"), "graph", class = "calm_error_argument")
})
