# estimate_moral_graph(): IAMB and precision support (R/moral.R, src/iamb.cpp).

moral_amat <- function(g) as_amat(g, weighted = FALSE)

same_sets <- function(a, b) {
  stopifnot(setequal(names(a), names(b)))
  vapply(names(a), function(v) setequal(a[[v]], b[[v]]), logical(1))
}

true_blankets <- function(dag) {
  m <- moral_graph(dag, output = "matrix")
  out <- lapply(rownames(m), function(v) colnames(m)[m[v, ] != 0])
  names(out) <- rownames(m)
  out
}

# The same algorithm written plainly: every partial correlation from a fresh
# solve() of the correlation submatrix.
naive_iamb <- function(sigma, n, alpha, cap = ncol(sigma) - 1L) {
  C <- stats::cov2cor(sigma)
  d <- ncol(C)
  n_tests <- 0
  pcor <- function(i, j, cond) {
    idx <- c(i, j, cond)
    P <- solve(C[idx, idx, drop = FALSE])
    -P[1, 2] / sqrt(P[1, 1] * P[2, 2])
  }
  zstat <- function(r, s) abs(atanh(r)) * sqrt(n - s - 3)
  blankets <- vector("list", d)
  for (t in seq_len(d)) {
    mb <- integer()
    while (length(mb) < cap) {
      cand <- setdiff(seq_len(d), c(t, mb))
      z <- vapply(cand, function(c) zstat(pcor(t, c, mb), length(mb)), numeric(1))
      n_tests <- n_tests + length(cand)
      ok <- 2 * stats::pnorm(-z) <= alpha
      if (!any(ok)) break
      mb <- c(mb, cand[ok][which.max(z[ok])])
    }
    while (length(mb) > 0L) {
      z <- vapply(mb, function(j) zstat(pcor(t, j, setdiff(mb, j)), length(mb) - 1), numeric(1))
      n_tests <- n_tests + length(mb)
      w <- which.min(z)
      if (2 * stats::pnorm(-z[w]) <= alpha) break
      mb <- mb[-w]
    }
    blankets[[t]] <- colnames(C)[sort(mb)]
  }
  names(blankets) <- colnames(C)
  list(blankets = blankets, n_tests = n_tests)
}

test_that("population covariances of 50-node ER1 and ER4 models give the true moral graph", {
  set.seed(101)
  for (k in c(1, 4)) {
    for (rep in 1:3) {
      sem <- simulate_sem(50, k = k)
      truth <- moral_graph(sem$dag, output = "matrix")
      for (args in list(list(), list(n = 1e9), list(method = "precision"),
                        list(method = "precision", n = 1e9), list(rule = "and"))) {
        g <- do.call(estimate_moral_graph, c(list(cov = sem$sigma), args))
        expect_identical(moral_amat(g), truth,
                         label = paste0("k = ", k, ", rep ", rep, ", ", deparse(args)))
      }
      g <- estimate_moral_graph(cov = sem$sigma)
      expect_true(all(same_sets(igraph::graph_attr(g, "blankets"), true_blankets(sem$dag))))
    }
  }
})

test_that("exact IAMB returns the support of the precision matrix of any covariance", {
  set.seed(7)
  d <- 25
  K <- matrix(0, d, d)
  K[upper.tri(K)] <- stats::rbinom(d * (d - 1) / 2, 1, 0.15) * stats::runif(d * (d - 1) / 2, 0.2, 1) *
    sample(c(-1, 1), d * (d - 1) / 2, replace = TRUE)
  K <- K + t(K)
  diag(K) <- rowSums(abs(K)) + 0.5
  sigma <- solve(K)
  support <- (K != 0) * 1
  diag(support) <- 0
  dimnames(support) <- list(paste0("X", 1:d), paste0("X", 1:d))
  expect_identical(moral_amat(estimate_moral_graph(cov = sigma)), support)
  expect_identical(moral_amat(estimate_moral_graph(cov = sigma, method = "precision")), support)
})

