# The bundled Sachs et al. (2005) data and its consensus graph.

load_calm_data <- function(name) {
  env <- new.env()
  utils::data(list = name, package = "calm", envir = env)
  env[[name]]
}

sachs_cols <- c("raf", "mek", "plc", "pip2", "pip3", "erk", "akt", "pka", "pkc",
                "p38", "jnk")

test_that("sachs holds the 853 observational cd3cd28 cells", {
  x <- load_calm_data("sachs")
  expect_s3_class(x, "data.frame")
  expect_identical(dim(x), c(853L, 11L))
  expect_identical(names(x), sachs_cols)
  expect_true(all(vapply(x, is.double, logical(1))))
  expect_false(anyNA(x))
  # raw, positive measurements (not logged or standardized)
  expect_true(all(as.matrix(x) > 0))
  expect_equal(unlist(x[1, c("raf", "mek", "pka")], use.names = FALSE), c(26.4, 13.2, 414))
  expect_equal(unlist(x[853, c("raf", "pip2", "jnk")], use.names = FALSE), c(46.6, 120, 9.65))
})

test_that("sachs_consensus is the 17-edge DAG aligned with the data", {
  g <- load_calm_data("sachs_consensus")
  expect_s3_class(g, "igraph")
  expect_true(igraph::is_directed(g))
  expect_identical(igraph::V(g)$name, sachs_cols)
  expect_equal(igraph::ecount(g), 17)
  expect_true(is_dag(g))
  m <- as_amat(g)
  expect_identical(rownames(m), sachs_cols)
  expect_equal(sum(m), 17)
  # a few edges of the consensus network, and their direction
  expect_equal(m["pkc", "pka"], 1)
  expect_equal(m["raf", "mek"], 1)
  expect_equal(m["mek", "erk"], 1)
  expect_equal(m["plc", "pip3"], 1)
  expect_equal(m["erk", "mek"], 0)
})

test_that("sachs_consensus has no v-structure, so its CPDAG is undirected", {
  g <- load_calm_data("sachs_consensus")
  m <- as_amat(g)
  cp <- dag_to_cpdag(g, output = "matrix")
  expect_identical(cp, pmax(m, t(m)))
  # so a DAG that orients an edge differently without creating a v-structure
  # (here pip3 -> plc: plc's and pip2's parents stay adjacent) scores 0
  alt <- m
  alt["plc", "pip3"] <- 0
  alt["pip3", "plc"] <- 1
  expect_equal(shd_cpdag(alt, g), 0L)
  # while one that creates a v-structure (akt -> erk <- mek) does not
  vs <- m
  vs["erk", "akt"] <- 0
  vs["akt", "erk"] <- 1
  expect_gt(shd_cpdag(vs, g), 0L)
})

test_that("sachs_consensus is bnlearn's model string", {
  skip_if_not_installed("bnlearn")
  g <- load_calm_data("sachs_consensus")
  s <- paste0("[PKC][PKA|PKC][Raf|PKC:PKA][Mek|PKC:PKA:Raf][Erk|Mek:PKA][Akt|Erk:PKA]",
              "[P38|PKC:PKA][Jnk|PKC:PKA][Plcg][PIP3|Plcg][PIP2|Plcg:PIP3]")
  ref <- as_amat(bnlearn::model2network(s))
  rename <- c(PKC = "pkc", PKA = "pka", Raf = "raf", Mek = "mek", Erk = "erk",
              Akt = "akt", P38 = "p38", Jnk = "jnk", Plcg = "plc", PIP3 = "pip3",
              PIP2 = "pip2")
  dimnames(ref) <- list(rename[rownames(ref)], rename[colnames(ref)])
  expect_identical(as_amat(g), ref[sachs_cols, sachs_cols])
})
