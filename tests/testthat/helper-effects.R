# Random classes and treatments for the causal-effect tests (test-effects.R,
# test-adjustment.R, test-effects-estimate.R).

# A random CPDAG, or (knowledge = TRUE) the maximally oriented PDAG after
# orienting a random share of its undirected edges as the DAG has them;
# with a random positive definite covariance over its nodes.
random_class <- function(d, knowledge = FALSE) {
  dag <- simulate_dag(d, k = stats::runif(1, 1, min(2, (d - 1) / 2)))
  # pcalg's addBgKnowledge() looks nodes up by name, and is given positions
  dimnames(dag) <- rep(list(as.character(seq_len(d))), 2)
  g <- dag_to_cpdag(dag, output = "matrix")
  if (knowledge) {
    und <- which(g != 0 & t(g) != 0 & dag != 0, arr.ind = TRUE)
    pick <- und[stats::runif(nrow(und)) < 0.3, , drop = FALSE]
    g[pick[, c(2, 1), drop = FALSE]] <- 0
    g <- calm:::meek_closure(g)
  }
  a <- matrix(stats::rnorm(d * d), d)
  s <- crossprod(a) / d + diag(d) * 0.2
  dimnames(s) <- dimnames(g)
  list(dag = dag, cpdag = dag_to_cpdag(dag, output = "matrix"), g = g, sigma = s)
}

# A treatment with undirected edges when there is one (the interesting case).
pick_treatment <- function(g, k = 1) {
  und <- which(rowSums(g != 0 & t(g) != 0) > 0)
  pool <- if (length(und) >= k) und else seq_len(nrow(g))
  pool[sample.int(length(pool), k)]
}