test_that("the incremental tests reproduce a plain implementation exactly", {
  for (seed in 1:3) {
    set.seed(seed)
    sem <- simulate_sem(15, k = 1.5, n = 300)
    g <- estimate_moral_graph(sem$x, alpha = 0.05)
    ref <- naive_iamb(stats::cov(sem$x), n = 300, alpha = 0.05)
    expect_identical(igraph::graph_attr(g, "blankets"), ref$blankets)
    expect_identical(igraph::graph_attr(g, "n_tests"), ref$n_tests)
  }
  set.seed(4)
  sem <- simulate_sem(12, k = 2, n = 200)
  g <- estimate_moral_graph(sem$x, alpha = 0.05, max_size = 2)
  ref <- naive_iamb(stats::cov(sem$x), n = 200, alpha = 0.05, cap = 2)
  expect_identical(igraph::graph_attr(g, "blankets"), ref$blankets)
})

test_that("method 'precision' tests each full-order partial correlation", {
  set.seed(11)
  sem <- simulate_sem(15, k = 1, n = 120)
  g <- estimate_moral_graph(sem$x, method = "precision", alpha = 0.05)
  P <- -stats::cov2cor(solve(stats::cov(sem$x)))
  z <- abs(atanh(P)) * sqrt(120 - (15 - 2) - 3)
  expected <- (2 * stats::pnorm(-z) <= 0.05) * 1
  diag(expected) <- 0
  expect_identical(unname(moral_amat(g)), unname(expected))
  expect_identical(igraph::graph_attr(g, "n_tests"), 15 * 14 / 2)
  expect_identical(igraph::graph_attr(g, "method"), "precision")
})

test_that("small graphs: a collider joins its parents", {
  nm <- c("A", "B", "C")
  B <- matrix(0, 3, 3, dimnames = list(nm, nm))
  B["A", "C"] <- 1
  B["B", "C"] <- -0.8
  sigma <- population_cov(B, c(1, 2, 1))
  g <- estimate_moral_graph(cov = sigma)
  expect_s3_class(g, "igraph")
  expect_false(igraph::is_directed(g))
  expect_identical(igraph::V(g)$name, nm)
  expect_equal(igraph::ecount(g), 3)
  # a chain has no such edge
  B2 <- matrix(0, 3, 3, dimnames = list(nm, nm))
  B2["A", "B"] <- 1
  B2["B", "C"] <- 1
  g2 <- estimate_moral_graph(cov = population_cov(B2, c(1, 1, 1)))
  expect_identical(igraph::graph_attr(g2, "blankets"), list(A = "B", B = c("A", "C"), C = "B"))
  expect_false(igraph::are_adjacent(g2, "A", "C"))
})

test_that("graph attributes record the settings", {
  set.seed(5)
  sem <- simulate_sem(10, k = 1, n = 200)
  g <- estimate_moral_graph(as.data.frame(sem$x), alpha = 0.05, rule = "or")
  a <- igraph::graph_attr(g)
  expect_named(a$blankets, colnames(sem$x))
  expect_true(all(vapply(a$blankets, is.character, logical(1))))
  expect_gt(a$n_tests, 0)
  expect_identical(a$method, "iamb")
  expect_identical(a$rule, "or")
  expect_identical(a$alpha, 0.05)
  expect_equal(a$n, 200)
  expect_identical(a$capped, character())
  # the raw blankets give the OR graph, and the AND graph is inside it
  m <- moral_amat(g)
  for (v in names(a$blankets)) expect_true(all(m[v, a$blankets[[v]]] == 1))
  m_and <- moral_amat(estimate_moral_graph(sem$x, alpha = 0.05))
  expect_true(all(m_and <= m))
  expect_true(isSymmetric(m_and))
})

