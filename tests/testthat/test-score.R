# The decomposable l0-penalised Gaussian score (R/score.R, src/search_score.cpp).

to_in_edges <- function(A) lapply(seq_len(nrow(A)), function(j) which(A[, j] != 0))

test_that("local scores match a direct regression and pcalg's GaussL0penObsScore", {
  set.seed(11)
  sem <- simulate_sem(7, k = 1.5, n = 300)
  x <- sem$x
  n <- nrow(x)
  S <- cov(x) * (n - 1) / n
  lam <- 0.01
  for (j in 1:7) {
    cand <- setdiff(1:7, j)[1:4]
    tab <- calm:::cpp_all_subset_scores(S, j, cand, lam)
    for (mask in c(0, 3, 5, 15)) {
      pa <- cand[bitwAnd(mask, 2^(0:3)) != 0]
      rv <- if (length(pa)) S[j, j] - S[j, pa] %*% solve(S[pa, pa], S[pa, j]) else S[j, j]
      expect_equal(tab[mask + 1], 0.5 * log(drop(rv)) + lam * length(pa), tolerance = 1e-10)
    }
  }
  skip_if_not_installed("pcalg")
  sc <- new("GaussL0penObsScore", data = x, lambda = lam * n, intercept = TRUE)
  dag <- as_amat(sem$B)
  empty <- matrix(0, 7, 7)
  # pcalg's score is -n times calm's, up to a constant that the graph does not change
  d_calm <- score_dag(dag, x, edge_penalty = lam, standardize = FALSE) -
    score_dag(empty, x, edge_penalty = lam, standardize = FALSE)
  d_pcalg <- sc$global.score.int(to_in_edges(dag)) - sc$global.score.int(to_in_edges(empty))
  expect_equal(as.numeric(d_calm) * -n, d_pcalg, tolerance = 1e-8)
})

test_that("local scores of small parent sets (scored afresh) and large ones (cached) match a regression", {
  # sets of at most 4 parents skip the cache (LocalScore::kUncachedParents)
  set.seed(12)
  x <- matrix(rnorm(200 * 9), 200, 9) %*% matrix(runif(81, -0.5, 0.5), 9) + matrix(rnorm(1800), 200)
  n <- nrow(x)
  S <- cov(x) * (n - 1) / n
  dag <- matrix(0, 9, 9)
  dag[1:6, 9] <- 1
  dag[1:4, 8] <- 1
  dag[3, 7] <- 1
  lam <- 0.02
  term <- function(j) {
    pa <- which(dag[, j] != 0)
    rv <- if (length(pa)) S[j, j] - S[j, pa] %*% solve(S[pa, pa], S[pa, j]) else S[j, j]
    0.5 * log(drop(rv)) + lam * length(pa)
  }
  expected <- sum(vapply(1:9, term, numeric(1)))
  expect_equal(as.numeric(score_dag(dag, x, edge_penalty = lam, standardize = FALSE)), expected,
               tolerance = 1e-10)
})

test_that("score_dag gives equivalent DAGs and their CPDAG the same score", {
  set.seed(3)
  sem <- simulate_sem(8, k = 1, n = 400)
  s_dag <- score_dag(sem$B, sem$x)
  expect_equal(as.numeric(score_dag(dag_to_cpdag(sem$dag), sem$x)), as.numeric(s_dag))
  expect_lt(as.numeric(s_dag), as.numeric(score_dag(matrix(0, 8, 8), sem$x)))
  expect_equal(bic_lambda(1000, 2), 2 * log(1000) / 2000)
  expect_error(score_dag(sem$B, sem$x, edge_penalty = -1), "edge_penalty")
  expect_error(bic_lambda(1), "n")
  cyc <- matrix(c(0, 1, 1, 0), 2)
  expect_error(score_dag(cbind(c(0, 1), c(0, 0)), cov = diag(3)), "graph|data")
})

test_that("ebic_lambda() is the BIC plus gamma log(d (d - 1)) / n, and calm() can score with either", {
  expect_equal(as.numeric(ebic_lambda(1000, 50, gamma = 0)), bic_lambda(1000))
  expect_equal(as.numeric(ebic_lambda(1000, 50, gamma = 1, discount = 2)),
               bic_lambda(1000, 2) + log(2450) / 1000)
  # its discount attribute gives the same penalty through bic_lambda()
  for (d in c(5, 50, 500)) {
    e <- ebic_lambda(2000, d)
    expect_equal(bic_lambda(2000, attr(e, "discount")), as.numeric(e))
  }
  # the extra charge grows with d, so the equivalent discount does
  disc <- vapply(c(10, 100, 1000), function(d) attr(ebic_lambda(1000, d), "discount"), 0)
  expect_true(all(diff(disc) > 0))
  expect_error(ebic_lambda(1000, 1), "d")
  expect_error(ebic_lambda(1000, 10, gamma = -1), "gamma")
  set.seed(6)
  sem <- simulate_sem(8, k = 1, n = 300)
  fb <- calm(sem$x, penalty_discount = 3, verbose = FALSE)
  expect_equal(fb$refine$lambda, bic_lambda(300, 3))
  fe <- calm(sem$x, search = search_control(penalty = "ebic", gamma = 0), verbose = FALSE)
  expect_equal(fe$refine$lambda, bic_lambda(300, 1))
  expect_error(search_control(gamma = -1), "`gamma`")
  expect_error(search_control(gamma = "a"), "`gamma`")
})

test_that("edge_penalty is the score's penalty per edge; lambda1 still works, deprecated", {
  set.seed(31)
  sem <- simulate_sem(5, k = 1, n = 200)
  new <- score_dag(sem$B, sem$x, edge_penalty = 0.02)
  withr::local_options(rlib_warning_verbosity = "verbose")
  expect_warning(old <- score_dag(sem$B, sem$x, lambda1 = 0.02), "edge_penalty",
                 class = "calm_warning_deprecated")
  expect_identical(old, new)
  expect_error(suppressWarnings(score_dag(sem$B, sem$x, lambda1 = 0.02, edge_penalty = 0.1)),
               "lambda1", class = "calm_error_argument")
  expect_error(score_dag(sem$B, sem$x, lamda = 1), "lamda", class = "calm_error_argument")
})

test_that("lambda1 has one meaning: CALM's l0 weight, an argument of calm_control() only", {
  ns <- asNamespace("calm")
  has_lambda1 <- Filter(function(fn) {
    f <- get(fn, envir = ns)
    is.function(f) && "lambda1" %in% names(formals(f))
  }, getNamespaceExports("calm"))
  expect_identical(has_lambda1, "calm_control")
  expect_identical(calm_control()$lambda1, 0.005)
  expect_true("l1_weight" %in% names(golem_control()))
  expect_true("l1_weight" %in% names(notears_control()))
  expect_true("edge_penalty" %in% names(formals(boss)))
  expect_true("edge_penalty" %in% names(formals(exact_search)))
})
