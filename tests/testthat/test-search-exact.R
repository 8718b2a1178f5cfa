# exact_search(): the dynamic programme against brute force over every DAG,
# recovery of the true CPDAG from population covariances, and bad input.

# All DAGs on d nodes as integer codes: bit (i - 1) * d + (j - 1) is the edge
# i -> j. Every DAG is consistent with some order, in which each node's
# parents are any subset of the nodes before it; duplicates are removed.
all_dag_codes <- function(d) {
  perms <- function(v) {
    if (length(v) <= 1L) return(list(v))
    do.call(c, lapply(seq_along(v), function(k) lapply(perms(v[-k]), function(p) c(v[k], p))))
  }
  n_pairs <- d * (d - 1) / 2
  subsets <- as.matrix(expand.grid(rep(list(0:1), n_pairs)))
  codes <- lapply(perms(seq_len(d)), function(p) {
    pos <- 0
    for (a in seq_len(d - 1L)) for (b in (a + 1L):d) {
      pos <- c(pos, (p[a] - 1) * d + (p[b] - 1))
    }
    drop(subsets %*% 2^pos[-1])
  })
  sort(unique(unlist(codes)))
}

# Score of every DAG (codes) by an independent R implementation of
# 1/2 log(residual variance) + lambda |pa|, from a table of local scores.
brute_force_scores <- function(codes, sigma, lambda) {
  d <- nrow(sigma)
  total <- numeric(length(codes))
  for (j in seq_len(d)) {
    others <- setdiff(seq_len(d), j)
    # parent mask of j among `others` for every DAG
    pmask <- numeric(length(codes))
    for (b in seq_along(others)) {
      bit <- (others[b] - 1) * d + (j - 1)
      pmask <- pmask + ((codes %/% 2^bit) %% 2) * 2^(b - 1)
    }
    local <- vapply(0:(2^(d - 1) - 1), function(m) {
      pa <- others[bitwAnd(m, 2^(seq_along(others) - 1)) != 0]
      rv <- sigma[j, j]
      if (length(pa)) rv <- rv - sum(sigma[j, pa] * solve(sigma[pa, pa, drop = FALSE], sigma[pa, j]))
      0.5 * log(rv) + lambda * length(pa)
    }, numeric(1))
    total <- total + local[pmask + 1]
  }
  total
}

code_of <- function(amat) {
  d <- nrow(amat)
  idx <- which(amat != 0, arr.ind = TRUE)
  sum(2^((idx[, 1] - 1) * d + (idx[, 2] - 1)))
}

# Codes that fit inside a symmetric mask.
inside_mask <- function(codes, mask) {
  d <- nrow(mask)
  bad <- which(mask == 0 & row(mask) != col(mask), arr.ind = TRUE)
  keep <- rep(TRUE, length(codes))
  for (r in seq_len(nrow(bad))) {
    bit <- (bad[r, 1] - 1) * d + (bad[r, 2] - 1)
    keep <- keep & ((codes %/% 2^bit) %% 2) == 0
  }
  keep
}

test_that("the exact search finds the brute-force optimum over all 5-node DAGs", {
  codes <- all_dag_codes(5)
  expect_length(codes, 29281L)
  problems <- list()
  for (seed in 1:3) {
    sem <- withr::with_seed(seed, simulate_sem(5, k = 1.5, n = 200))
    problems[[length(problems) + 1L]] <- list(sem = sem, cov = stats::cov2cor(sem$sigma),
                                              lambda = 0.005)
    s <- stats::cov(sem$x) * 199 / 200
    problems[[length(problems) + 1L]] <- list(sem = sem, cov = stats::cov2cor(s),
                                              lambda = bic_lambda(200))
  }
  for (pr in problems) {
    sem <- pr$sem
    scores <- brute_force_scores(codes, pr$cov, pr$lambda)
    masks <- list(none = "none", true = moral_graph(sem$dag, output = "matrix"))
    # a mask that misses a true edge, so the restriction binds
    m <- masks$true
    e <- which(m != 0 & upper.tri(m), arr.ind = TRUE)[1, ]
    m[e[1], e[2]] <- m[e[2], e[1]] <- 0
    masks$cut <- m
    for (k in names(masks)) {
      fit <- exact_search(cov = pr$cov, edge_penalty = pr$lambda, moral = masks[[k]])
      keep <- if (k == "none") rep(TRUE, length(codes)) else inside_mask(codes, masks[[k]])
      best <- min(scores[keep])
      expect_equal(fit$score, best, tolerance = 1e-10, label = paste("optimum,", k))
      # the returned DAG attains it, lies inside the mask, and score_dag agrees
      expect_true(is_dag(fit))
      expect_equal(scores[match(code_of(fit$amat), codes)], best, tolerance = 1e-10)
      if (k != "none") expect_true(all(fit$amat[masks[[k]] == 0] == 0))
      expect_equal(as.numeric(score_dag(fit, cov = pr$cov, edge_penalty = pr$lambda)), fit$score,
                   tolerance = 1e-10)
      # the order is topological for the DAG
      ord <- match(fit$order, colnames(fit$amat))
      expect_setequal(ord, 1:5)
      expect_true(all(fit$amat[ord, ord][lower.tri(fit$amat)] == 0))
    }
  }
})

