# Data for the realistic benchmark (bench_realistic.R): linear Gaussian
# networks that look like those fitted to real measurements, unlike the
# paper's ER graphs with strong edges.
# - graphs: scale-free ("sf": preferential attachment, hubs with up to
#   `max_parents` parents and many children) or Erdos-Renyi ("er"), about 1.5
#   edges per node; or the Sachs consensus network ("sachs");
# - weights: each edge's effect relative to the child's noise drawn
#   log-uniformly from [0.05, 1.2] with a random sign, so that standardized
#   effects range from about 0.05 to 1;
# - noise variances log-uniform over a 100-fold range; variables on their own
#   (raw) scales, with random means: the data are not standardized;
# - sachs: the consensus graph with coefficients and noise variances fitted
#   by least squares to the logged Sachs et al. (2005) measurements.
# One seed gives one graph and one data set.

# A scale-free DAG: the skeleton by preferential attachment (each new node
# joins 1 or 2 earlier nodes chosen in proportion to their degree), oriented
# along a random order; a node with more than `max_parents` parents keeps a
# random `max_parents` of them.
sf_dag <- function(d, max_parents = 10) {
  out <- sample(1:2, d, replace = TRUE)
  out[1] <- 0
  g <- igraph::sample_pa(d, out.seq = out, directed = FALSE)
  e <- igraph::as_edgelist(g, names = FALSE)
  rank <- sample.int(d)
  from <- ifelse(rank[e[, 1]] < rank[e[, 2]], e[, 1], e[, 2])
  to <- ifelse(rank[e[, 1]] < rank[e[, 2]], e[, 2], e[, 1])
  a <- matrix(0, d, d)
  a[cbind(from, to)] <- 1
  for (j in which(colSums(a) > max_parents)) {
    pa <- which(a[, j] != 0)
    a[setdiff(pa, sample(pa, max_parents)), j] <- 0
  }
  a
}

# Weights on the DAG `a` and noise variances: effects relative to the noise
# of the child, turned into coefficients on the parents' raw scales (nodes in
# topological order, so each parent's variance is known when its child is
# drawn).
realistic_weights <- function(a) {
  d <- nrow(a)
  omega <- exp(stats::runif(d, log(0.1), log(10)))
  B <- matrix(0, d, d)
  topo <- as.integer(igraph::topo_sort(igraph::graph_from_adjacency_matrix(a)))
  v <- numeric(d)
  for (j in topo) {
    pa <- which(a[, j] != 0)
    if (length(pa)) {
      effect <- exp(stats::runif(length(pa), log(0.05), log(1.2))) *
        sample(c(-1, 1), length(pa), replace = TRUE)
      B[pa, j] <- effect * sqrt(omega[j]) / sqrt(v[pa])
    }
    s <- population_cov(B, omega)
    v[j] <- s[j, j]
  }
  list(B = B, omega = omega)
}

# The Sachs consensus network with least-squares coefficients and residual
# variances from the logged measurements.
sachs_weights <- function() {
  x <- log(as.matrix(calm::sachs))
  a <- as_amat(calm::sachs_consensus)
  a <- a[colnames(x), colnames(x)]
  s <- stats::cov(x)
  B <- matrix(0, ncol(x), ncol(x), dimnames = dimnames(a))
  omega <- diag(s)
  for (j in seq_len(ncol(x))) {
    pa <- which(a[, j] != 0)
    if (length(pa)) {
      B[pa, j] <- solve(s[pa, pa, drop = FALSE], s[pa, j])
      omega[j] <- s[j, j] - sum(s[j, pa] * B[pa, j])
    }
  }
  list(B = B, omega = unname(omega), mean = colMeans(x))
}

# One data set: `kind` "sf", "er" or "sachs"; `d` ignored for "sachs".
realistic_data <- function(kind, d, n, seed) {
  set.seed(seed)
  if (kind == "sachs") {
    w <- sachs_weights()
    mu <- w$mean
  } else {
    a <- if (kind == "sf") sf_dag(d) else simulate_dag(d, k = 1.5)
    w <- realistic_weights(a)
    nm <- sprintf("X%d", seq_len(d))
    dimnames(w$B) <- list(nm, nm)
    mu <- stats::rnorm(d, sd = 10)
  }
  d <- nrow(w$B)
  sigma <- population_cov(w$B, w$omega)
  x <- matrix(stats::rnorm(n * d), n, d) %*% chol(sigma)
  x <- sweep(x, 2L, mu, `+`)
  colnames(x) <- colnames(w$B)
  std <- w$B * sqrt(diag(sigma))[row(w$B)] / sqrt(diag(sigma))[col(w$B)]
  list(x = x, B = w$B, truth = (w$B != 0) * 1, omega = w$omega,
       std_effects = abs(std[w$B != 0]))
}
