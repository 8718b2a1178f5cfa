# as.data.frame() of fits and bootstraps: their edge lists.

# A 5-node DAG with a v-structure (A -> C <- B) and edges whose direction
# the equivalence class leaves open (D - E), fitted on its own covariance.
edge_list_fit <- function() {
  nm <- c("A", "B", "C", "D", "E")
  B <- matrix(0, 5, 5, dimnames = list(nm, nm))
  B["A", "C"] <- 0.8
  B["B", "C"] <- -0.5
  B["C", "D"] <- 0.6
  B["D", "E"] <- 0.7
  sigma <- population_cov(B, rep(1, 5))
  fit_sem(B, cov = sigma, n = 1000)
}

test_that("the edge list of a fit has one row per DAG edge, with the refitted weights", {
  fit <- edge_list_fit()
  e <- as.data.frame(fit)
  expect_s3_class(e, "data.frame")
  expect_named(e, c("from", "to", "directed", "weight"))
  expect_type(e$from, "character")
  expect_type(e$directed, "logical")
  expect_equal(nrow(e), sum(as_amat(fit, weighted = FALSE)))
  expect_true(all(e$directed))
  expect_equal(e$weight, unname(fit$B[cbind(e$from, e$to)]))
  expect_equal(e$weight[e$from == "A" & e$to == "C"], 0.8, tolerance = 1e-8)
  expect_equal(attr(e, "nodes"), c("A", "B", "C", "D", "E"))
})

test_that("an edge list goes back to the fit's adjacency matrix with as_amat()", {
  fit <- edge_list_fit()
  expect_equal(as_amat(as.data.frame(fit, graph = "dag")), as_amat(fit, graph = "dag"))
  expect_equal(as_amat(as.data.frame(fit, graph = "dag"), weighted = FALSE),
               as_amat(fit, weighted = FALSE, graph = "dag"))
  expect_equal(as_amat(as.data.frame(fit), weighted = FALSE), fit$cpdag_amat)
  expect_equal(as_amat(as.data.frame(fit), weighted = FALSE), as_amat(fit))
  # without the attribute (as after some data-frame verbs), by the nodes argument
  e <- as.data.frame(fit, graph = "dag")
  attr(e, "nodes") <- NULL
  expect_equal(as_amat(e, nodes = rownames(fit$amat)), as_amat(fit, graph = "dag"))
  expect_error(as_amat(e, nodes = c("A", "B")), class = "calm_error_argument")
})

test_that("undirected CPDAG edges are listed once, without a weight", {
  fit <- edge_list_fit()
  e <- as.data.frame(fit, graph = "cpdag")
  cp <- fit$cpdag_amat
  n_undirected <- sum(cp * t(cp)) / 2
  n_directed <- sum(cp * (1 - t(cp)))
  expect_equal(n_undirected, 0)
  # A -> C <- B is compelled and so are C -> D -> E below it
  expect_equal(nrow(e), 4)
  expect_true(all(e$directed))
  # a chain has no v-structure: every edge of its CPDAG is undirected
  chain <- matrix(0, 3, 3, dimnames = list(c("X", "Y", "Z"), c("X", "Y", "Z")))
  chain["X", "Y"] <- chain["Y", "Z"] <- 0.5
  cfit <- fit_sem(chain, cov = population_cov(chain, rep(1, 3)), n = 100)
  ce <- as.data.frame(cfit, graph = "cpdag")
  expect_equal(nrow(ce), 2)
  expect_false(any(ce$directed))
  expect_true(all(is.na(ce$weight)))
  expect_equal(paste(ce$from, ce$to), c("X Y", "Y Z"))
  expect_equal(nrow(e), n_directed + n_undirected)
  expect_equal(nrow(unique(t(apply(ce[, c("from", "to")], 1, sort)))), nrow(ce))
  # the DAG has the same edges, directed and weighted
  de <- as.data.frame(cfit, graph = "dag")
  expect_true(all(de$directed))
  expect_false(anyNA(de$weight))
})

test_that("a fit with no edges gives an empty edge list with the columns", {
  nm <- c("A", "B")
  fit <- fit_sem(matrix(0, 2, 2, dimnames = list(nm, nm)), cov = named(diag(2), nm), n = 50)
  e <- as.data.frame(fit)
  expect_equal(nrow(e), 0)
  expect_named(e, c("from", "to", "directed", "weight"))
  expect_equal(as_amat(e), as_amat(fit))
})

test_that("a fit from boss() and from pc_pcalg() gives its edge list", {
  set.seed(3)
  sem <- simulate_sem(6, k = 1, n = 400)
  fit <- boss(sem$x)
  e <- as.data.frame(fit, graph = "cpdag")
  cp <- fit$cpdag_amat
  expect_equal(nrow(e), sum(cp * (1 - t(cp))) + sum(cp * t(cp)) / 2)
  expect_equal(as_amat(e, weighted = FALSE), cp)
  skip_if_not_installed("pcalg")
  pc <- pc_pcalg(sem$x)
  pe <- as.data.frame(pc)
  expect_equal(as_amat(pe, weighted = FALSE), as_amat(pc, weighted = FALSE))
  expect_true(all(is.na(pe$weight)))
  # PC learns no DAG
  expect_error(as.data.frame(pc, graph = "dag"), "CPDAG only", class = "calm_error_argument")
})

test_that("the edge list of a bootstrap carries the strengths", {
  set.seed(21)
  sem <- simulate_sem(5, k = 1, n = 300)
  set.seed(1)
  bs <- bootstrap_edges(sem$x, R = 4, learner = boss)
  e <- as.data.frame(bs)
  expect_named(e, c("from", "to", "directed", "strength", "direction"))
  # the edges of the averaged graph, undirected ones once
  avg <- average_graph(bs)
  expect_equal(as_amat(e, weighted = FALSE), avg, ignore_attr = TRUE)
  expect_true(all(e$strength >= bs$threshold))
  s <- bs$cpdag
  key <- match(paste(e$from, e$to), paste(s$from, s$to))
  expect_equal(e$strength, s$strength[key])
  expect_equal(e$direction, s$direction[key])
  expect_true(all(e$direction[e$directed] > 0.5))
  # threshold 0: every pair seen in some replicate, each pair once
  all_pairs <- as.data.frame(bs, graph = "dag", threshold = 0)
  seen <- bs$dag[bs$dag$strength > 0 & bs$dag$from < bs$dag$to, ]
  expect_equal(nrow(all_pairs), nrow(seen))
  expect_true(all(all_pairs$strength > 0))
  expect_error(as.data.frame(bs, graph = "pag"), class = "calm_error_argument")
})