test_that("with the true moral graph the exact search recovers the true CPDAG", {
  for (case in list(c(8, 1), c(9, 2), c(10, 3), c(10, 4))) {
    sem <- withr::with_seed(case[2], simulate_sem(case[1], k = 1))
    fit <- exact_search(cov = sem$sigma, edge_penalty = 0.005, moral = moral_graph(sem$dag))
    expect_equal(shd_cpdag(fit, sem$B), 0, label = sprintf("SHD, d = %d seed %d", case[1], case[2]))
    # the optimum is no worse than the truth
    truth <- score_dag(sem$B, cov = sem$sigma, edge_penalty = 0.005)
    expect_lte(fit$score, as.numeric(truth) + 1e-10)
    expect_s3_class(fit, "calm_fit")
    expect_identical(fit$method, "exact")
  }
})

test_that("the exact search handles one variable and data input", {
  # the R checks ask for two variables; the C++ search takes one
  r <- calm:::cpp_exact_search(matrix(4, 1, 1), matrix(0, 1, 1), 0.005, 1e9)
  expect_equal(r$amat, matrix(0L, 1, 1))
  expect_equal(r$score, log(4) / 2)
  expect_identical(r$order, 1L)
  sem <- withr::with_seed(5, simulate_sem(6, k = 1, n = 300))
  fit <- exact_search(sem$x)
  expect_identical(fit$settings$moral, "iamb")
  expect_equal(as.numeric(score_dag(fit, sem$x)), fit$score, tolerance = 1e-10)
})

test_that("exact_search() rejects bad input with errors that name the argument", {
  sem <- withr::with_seed(1, simulate_sem(6, k = 1))
  expect_error(exact_search(cov = sem$sigma, max_d = 5), "max_d", class = "calm_error_argument")
  expect_error(exact_search(cov = sem$sigma, max_d = 26), "max_d", class = "calm_error_argument")
  expect_error(exact_search(cov = sem$sigma, edge_penalty = -1), "edge_penalty",
               class = "calm_error_argument")
  expect_error(exact_search(cov = sem$sigma, edge_penalty = "a"), "edge_penalty",
               class = "calm_error_argument")
  expect_error(exact_search(cov = sem$sigma, moral = diag(5)), "moral",
               class = "calm_error_argument")
  expect_error(exact_search(cov = sem$sigma, moral = "pc"), "moral",
               class = "calm_error_argument")
  expect_error(exact_search(cov = sem$sigma, moral = sem$B != 0), "moral",
               class = "calm_error_argument")
  expect_error(exact_search(cov = sem$sigma, max_gb = 1e-6), "max_gb",
               class = "calm_error_argument")
  expect_error(exact_search(), "cov", class = "calm_error_argument")
})

test_that("the C++ search checks dimensions and memory before allocating", {
  s <- diag(3)
  expect_error(calm:::cpp_exact_search(s, matrix(1, 2, 2), 0.005, 1e9), "differ in size")
  expect_error(calm:::cpp_exact_search(s, matrix(c(0, 1, 0, 0, 0, 0, 0, 0, 0), 3), 0.005, 1e9),
               "symmetric")
  expect_error(calm:::cpp_exact_search(s, matrix(1, 3, 3), 0.005, 100), "needs about")
  big <- diag(26)
  expect_error(calm:::cpp_exact_search(big, matrix(1, 26, 26), 0.005, 1e12), "limited to 25")
  expect_equal(calm:::cpp_exact_search_bytes(matrix(1, 3, 3) - diag(3)),
               9 * 2^3 + 3 * 9 * 2^2 + 3 * 4096)
})

