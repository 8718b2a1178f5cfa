# pcalg, bnlearn and Matrix objects wherever a graph is accepted, and
# comparison by position when one side has no names.

test_that("pcalg's EssGraph, ges() list, pcAlgo and fciAlgo are accepted", {
  skip_if_not_installed("pcalg")
  set.seed(41)
  sem <- simulate_sem(6, k = 1, n = 2000)
  sc <- methods::new("GaussL0penObsScore", sem$x)
  g <- pcalg::ges(sc)
  m <- as_amat(g$essgraph)
  expect_equal(rownames(m), colnames(sem$x))
  expect_equal(as_amat(g), m)
  expect_equal(shd_cpdag(g$essgraph, ges_pcalg(sem$x)), 0)
  cg <- compare_graphs(g$essgraph, sem$B)
  expect_s3_class(cg, "data.frame")
  expect_equal(compare_graphs(g, sem$B), cg)
  suff <- list(C = stats::cor(sem$x), n = nrow(sem$x))
  pc <- pcalg::pc(suff, pcalg::gaussCItest, alpha = 0.01, labels = colnames(sem$x))
  expect_equal(shd_cpdag(pc, pc_pcalg(sem$x)), 0)
  fci <- pcalg::fci(suff, pcalg::gaussCItest, alpha = 0.01, labels = colnames(sem$x))
  if (any(fci@amat == 1)) {
    expect_error(as_amat(fci), "circle", class = "calm_error_argument")
  }
  # a PAG with only tails and arrowheads
  pag <- fci
  a <- matrix(0, 3, 3, dimnames = list(c("a", "b", "c"), c("a", "b", "c")))
  a["a", "b"] <- 2
  a["b", "a"] <- 3  # a -> b
  a["b", "c"] <- 3
  a["c", "b"] <- 3  # b - c
  pag@amat <- a
  expect_equal(unname(as_amat(pag)), unname(rbind(c(0, 1, 0), c(0, 0, 1), c(0, 1, 0))))
  eg <- as_essgraph(sem$B)
  expect_s4_class(eg, "EssGraph")
  expect_equal(shd_cpdag(eg, sem$B), 0)
  expect_error(as_essgraph("a"), "x", class = "calm_error_argument")
})

test_that("bnlearn's bn and bn.fit are accepted", {
  skip_if_not_installed("bnlearn")
  set.seed(42)
  sem <- simulate_sem(5, k = 1, n = 1000)
  x <- as.data.frame(sem$x)
  b <- as_bn(sem$B)
  bf <- bnlearn::bn.fit(b, x)
  expect_equal(as_amat(bf, weighted = FALSE), as_amat(b))
  w <- as_amat(bf)
  expect_equal(w != 0, sem$B != 0, ignore_attr = TRUE)
  cf <- stats::coef(stats::lm(X2 ~ ., data = x[, c(which(sem$B[, 2] != 0), 2), drop = FALSE]))
  pa <- rownames(sem$B)[sem$B[, 2] != 0]
  if (length(pa)) expect_equal(unname(w[pa, "X2"]), unname(cf[pa]), tolerance = 1e-8)
  expect_equal(shd_cpdag(bf, b), 0)
  expect_equal(compare_graphs(bnlearn::hc(x), b)$n_true, sum(sem$B != 0))
  f <- tempfile(fileext = ".png")
  grDevices::png(f)
  on.exit({grDevices::dev.off(); unlink(f)})
  expect_s3_class(plot_comparison(bf, b), "data.frame")
})

test_that("Matrix sparse matrices and graphNEL are accepted", {
  skip_if_not_installed("Matrix")
  m <- matrix(0, 3, 3, dimnames = list(c("a", "b", "c"), c("a", "b", "c")))
  m["a", "b"] <- m["b", "c"] <- 1
  sp <- Matrix::Matrix(m, sparse = TRUE)
  expect_equal(as_amat(sp), m)
  expect_equal(shd_cpdag(sp, m), 0)
  skip_if_not_installed("graph")
  expect_equal(shd_cpdag(as_graphNEL(m), sp), 0)
})

test_that("a graph without names is compared by position", {
  m <- matrix(0, 3, 3, dimnames = list(c("a", "b", "c"), c("a", "b", "c")))
  m["a", "b"] <- m["c", "b"] <- 1
  expect_equal(shd_cpdag(unname(m), m), 0)
  expect_equal(shd_cpdag(m, unname(m)), 0)
  expect_equal(compare_graphs(unname(m), m)$tp, 2)
  other <- m
  dimnames(other) <- list(c("p", "q", "r"), c("p", "q", "r"))
  expect_error(shd_cpdag(other, m), "different node names", class = "calm_error_argument")
  expect_error(shd_cpdag(unname(m)[1:2, 1:2], m), "nodes", class = "calm_error_argument")
})