test_that("max_size caps the blankets", {
  set.seed(6)
  sem <- simulate_sem(20, k = 3, n = 2000)
  g <- estimate_moral_graph(sem$x, max_size = 2)
  bl <- igraph::graph_attr(g, "blankets")
  expect_true(all(lengths(bl) <= 2))
  expect_gt(length(igraph::graph_attr(g, "capped")), 0)
  expect_identical(igraph::graph_attr(g, "max_size"), 2L)
  full <- estimate_moral_graph(sem$x)
  expect_gt(max(lengths(igraph::graph_attr(full, "blankets"))), 2)
})

test_that("a sample size too small for larger blankets caps them with a warning", {
  set.seed(8)
  sigma <- stats::cov(matrix(stats::rnorm(400), 40, 10))
  expect_warning(g <- estimate_moral_graph(cov = sigma, n = 6, alpha = 0.99),
                 class = "warning", regexp = "reached size 3")
  expect_true(all(lengths(igraph::graph_attr(g, "blankets")) <= 3))
})

test_that("precision and recall at n = 1000 (10 random 50-node ER1 models)", {
  skip_on_cran()
  set.seed(2025)
  res <- vapply(1:10, function(r) {
    sem <- simulate_sem(50, k = 1, n = 1000)
    truth <- moral_graph(sem$dag)
    c(skeleton_metrics(estimate_moral_graph(sem$x, rule = "and"), truth)[c("precision", "recall")],
      skeleton_metrics(estimate_moral_graph(sem$x, method = "precision"), truth)[c("precision", "recall")],
      skeleton_metrics(estimate_moral_graph(sem$x), truth)[c("precision", "recall")])
  }, numeric(6))
  means <- rowMeans(res)
  # printed by inst/bench/bench_iamb.R: 0.977, 0.925, 0.860, 0.970 (AND, precision support)
  expect_gt(means[1], 0.95)  # IAMB (AND) precision
  expect_gt(means[2], 0.90)  # IAMB (AND) recall
  expect_gt(means[3], 0.80)  # precision support: precision
  expect_gt(means[4], 0.95)  # precision support: recall
  # the default OR rule trades precision for recall, which CALM needs
  expect_true(all(res[6, ] >= res[2, ]))
  expect_gt(means[6], 0.95)  # IAMB (OR) recall
  expect_gt(means[5], 0.75)  # IAMB (OR) precision
})

test_that("blankets agree with bnlearn's IAMB where both are exact", {
  skip_if_not_installed("bnlearn")
  for (seed in 1:3) {
    set.seed(seed)
    sem <- simulate_sem(12, k = 1, n = 2e4)
    df <- as.data.frame(sem$x)
    ours <- igraph::graph_attr(estimate_moral_graph(sem$x, alpha = 1e-4), "blankets")
    theirs <- lapply(names(df), function(v) {
      bnlearn::learn.mb(df, v, method = "iamb", test = "zf", alpha = 1e-4)
    })
    names(theirs) <- names(df)
    expect_true(all(same_sets(ours, theirs)), label = paste("seed", seed))
    expect_true(all(same_sets(ours, true_blankets(sem$dag))), label = paste("seed", seed))
  }
  # bnlearn::iamb() reports the blankets of the graph it finally learns; here
  # that graph is right, so they agree with the AND graph.
  set.seed(1)
  sem <- simulate_sem(12, k = 1, n = 2e4)
  g <- estimate_moral_graph(sem$x, alpha = 1e-4)
  fit <- suppressWarnings(bnlearn::iamb(as.data.frame(sem$x), test = "zf", alpha = 1e-4))
  m <- moral_amat(g)
  nbrs <- lapply(rownames(m), function(v) colnames(m)[m[v, ] != 0])
  names(nbrs) <- rownames(m)
  expect_true(all(same_sets(nbrs, lapply(fit$nodes, `[[`, "mb"))))
})

