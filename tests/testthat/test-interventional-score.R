# The interventional (GIES) score (R/interventional-score.R): against
# pcalg's GaussL0penIntScore, and telling apart what experiments tell apart.

test_that("the score equals pcalg's GaussL0penIntScore on 50 DAGs, up to sign and constant", {
  skip_if_not_installed("pcalg")
  set.seed(6203)
  for (r in 1:50) {
    d <- sample(4:10, 1)
    dat <- int_data(d, sample.int(d, sample(1:3, 1)), n_obs = 150, n_each = 40)
    n <- nrow(dat$x)
    lam <- stats::runif(1, 0.5, 3) * log(n) / 2
    g <- simulate_dag(d, k = 1.5)
    ours <- n * as.numeric(score_dag(g, dat$x, edge_penalty = lam / n, standardize = FALSE,
                          targets = dat$targets, target_index = dat$target_index))
    sc <- methods::new(methods::getClass("GaussL0penIntScore", where = asNamespace("pcalg")),
              data = dat$x, targets = dat$targets,
              target.index = dat$target_index, lambda = lam)
    theirs <- sum(vapply(seq_len(d), function(j) sc$local.score(j, which(g[, j] != 0)), 0))
    # pcalg's node term is -n_j/2 (1 + log(rss / n_j)) - lambda (1 + |pa|):
    # the constant is sum_j (n_j / 2 + lambda)
    free <- vapply(seq_len(d), function(j) {
      sum(!vapply(dat$target_index, function(i) j %in% dat$targets[[i]], NA))
    }, numeric(1))
    expect_equal(-theirs, ours + sum(free / 2 + lam), tolerance = 1e-9, label = paste("DAG", r))
  }
})

test_that("the score tells apart equivalent DAGs that experiments tell apart", {
  set.seed(6204)
  sem <- simulate_sem(2, dag = matrix(c(0, 0, 1, 0), 2, 2, dimnames = list(c("A", "B"), c("A", "B"))))
  sim <- simulate_interventions(sem, list(integer(0), "A"), c(400, 400))
  fwd <- sem$dag
  rev <- t(as_amat(sem$dag, weighted = FALSE))
  obs <- c(score_dag(fwd, sim$x), score_dag(rev, sim$x))
  expect_equal(obs[1], obs[2])
  int <- c(score_dag(fwd, sim$x, targets = sim$targets, target_index = sim$target_index),
           score_dag(rev, sim$x, targets = sim$targets, target_index = sim$target_index))
  expect_lt(int[1], int[2] - 0.01)
})