# Bad inputs (the table of helper-bad-input.R)
test_that("bad inputs to the exact search and the score end in clear errors, warnings or results", {
  expect_bad_inputs(bad_input_section({
err("exact_search", "cov", exact_search())
err("exact_search", "x", exact_search("a"))
err("exact_search", "x", exact_search(with_na(x)))
err("exact_search", "cov", exact_search(cov = asym))
err("exact_search", "cov", exact_search(x, cov = S))
err("exact_search", "edge_penalty", exact_search(cov = S, edge_penalty = -1))
err("exact_search", "edge_penalty", exact_search(cov = S, edge_penalty = NA))
err("exact_search", "edge_penalty", exact_search(cov = S, edge_penalty = Inf))
err("exact_search", "standardize", exact_search(cov = S, standardize = NA))
err("exact_search", "max_d", exact_search(cov = S, max_d = 26))
err("exact_search", "max_d", exact_search(cov = S, max_d = 0))
err("exact_search", "cov", exact_search(cov = S, max_d = 5))
err("exact_search", "max_gb", exact_search(cov = S, max_gb = 0))
err("exact_search", "max_gb", exact_search(cov = S, max_gb = 1e-9))
err("exact_search", "moral", exact_search(cov = S, moral = diag(3)))
err("exact_search", "moral", exact_search(cov = S, moral = moral_dir))
err("exact_search", "moral", exact_search(cov = S, moral = "pc"))
ok("exact_search", exact_search(cov = S, moral = mg_true),
   function(f) inherits(f, "calm_fit") && is_dag(f) && is.finite(f$score))
ok("exact_search", exact_search(x, moral = "none", edge_penalty = 0),
   function(f) inherits(f, "calm_fit") && is_dag(f) && is.finite(f$score))
err("score_dag", "graph", score_dag(cyc, cov = S))
err("score_dag", "edge_penalty", score_dag(A, cov = S, edge_penalty = -1))
err("score_dag", "cov", score_dag(A, cov = asym))
ok("score_dag", score_dag(A, cov = S), function(v) is.numeric(v) && is.finite(v))
ok("score_dag", score_dag(A, x[1:5, ]), function(v) is.numeric(v) && is.finite(v))
err("score_dag", "x", score_dag(A, cbind(x[1:5, ], const = 3)), pattern = "const")
err("bic_lambda", "n", bic_lambda(1))
err("bic_lambda", "discount", bic_lambda(100, discount = -1))
ok("bic_lambda", bic_lambda(100), function(v) isTRUE(all.equal(v, log(100) / 200)))
err("select_penalty", "x", select_penalty("a"))
err("select_penalty", "x", select_penalty(with_na(x)))
err("select_penalty", "grid", select_penalty(x, grid = c(-1, 2)))
err("select_penalty", "grid", select_penalty(x, grid = numeric()))
err("select_penalty", "grid", select_penalty(x, grid = c(1, NA)))
err("select_penalty", "folds", select_penalty(x, folds = 1))
err("select_penalty", "folds", select_penalty(x, folds = nrow(x)))
ok("select_penalty", select_penalty(x, grid = c(2, 4), folds = 2),
   function(p) inherits(p, "calm_penalty") && p$discount %in% c(2, 4))
err("boss", "penalty_discount", boss(x, control = search_control(penalty_discount = "aic")))
err("boss", "penalty_grid", boss(x, control = search_control(penalty_discount = "cv", penalty_grid = -1)))
err("boss", "penalty_folds", boss(x, control = search_control(penalty_discount = "cv", penalty_folds = 1)))
err("ebic_lambda", "n", ebic_lambda(1, 10))
err("ebic_lambda", "d", ebic_lambda(100, NA))
err("ebic_lambda", "gamma", ebic_lambda(100, 10, gamma = Inf))
err("ebic_lambda", "discount", ebic_lambda(100, 10, discount = -1))
ok("ebic_lambda", ebic_lambda(100, 2, gamma = 0), function(v) isTRUE(all.equal(as.numeric(v), log(100) / 200)))
  }))
})