test_that("at moderate n most blankets agree with bnlearn's", {
  skip_if_not_installed("bnlearn")
  agree <- vapply(1:3, function(seed) {
    set.seed(seed)
    sem <- simulate_sem(30, k = 1, n = 1000)
    df <- as.data.frame(sem$x)
    ours <- igraph::graph_attr(estimate_moral_graph(sem$x), "blankets")
    theirs <- lapply(names(df), function(v) {
      bnlearn::learn.mb(df, v, method = "iamb", test = "zf", alpha = 0.01)
    })
    names(theirs) <- names(df)
    mean(same_sets(ours, theirs))
  }, numeric(1))
  # the shrink phases differ (see ?estimate_moral_graph), so a few may not
  expect_gt(mean(agree), 0.9)
})

test_that("bad input gives errors that name the argument", {
  set.seed(9)
  sem <- simulate_sem(5, k = 1, n = 50)
  x <- sem$x
  err <- function(expr, pattern) {
    expect_error(expr, class = "calm_error_argument", regexp = pattern)
  }
  err(estimate_moral_graph(x, alpha = 0), "alpha")
  err(estimate_moral_graph(x, alpha = 1), "alpha")
  err(estimate_moral_graph(x, alpha = -0.1), "alpha")
  err(estimate_moral_graph(x, alpha = "a"), "alpha")
  err(estimate_moral_graph(x, alpha = NA), "alpha")
  err(estimate_moral_graph(x, method = "pc"), "method")
  err(estimate_moral_graph(x, rule = 1), "rule")
  err(estimate_moral_graph(x, max_size = 0), "max_size")
  err(estimate_moral_graph(x, max_size = 1.5), "max_size")
  err(estimate_moral_graph(x, zero_tol = -1), "zero_tol")
  err(estimate_moral_graph(), "x")
  err(estimate_moral_graph(x, cov = cov(x)), "cov")
  err(estimate_moral_graph(x, n = 50), "n")
  err(estimate_moral_graph("a"), "x")
  err(estimate_moral_graph(list(1, 2)), "x")
  err(estimate_moral_graph(x[, 1, drop = FALSE]), "x")
  x_na <- x
  x_na[3, 2] <- NA
  err(estimate_moral_graph(x_na), "x")
  x_const <- x
  x_const[, 3] <- 0.1
  err(estimate_moral_graph(x_const), "constant")
  err(estimate_moral_graph(cbind(x, copy = x[, 1])), "positive definite")
  # cbind() of an unnamed column leaves an empty name: refused up front
  err(estimate_moral_graph(cbind(x, x[, 1])), "column 6 with a missing or empty name")
  # n <= d is fine, n = 3 too few for any Fisher-z test
  err(estimate_moral_graph(x[1:3, ]), "too few for a Fisher-z test")
  err(estimate_moral_graph(x[1:3, 1:2]), "Fisher-z")
  err(estimate_moral_graph(x[1:6, ], method = "precision"), "n > d \\+ 1")

  s <- sem$sigma
  err(estimate_moral_graph(cov = s[, -1]), "cov")
  err(estimate_moral_graph(cov = s[1, 1, drop = FALSE]), "cov")
  s_asym <- s
  s_asym[1, 2] <- s_asym[1, 2] + 1
  err(estimate_moral_graph(cov = s_asym), "cov")
  s_sing <- s
  s_sing[, 5] <- s_sing[5, ] <- s[, 1]
  s_sing[5, 5] <- s[1, 1]
  err(estimate_moral_graph(cov = s_sing), "positive definite")
  err(estimate_moral_graph(cov = s, n = 3), "`n` = 3 is too few")
  err(estimate_moral_graph(cov = s, n = "a"), "n")
  err(estimate_moral_graph(cov = s, n = 6, method = "precision"), "n")
  expect_s3_class(estimate_moral_graph(cov = s, n = 7, method = "precision"), "igraph")
  expect_s3_class(estimate_moral_graph(cov = s, n = 4), "igraph")
  expect_identical(moral_amat(estimate_moral_graph(cov = s, n = 1e12)),
                   moral_amat(estimate_moral_graph(cov = s)))
})

