test_that("shd_cpdag counts each differing pair once", {
  truth <- named(matrix(0, 4, 4)); truth["A", "C"] <- truth["B", "C"] <- 1  # v-structure
  expect_equal(shd_cpdag(truth, truth), 0L)
  rev <- truth; rev["A", "C"] <- 0; rev["C", "A"] <- 1      # breaks the v-structure
  expect_equal(shd_cpdag(rev, truth), 2L)                    # A-C and B-C now undirected
  extra <- truth; extra["A", "D"] <- 1
  expect_equal(shd_cpdag(extra, truth), 1L)
  missing <- truth; missing["B", "C"] <- 0
  expect_equal(shd_cpdag(missing, truth), 2L)                # B-C gone, A-C undirected
})

test_that("Markov equivalent DAGs have SHD of CPDAG zero", {
  chain <- named(matrix(c(0, 1, 0, 0, 0, 1, 0, 0, 0), 3, byrow = TRUE))
  fork <- named(matrix(c(0, 0, 0, 1, 0, 1, 0, 0, 0), 3, byrow = TRUE))
  expect_equal(shd_cpdag(chain, fork), 0L)
  expect_equal(shd_cpdag(dag_to_cpdag(chain), fork), 0L)
})

test_that("shd_cpdag equals pcalg::shd on CPDAGs of random DAG pairs", {
  skip_if_not_installed("pcalg")
  set.seed(77)
  res <- vapply(1:200, function(r) {
    d <- sample(5:40, 1)
    k <- min(sample(c(0.5, 1, 2, 3), 1), (d - 1) / 2)
    a <- simulate_dag(d, k)
    b <- simulate_dag(d, k)
    ours <- shd_cpdag(a, b)
    theirs <- pcalg::shd(pcalg::dag2cpdag(as_graphNEL(a)), pcalg::dag2cpdag(as_graphNEL(b)))
    ours == theirs
  }, logical(1))
  expect_true(all(res))
})

test_that("skeleton_metrics and compare_graphs count edges", {
  truth <- named(matrix(0, 4, 4)); truth["A", "B"] <- truth["B", "C"] <- truth["C", "D"] <- 1
  est <- named(matrix(0, 4, 4)); est["B", "A"] <- est["B", "C"] <- est["A", "D"] <- 1
  s <- skeleton_metrics(est, truth)
  expect_equal(s[["tp"]], 2)
  expect_equal(s[["fp"]], 1)
  expect_equal(s[["fn"]], 1)
  expect_equal(s[["precision"]], 2 / 3)
  expect_equal(s[["recall"]], 2 / 3)
  empty <- named(matrix(0, 4, 4))
  expect_equal(skeleton_metrics(empty, empty)[c("precision", "recall")],
               c(precision = 1, recall = 1))
  expect_equal(skeleton_metrics(empty, truth)[["recall"]], 0)
  cg <- compare_graphs(est, truth)
  expect_s3_class(cg, "data.frame")
  expect_equal(nrow(cg), 1L)
  expect_equal(cg$shd, shd_cpdag(est, truth))
  expect_equal(cg$precision, s[["precision"]])
})

test_that("metrics accept igraph objects and match nodes by name", {
  set.seed(9)
  sem <- simulate_sem(8, 1.5)
  expect_equal(shd_cpdag(sem$dag, sem$B), 0L)
  perm <- sample(8)
  shuffled <- sem$B[perm, perm]
  expect_equal(shd_cpdag(shuffled, sem$B), 0L)
})

test_that("metrics reject mismatched or cyclic graphs", {
  a <- named(matrix(0, 3, 3))
  b <- named(matrix(0, 4, 4))
  expect_error(shd_cpdag(a, b), "`truth` has 4 nodes.*`est` has 3")
  c3 <- a; dimnames(c3) <- list(c("x", "y", "z"), c("x", "y", "z"))
  expect_error(compare_graphs(a, c3), "different node names")
  cyc <- named(matrix(c(0, 1, 0, 0, 0, 1, 1, 0, 0), 3, byrow = TRUE))
  expect_error(shd_cpdag(cyc, a), "`est`.*cycle")
  expect_error(skeleton_metrics(a, "x"), "`truth`")
})
