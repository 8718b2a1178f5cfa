# calm()'s `moral` argument (R/moral-resolve.R): matched by name,
# empty, estimated.

test_that("data input keeps node names; moral graphs are matched by name", {
  sem <- sem_case(5, 8)
  set.seed(9)
  x <- as.data.frame(matrix(stats::rnorm(200 * 5), 200, 5) %*% chol(sem$sigma))
  names(x) <- c("a", "b", "c", "d", "e")
  m <- moral_graph(sem$dag, output = "matrix")
  dimnames(m) <- list(names(x), names(x))
  set.seed(10)
  fit <- calm(x, moral = m, iter_per_round = 1000, max_rounds = 3, standardize = FALSE,
              verbose = FALSE) |> suppressWarnings()
  expect_identical(rownames(fit$amat), names(x))
  expect_identical(fit$n, 200L)
  expect_false(fit$settings$standardize)
  # the same moral graph as a shuffled igraph gives the same fit
  g <- igraph::graph_from_adjacency_matrix(m[c(3, 1, 5, 2, 4), c(3, 1, 5, 2, 4)],
                                           mode = "undirected")
  set.seed(10)
  fit2 <- calm(x, moral = g, iter_per_round = 1000, max_rounds = 3, standardize = FALSE,
               verbose = FALSE) |> suppressWarnings()
  expect_identical(fit$amat, fit2$amat)
  expect_identical(fit$B, fit2$B)
  # a covariance with its sample size
  fit3 <- calm(cov = stats::cov(x), n = 200, moral = m, iter_per_round = 500, max_rounds = 2,
               verbose = FALSE) |> suppressWarnings()
  expect_identical(fit3$n, 200)
  expect_identical(rownames(fit3$amat), names(x))
})

test_that("an empty moral graph gives the empty graph", {
  sem <- sem_case(4, 1)
  fit <- calm(cov = sem$sigma, moral = matrix(0, 4, 4), verbose = FALSE)
  expect_identical(sum(fit$amat), 0)
  expect_true(fit$converged)
})

test_that("moral = NULL estimates the moral graph", {
  skip_if_not(exists("estimate_moral_graph", envir = asNamespace("calm")),
              "estimate_moral_graph() is not in this build")
  sem <- sem_case(6, 2)
  set.seed(1)
  fit <- calm(cov = sem$sigma, control = fast, verbose = FALSE)
  expect_identical(fit$settings$moral, "precision")
  expect_identical(compare_graphs(fit, sem$B)$shd, 0L)
})
