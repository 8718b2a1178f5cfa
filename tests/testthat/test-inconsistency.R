# The paper's 3-node counterexample (Section 3.3), in the package's
# convention B[i, j] != 0 for i -> j: a v-structure 1 -> 2 <- 3.
counterexample <- function() {
  nm <- paste0("X", 1:3)
  B_true <- matrix(0, 3, 3, dimnames = list(nm, nm))
  B_true[1, 2] <- 1 / 2
  B_true[3, 2] <- -1
  B_alt <- matrix(0, 3, 3, dimnames = list(nm, nm))
  B_alt[1, 2] <- 1 / 2
  B_alt[1, 3] <- 1 / 10
  B_alt[2, 3] <- -1 / 5
  sigma <- matrix(c(16, 8, 0, 8, 9, -1, 0, -1, 1), 3, dimnames = list(nm, nm))
  list(B_true = B_true, omega_true = c(16, 4, 1), B_alt = B_alt, omega_alt = c(16, 5, 4 / 5),
       sigma = sigma)
}

test_that("both DAGs of the counterexample give the stated covariance", {
  ce <- counterexample()
  expect_equal(population_cov(ce$B_true, ce$omega_true), ce$sigma, ignore_attr = TRUE)
  expect_equal(population_cov(ce$B_alt, ce$omega_alt), ce$sigma, ignore_attr = TRUE)
  expect_equal(sum(abs(ce$B_true)), 3 / 2)
  expect_equal(sum(abs(ce$B_alt)), 4 / 5)
  expect_equal(sum(ce$B_true != 0), 2)
  expect_equal(sum(ce$B_alt != 0), 3)
  # the v-structure is its own CPDAG; the complete DAG's CPDAG is undirected
  expect_gt(shd_cpdag(ce$B_alt, ce$B_true), 0)
  expect_equal(dag_to_cpdag(ce$B_true, output = "matrix"), (ce$B_true != 0) + 0)
})

test_that("regression_dag() recovers both DAGs of the counterexample from their orders", {
  ce <- counterexample()
  r_true <- regression_dag(ce$sigma, c(1, 3, 2))
  expect_equal(r_true$B, ce$B_true, tolerance = 1e-12)
  expect_equal(unname(r_true$omega), ce$omega_true, tolerance = 1e-12)
  r_alt <- regression_dag(ce$sigma, c("X1", "X2", "X3"))
  expect_equal(r_alt$B, ce$B_alt, tolerance = 1e-12)
  expect_equal(unname(r_alt$omega), ce$omega_alt, tolerance = 1e-12)
})

test_that("the minimum-l1 order of the counterexample is the denser DAG", {
  ce <- counterexample()
  one <- calm:::inconsistency_one(ce$B_true, ce$sigma, zero_tol = 1e-8)
  expect_equal(one$l1_true, 3 / 2)
  expect_lte(one$l1_min, 4 / 5 + 1e-12)
  expect_equal(one$l0_min, 3)
  expect_gt(one$shd_min, 0)
  expect_equal(one$l0_sparsest, 2)
  expect_equal(one$shd_sparsest, 0)
  expect_equal(one$n_orders, 6)
})

test_that("every regression DAG reproduces the covariance", {
  set.seed(11)
  sem <- simulate_sem(5, k = 1.5)
  for (i in 1:5) {
    ord <- sample(5)
    r <- regression_dag(sem$sigma, ord)
    expect_equal(population_cov(r$B, r$omega), sem$sigma, tolerance = 1e-10)
    # each node's parents come before it in the order
    pos <- match(seq_len(5), ord)
    edges <- which(r$B != 0, arr.ind = TRUE)
    expect_true(all(pos[edges[, 1]] < pos[edges[, 2]]))
  }
})