test_that("the default rule is OR: an edge when either blanket holds the other node", {
  set.seed(12)
  sem <- simulate_sem(15, k = 1.5, n = 300)
  g <- estimate_moral_graph(sem$x)
  expect_identical(igraph::graph_attr(g, "rule"), "or")
  bl <- igraph::graph_attr(g, "blankets")
  nm <- colnames(sem$x)
  in_mb <- matrix(0, 15, 15, dimnames = list(nm, nm))
  for (v in nm) in_mb[v, bl[[v]]] <- 1
  expect_equal(unname(moral_amat(g)), unname(pmax(in_mb, t(in_mb))))
  g_and <- estimate_moral_graph(sem$x, rule = "and")
  expect_true(all(moral_amat(g_and) <= moral_amat(g)))
})

test_that("IAMB's targets split between processes give the same blankets", {
  set.seed(30)
  sem <- simulate_sem(40, k = 1, n = 500)
  corr <- stats::cor(sem$x)
  whole <- calm:::cpp_iamb(corr, 500, 0.01, 1e-8, 39L)
  parts <- lapply(list(c(1L, 13L), c(14L, 40L)), function(g) {
    calm:::cpp_iamb(corr, 500, 0.01, 1e-8, 39L, NULL, g[1], g[2])
  })
  for (t in 1:40) {
    part <- if (t <= 13) parts[[1]] else parts[[2]]
    expect_identical(part$blankets[[t]], whole$blankets[[t]])
    other <- if (t <= 13) parts[[2]] else parts[[1]]
    expect_length(other$blankets[[t]], 0L)
  }
  expect_identical(parts[[1]]$n_tests + parts[[2]]$n_tests, whole$n_tests)
  # on two threads, over all targets, a part of them, and with blankets
  # capped at 3 members and kept adjacencies
  keep <- matrix(0, 40, 40)
  keep[1, 2] <- keep[2, 1] <- 1
  for (args in list(list(39L, NULL, 1L, -1L), list(39L, NULL, 5L, 30L), list(3L, keep, 1L, -1L))) {
    one <- do.call(calm:::cpp_iamb, c(list(corr, 500, 0.01, 1e-8), args))
    two <- do.call(calm:::cpp_iamb, c(list(corr, 500, 0.01, 1e-8), args, list(threads = 2L)))
    expect_identical(two, one)
  }
  expect_true(any(one$capped))
  expect_identical(calm:::iamb_blankets(corr, 500, 0.01, 1e-8, 39L, threads = 2L), whole)
  # through the future plan, from IAMB_SPREAD_D variables on
  skip_on_cran()
  skip_if_not_installed("future")
  oplan <- future::plan(future::multisession, workers = 2)
  on.exit(future::plan(oplan), add = TRUE)
  spread <- calm:::iamb_blankets(corr, 500, 0.01, 1e-8, 39L, min_d = 10)
  expect_identical(spread$blankets, whole$blankets)
  expect_identical(spread$capped, whole$capped)
  expect_identical(spread$n_tests, whole$n_tests)
})

