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
# - hub (issue 48): hub networks of 100-150 variables, about 1.4 edges per
#   variable, whose hubs are mostly causes (each preferential-attachment edge
#   points from the older node with probability 0.8) and whose effects are
#   weaker (log-uniform on [0.03, 0.6]);
# - mixed: in-degrees that vary more (negative binomial, mean 1.5, size
#   0.5, at most 12 parents, chosen among earlier nodes in proportion to
#   their degree so far) and effects over a wider range ([0.02, 2]).
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

# A hub network: preferential attachment with 1 or 2 edges per new node
# (probabilities 0.6 and 0.4), each edge from the older node with
# probability 0.8, at most `max_parents` parents.
hub_dag <- function(d, max_parents = 10) {
  out <- sample(1:2, d, replace = TRUE, prob = c(0.6, 0.4))
  out[1] <- 0
  g <- igraph::sample_pa(d, out.seq = out, directed = FALSE)
  e <- igraph::as_edgelist(g, names = FALSE)
  old <- pmin(e[, 1], e[, 2])
  new <- pmax(e[, 1], e[, 2])
  forward <- stats::runif(nrow(e)) < 0.8
  a <- matrix(0, d, d)
  a[cbind(ifelse(forward, old, new), ifelse(forward, new, old))] <- 1
  # the reversed edges may close cycles: keep the edges consistent with a
  # random order that puts most old nodes first
  rank <- order(order(seq_len(d) + stats::rnorm(d, sd = d / 10)))
  a <- a * outer(rank, rank, `<`) + t(a) * outer(rank, rank, `<`)
  for (j in which(colSums(a) > max_parents)) {
    pa <- which(a[, j] != 0)
    a[setdiff(pa, sample(pa, max_parents)), j] <- 0
  }
  a
}

# A DAG whose in-degrees vary more than ER's or preferential attachment's:
# in a random order, node j draws its in-degree from a negative binomial
# (mean 1.5, size 0.5), at most 12 and at most the nodes before it, and
# takes its parents among those in proportion to one plus their degree.
mixed_dag <- function(d, max_parents = 12) {
  a <- matrix(0, d, d)
  deg <- numeric(d)
  ord <- sample.int(d)
  for (i in seq_len(d)[-1]) {
    j <- ord[i]
    before <- ord[seq_len(i - 1)]
    k <- min(stats::rnbinom(1, size = 0.5, mu = 1.5), max_parents, length(before))
    if (k == 0) next
    pa <- if (length(before) == 1L) before else sample(before, k, prob = 1 + deg[before])
    a[pa, j] <- 1
    deg[c(pa, j)] <- deg[c(pa, j)] + 1
  }
  a
}

# The number of variables of a data set of `kind`: 100-150 for hub
# networks, 40-150 for the others (the Sachs network has 11 whatever this
# draws); one draw from R's generator, before realistic_data().
realistic_d <- function(kind) if (kind == "hub") sample(100:150, 1) else sample(40:150, 1)

# Weights on the DAG `a` and noise variances: effects relative to the noise
# of the child, turned into coefficients on the parents' raw scales (nodes in
# topological order, so each parent's variance is known when its child is
# drawn).
realistic_weights <- function(a, effect_range = c(0.05, 1.2)) {
  d <- nrow(a)
  omega <- exp(stats::runif(d, log(0.1), log(10)))
  B <- matrix(0, d, d)
  topo <- as.integer(igraph::topo_sort(igraph::graph_from_adjacency_matrix(a)))
  v <- numeric(d)
  for (j in topo) {
    pa <- which(a[, j] != 0)
    if (length(pa)) {
      effect <- exp(stats::runif(length(pa), log(effect_range[1]), log(effect_range[2]))) *
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
    a <- switch(kind, sf = sf_dag(d), er = simulate_dag(d, k = 1.5), hub = hub_dag(d),
                mixed = mixed_dag(d), stop("unknown kind ", kind))
    effects <- switch(kind, hub = c(0.03, 0.6), mixed = c(0.02, 2), c(0.05, 1.2))
    w <- realistic_weights(a, effects)
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