# Brute force in plain R: all orders, regression by solve().
brute_force <- function(B, sigma, zero_tol) {
  d <- nrow(sigma)
  perms <- function(v) {
    if (length(v) <= 1) return(list(v))
    out <- list()
    for (i in seq_along(v)) for (p in perms(v[-i])) out[[length(out) + 1]] <- c(v[i], p)
    out
  }
  sd <- sqrt(diag(sigma))
  l1_true <- sum(abs(B))
  rows <- lapply(perms(seq_len(d)), function(ord) {
    Bo <- matrix(0, d, d)
    for (k in seq_len(d)[-1]) {
      pa <- ord[seq_len(k - 1)]
      j <- ord[k]
      Bo[pa, j] <- solve(sigma[pa, pa, drop = FALSE], sigma[pa, j])
    }
    support <- (abs(Bo) * outer(sd, 1 / sd) > zero_tol) + 0
    c(l1 = sum(abs(Bo)), l0 = sum(support), shd = shd_cpdag(support, (B != 0) + 0))
  })
  m <- do.call(rbind, rows)
  best <- which.min(m[, "l1"])
  list(share = mean(m[, "l1"] < l1_true * (1 - 1e-9)), l1_min = m[[best, "l1"]],
       l0_min = m[[best, "l0"]], shd_min = m[[best, "shd"]], l0_sparsest = min(m[, "l0"]))
}

test_that("the C++ order search agrees with a brute-force R computation", {
  set.seed(5)
  for (d in c(3, 4)) {
    for (g in 1:3) {
      sem <- simulate_sem(d, k = 1, edges = "exact")
      one <- calm:::inconsistency_one(sem$B, sem$sigma, zero_tol = 1e-8)
      bf <- brute_force(sem$B, sem$sigma, zero_tol = 1e-8)
      expect_equal(one$share_smaller_l1, bf$share)
      expect_equal(one$l1_min, bf$l1_min, tolerance = 1e-10)
      expect_equal(one$l0_min, bf$l0_min)
      expect_equal(one$shd_min, bf$shd_min)
      expect_equal(one$l0_sparsest, bf$l0_sparsest)
      expect_equal(one$n_orders, factorial(d))
    }
  }
})

test_that("l1_inconsistency() returns the documented table and is reproducible", {
  old <- if (exists(".Random.seed", globalenv())) get(".Random.seed", globalenv())
  res <- l1_inconsistency(n_graphs = 4, d = 5, seed = 3)
  expect_identical(if (exists(".Random.seed", globalenv())) get(".Random.seed", globalenv()), old)
  expect_s3_class(res, "calm_l1_inconsistency")
  expect_named(res$per_graph, c("graph", "share_smaller_l1", "l1_true", "l1_min", "l0_true",
                                "l0_min", "shd_min", "l1_sparsest", "l0_sparsest",
                                "shd_sparsest", "n_orders"))
  expect_equal(nrow(res$per_graph), 4)
  expect_true(all(res$per_graph$l0_true == 5))
  expect_true(all(res$per_graph$l1_min <= res$per_graph$l1_true + 1e-9))
  expect_true(all(res$per_graph$n_orders == 120))
  expect_true(all(res$per_graph$share_smaller_l1 >= 0 & res$per_graph$share_smaller_l1 < 1))
  # with a tolerance the sparsest order recovers the equivalence class
  expect_true(all(res$per_graph$shd_sparsest == 0))
  expect_equal(nrow(res$summary), 3)
  expect_identical(l1_inconsistency(n_graphs = 4, d = 5, seed = 3)$per_graph, res$per_graph)
  expect_output(print(res), "Min-l1 DAG")
  # no tolerance: rounding noise counts as edges, so l0 can only grow
  res0 <- l1_inconsistency(n_graphs = 4, d = 5, seed = 3, zero_tol = 0)
  expect_true(all(res0$per_graph$l0_min >= res$per_graph$l0_min))
  expect_equal(res0$per_graph$l1_min, res$per_graph$l1_min)
})

test_that("l1_inconsistency() and regression_dag() check their arguments", {
  expect_error(l1_inconsistency(d = 11), class = "calm_error_argument")
  expect_error(l1_inconsistency(n_graphs = 0), class = "calm_error_argument")
  expect_error(l1_inconsistency(zero_tol = -1), class = "calm_error_argument")
  expect_error(regression_dag(diag(3), c(1, 1, 2)), class = "calm_error_argument")
  expect_error(regression_dag(diag(3), c("a", "b", "c")), class = "calm_error_argument")
})