# Bad inputs (the table of helper-bad-input.R)
test_that("bad inputs to the moral graph end in clear errors, warnings or results", {
  expect_bad_inputs(bad_input_section({
err("estimate_moral_graph", "x", estimate_moral_graph("a"))
err("estimate_moral_graph", "x", estimate_moral_graph(1:10))
err("estimate_moral_graph", "x", estimate_moral_graph(array(0, c(4, 3, 2))))
err("estimate_moral_graph", "x", estimate_moral_graph(list(a = 1:5, b = 5:1)))
err("estimate_moral_graph", "x", estimate_moral_graph(data.frame(a = 1:4, b = letters[1:4])))
err("estimate_moral_graph", "x", estimate_moral_graph(matrix(complex(real = 1:8), 4)))
err("estimate_moral_graph", "x", estimate_moral_graph(with_na(x)))
err("estimate_moral_graph", "x", estimate_moral_graph(with_na(x, v = NaN)))
err("estimate_moral_graph", "x", estimate_moral_graph(with_na(x, v = Inf)))
err("estimate_moral_graph", "x", estimate_moral_graph(with_na(x, v = -Inf)))
err("estimate_moral_graph", "x", estimate_moral_graph(x[0, ]))
err("estimate_moral_graph", "x", estimate_moral_graph(x[1, , drop = FALSE]))
err("estimate_moral_graph", "x", estimate_moral_graph(x[, 1, drop = FALSE]))
err("estimate_moral_graph", "x", estimate_moral_graph(const_x))
err("estimate_moral_graph", "x", estimate_moral_graph(dup_x))
# n <= d: the tests condition on fewer than n - 3 variables
ok("estimate_moral_graph", estimate_moral_graph(x[1:5, ]), function(g) igraph::vcount(g) == 6)
ok("estimate_moral_graph", estimate_moral_graph(x[1:6, ]), function(g) igraph::vcount(g) == 6)
err("estimate_moral_graph", "x", estimate_moral_graph(cbind(x[1:5, ], copy = x[1:5, 1])),
    pattern = "X1 and copy")
ok("estimate_moral_graph", estimate_moral_graph(cov = stats::cov(x[1:5, ]), n = 5),
   function(g) igraph::vcount(g) == 6)
err("estimate_moral_graph", "x", estimate_moral_graph(x[1:3, 1:2]))  # too few for a test
err("estimate_moral_graph", "cov", estimate_moral_graph(x, cov = S))
err("estimate_moral_graph", "x", estimate_moral_graph())
err("estimate_moral_graph", "n", estimate_moral_graph(x, n = 200))
err("estimate_moral_graph", "cov", estimate_moral_graph(cov = "a"))
err("estimate_moral_graph", "cov", estimate_moral_graph(cov = S[, 1:3]))
err("estimate_moral_graph", "cov", estimate_moral_graph(cov = asym))
err("estimate_moral_graph", "cov", estimate_moral_graph(cov = singular))
err("estimate_moral_graph", "cov", estimate_moral_graph(cov = not_pd))
err("estimate_moral_graph", "cov", estimate_moral_graph(cov = -S))
err("estimate_moral_graph", "cov", estimate_moral_graph(cov = with_na(S, 3, 3, 0)))
err("estimate_moral_graph", "cov", estimate_moral_graph(cov = with_na(S)))
err("estimate_moral_graph", "cov", estimate_moral_graph(cov = with_na(S, 1, 1, Inf)))
err("estimate_moral_graph", "cov", estimate_moral_graph(cov = matrix(1)))
err("estimate_moral_graph", "cov", estimate_moral_graph(cov = matrix(0, 0, 0)))
err("estimate_moral_graph", "n", estimate_moral_graph(cov = S, n = 0))
err("estimate_moral_graph", "n", estimate_moral_graph(cov = S, n = 3))
err("estimate_moral_graph", "n", estimate_moral_graph(cov = S, n = NA))
err("estimate_moral_graph", "n", estimate_moral_graph(cov = S, n = "100"))
err("estimate_moral_graph", "n", estimate_moral_graph(cov = S, n = c(10, 20)))
err("estimate_moral_graph", "n", estimate_moral_graph(cov = S, n = 6, method = "precision"))
err("estimate_moral_graph", "alpha", estimate_moral_graph(x, alpha = 0))
err("estimate_moral_graph", "alpha", estimate_moral_graph(x, alpha = 1))
err("estimate_moral_graph", "alpha", estimate_moral_graph(x, alpha = -0.1))
err("estimate_moral_graph", "alpha", estimate_moral_graph(x, alpha = NA))
err("estimate_moral_graph", "alpha", estimate_moral_graph(x, alpha = c(0.01, 0.05)))
err("estimate_moral_graph", "method", estimate_moral_graph(x, method = "gs"))
err("estimate_moral_graph", "method", estimate_moral_graph(x, method = NA_character_))
err("estimate_moral_graph", "rule", estimate_moral_graph(x, rule = 1))
err("estimate_moral_graph", "max_size", estimate_moral_graph(x, max_size = 0))
err("estimate_moral_graph", "max_size", estimate_moral_graph(x, max_size = -1))
err("estimate_moral_graph", "max_size", estimate_moral_graph(x, max_size = 1.5))
err("estimate_moral_graph", "max_size", estimate_moral_graph(x, max_size = NA))
err("estimate_moral_graph", "max_size", estimate_moral_graph(x, max_size = 1e10))
err("estimate_moral_graph", "zero_tol", estimate_moral_graph(cov = S, zero_tol = -1))
err("estimate_moral_graph", "zero_tol", estimate_moral_graph(cov = S, zero_tol = 1))
warn("estimate_moral_graph", "Blankets reached size 1",
     estimate_moral_graph(cov = S, n = 4, alpha = 0.5), function(g) igraph::vcount(g) == 6)
ok("estimate_moral_graph", estimate_moral_graph(x * 1e8), function(g) same_graph(g, mg_ref))
ok("estimate_moral_graph", estimate_moral_graph(x * 1e-8), function(g) same_graph(g, mg_ref))
ok("estimate_moral_graph", estimate_moral_graph(sweep(x, 2, mixed_scale, "*")),
   function(g) same_graph(g, mg_ref))
ok("estimate_moral_graph", estimate_moral_graph(cov = S * 1e8), function(g) same_graph(g, mg_ref_cov))
ok("estimate_moral_graph", estimate_moral_graph(cov = S * 1e-8), function(g) same_graph(g, mg_ref_cov))
ok("estimate_moral_graph", estimate_moral_graph(cov = S * outer(mixed_scale, mixed_scale)),
   function(g) same_graph(g, mg_ref_cov))
ok("estimate_moral_graph", estimate_moral_graph(cov = as.data.frame(S)),
   function(g) same_graph(g, mg_ref_cov))
ok("estimate_moral_graph", estimate_moral_graph(x[1:7, ]), function(g) igraph::vcount(g) == 6)
ok("estimate_moral_graph", estimate_moral_graph(x[1:4, 1:2]), function(g) igraph::vcount(g) == 2)
ok("estimate_moral_graph", estimate_moral_graph(x > 0), function(g) igraph::vcount(g) == 6)
ok("estimate_moral_graph", estimate_moral_graph(cov = S, zero_tol = 0),
   function(g) igraph::vcount(g) == 6)
  }))
})

test_that("moral = \"auto\" is the learners' estimated default, NULL its former spelling", {
  expect_identical(formals(calm)$moral, "auto")
  expect_identical(formals(exact_search)$moral, "auto")
  set.seed(41)
  sem <- simulate_sem(6, k = 1, n = 300)
  # two rounds: the schedule is cut short, which calm() says in a warning
  auto <- suppressWarnings(calm(sem$x, moral = "auto", refine = "none", max_rounds = 2,
                                verbose = FALSE, seed = 1))
  null <- suppressWarnings(calm(sem$x, moral = NULL, refine = "none", max_rounds = 2,
                                verbose = FALSE, seed = 1))
  expect_identical(auto$amat, null$amat)
  expect_identical(auto$settings$moral, "iamb")
  b <- boss(cov = sem$sigma, moral = "auto", starts = 2)
  expect_identical(b$settings$moral, "precision")
  expect_error(boss(sem$x, moral = "nothing"), "moral", class = "calm_error_argument")
})
