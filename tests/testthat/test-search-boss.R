# boss(): best order score search (R/search-boss.R, src/search_boss.cpp,
# src/search_order.cpp, src/search_grow_shrink.cpp).


to_in_edges <- function(A) lapply(seq_len(nrow(A)), function(j) which(A[, j] != 0))
test_that("boss() recovers the true CPDAG from population covariances (50 nodes, ER1 and ER4)", {
  skip_on_cran()
  for (k in c(1, 4)) {
    for (rep in 1:5) {
      set.seed(100 * k + rep)
      sem <- simulate_sem(50, k = k)
      # a penalty small enough that every true edge pays for itself: with the
      # default 0.001, one edge of ER4 graph 3 lowers the score by less than
      # its penalty, so the optimum (which boss finds) lacks it
      fit <- boss(cov = sem$sigma, starts = 2, edge_penalty = 1e-5)
      expect_identical(shd_cpdag(fit, sem$B), 0L, info = sprintf("ER%d, graph %d", k, rep))
    }
  }
})

test_that("boss() reaches the exact optimum of the score on small problems", {
  hits <- 0
  for (rep in 1:15) {
    set.seed(500 + rep)
    sem <- simulate_sem(9, k = 2, n = 300)
    lam <- bic_lambda(300, 2)
    ex <- exact_search(sem$x, edge_penalty = lam, moral = "none")
    for (limit in c(0, 14)) {
      fit <- boss(sem$x, starts = 3, control = search_control(exact_parents_max = limit))
      # never better than the optimum; its score is the score of its graph
      expect_gte(fit$score, ex$score - 1e-9)
      expect_equal(fit$score, as.numeric(score_dag(fit, sem$x, edge_penalty = lam)), tolerance = 1e-9)
      if (limit == 14) hits <- hits + (fit$score < ex$score + 1e-9)
    }
  }
  expect_gte(hits, 13)
})

test_that("boss()'s score is pcalg's GaussL0penObsScore up to the factor -n", {
  skip_if_not_installed("pcalg")
  set.seed(21)
  sem <- simulate_sem(8, k = 2, n = 400)
  fit <- boss(sem$x, starts = 2, standardize = FALSE)
  lam <- fit$settings$edge_penalty
  n <- nrow(sem$x)
  sc <- new("GaussL0penObsScore", data = sem$x, lambda = lam * n, intercept = TRUE)
  empty <- matrix(0, 8, 8)
  d_calm <- fit$score - as.numeric(score_dag(empty, sem$x, edge_penalty = lam, standardize = FALSE))
  d_pcalg <- sc$global.score.int(to_in_edges(fit$amat)) - sc$global.score.int(to_in_edges(empty))
  expect_equal(d_calm * -n, d_pcalg, tolerance = 1e-6)
})

test_that("boss() is reproducible with set.seed(), takes given start orders and records every start", {
  set.seed(2)
  sem <- simulate_sem(12, k = 2, n = 500)
  set.seed(7)
  a <- boss(sem$x, starts = 3)
  set.seed(7)
  b <- boss(sem$x, starts = 3)
  expect_identical(a$amat, b$amat)
  expect_identical(a$starts, b$starts)
  expect_s3_class(a, "calm_fit")
  expect_identical(a$method, "boss")
  expect_identical(nrow(a$starts), 3L)
  expect_identical(sum(a$starts$best), 1L)
  expect_equal(min(a$starts$score), a$score)
  expect_true(all(a$starts$score <= a$starts$order_score + 1e-12))
  expect_true(calm:::cpp_is_dag(a$amat))
  nm <- colnames(sem$x)
  c1 <- boss(sem$x, starts = list(rev(nm), seq_along(nm)))
  expect_identical(nrow(c1$starts), 2L)
  expect_output(print(a), "BOSS \\(best of 3 starts")
  # the penalty: BIC with penalty discount 2 by default (n > d), or edge_penalty as given
  expect_equal(a$settings$edge_penalty, bic_lambda(500, 2))
  sparse <- boss(sem$x, starts = 1, edge_penalty = 0.05)
  expect_lte(sum(sparse$amat), sum(a$amat))
})

test_that("boss() restricted to a moral graph keeps its edges inside it", {
  set.seed(3)
  sem <- simulate_sem(12, k = 2, n = 500)
  m <- moral_graph(sem$B, output = "matrix")
  fit <- boss(sem$x, starts = 2, moral = m)
  expect_true(all(fit$amat[m == 0] == 0))
  fit2 <- boss(sem$x, starts = 2, moral = "iamb")
  expect_s3_class(fit2$moral, "igraph")
  expect_identical(fit2$settings$moral, "iamb")
})

test_that("boss() gives the same result when its starts run on future workers", {
  skip_on_cran()
  skip_if_not_installed("future")
  set.seed(4)
  sem <- simulate_sem(10, k = 2, n = 500)
  set.seed(9)
  seq_fit <- boss(sem$x, starts = 4)
  old <- future::plan("multisession", workers = 2)
  on.exit(future::plan(old), add = TRUE)
  set.seed(9)
  par_fit <- boss(sem$x, starts = 4)
  expect_identical(par_fit$amat, seq_fit$amat)
  expect_identical(par_fit$starts, seq_fit$starts)
})

test_that("grow_ratio < 1 finds a parent pair that no single parent pays for", {
  # X3 = X1 - X2 + noise with X1 and X2 strongly correlated: each parent alone
  # explains little of X3 (a fit gain of 0.012 against a penalty of 0.05), the
  # two together almost all of it
  rho <- 0.95
  s3 <- 0.01
  S <- matrix(c(1, rho, 1 - rho,
                rho, 1, rho - 1,
                1 - rho, rho - 1, 2 - 2 * rho + s3), 3, 3)
  mask <- matrix(1, 3, 3) - diag(3)
  lam <- 0.05
  # start order 1, 2, 3; exact_parents_max 0: grow-shrink trees for every node
  plain <- calm:::cpp_order_local_search(S, mask, lam, 1:3,
      order_options(max_sweeps = 1L, exact_parents_max = 0L, grow_ratio = 1))
  grown <- calm:::cpp_order_local_search(S, mask, lam, 1:3,
      order_options(max_sweeps = 1L, exact_parents_max = 0L, grow_ratio = 0.1))
  node12 <- 0 + 0.5 * log(1 - rho^2) + lam
  expect_equal(plain$score_start, node12 + 0.5 * log(S[3, 3]), tolerance = 1e-12)
  expect_equal(grown$score_start, node12 + 0.5 * log(s3) + 2 * lam, tolerance = 1e-12)
  expect_lt(grown$score, plain$score_start)
  # with exact tables the grow step plays no part
  ex1 <- calm:::cpp_order_local_search(S, mask, lam, 1:3,
      order_options(max_sweeps = 1L, exact_parents_max = 2L, grow_ratio = 1))
  ex2 <- calm:::cpp_order_local_search(S, mask, lam, 1:3,
      order_options(max_sweeps = 1L, exact_parents_max = 2L, grow_ratio = 0.1))
  expect_identical(ex1$score_start, ex2$score_start)
  expect_equal(ex1$score_start, grown$score_start, tolerance = 1e-12)
})

test_that("grow-shrink trees choose the greedy grow-shrink parents of any allowed set", {
  # one common factor: every candidate improves a node's empty parent set,
  # so the root has more children than a tree node keeps sorted (16), and
  # the early nodes of an order allow only a few of them (a walk that took
  # the first allowed child of the unsorted rest instead of the best one
  # failed on three of these five orders)
  set.seed(23)
  d <- 60
  x <- outer(rnorm(2000), runif(d, 0.5, 1.5)) + matrix(rnorm(2000 * d), 2000)
  sigma <- stats::cov(x)
  lam <- 0.01
  local <- function(j, pa) {
    rv <- if (length(pa)) {
      sigma[j, j] - sum(sigma[j, pa] * solve(sigma[pa, pa, drop = FALSE], sigma[pa, j]))
    } else sigma[j, j]
    0.5 * log(rv) + lam * length(pa)
  }
  # the greedy grow step among `allowed`, then the greedy shrink step
  grow_shrink <- function(j, allowed) {
    pa <- integer()
    cur <- local(j, pa)
    repeat {
      free <- setdiff(allowed, pa)
      if (!length(free)) break
      s <- vapply(free, function(c) local(j, c(pa, c)), 0)
      if (!(min(s) < cur)) break
      pa <- c(pa, free[which.min(s)])
      cur <- min(s)
    }
    while (length(pa)) {
      s <- vapply(seq_along(pa), function(a) local(j, pa[-a]), 0)
      if (!(min(s) < cur)) break
      pa <- pa[-which.min(s)]
      cur <- min(s)
    }
    cur
  }
  mask <- matrix(1, d, d) - diag(d)
  for (r in 1:5) {
    ord <- sample.int(d)
    ref <- sum(vapply(seq_len(d), function(p) grow_shrink(ord[p], ord[seq_len(p - 1)]), 0))
    res <- calm:::cpp_order_local_search(sigma, mask, lam, ord,
        order_options(max_sweeps = 1L, exact_parents_max = 0L, grow_ratio = 1))
    expect_equal(res$score_start, ref, tolerance = 1e-9)
  }
})

test_that("with grow_ratio < 1 an order's best DAG never scores worse than with plain grow-shrink", {
  set.seed(41)
  sem <- simulate_sem(30, k = 4, n = 1000)
  sigma <- cov2cor(stats::cov(sem$x))
  mask <- matrix(1, 30, 30) - diag(30)
  lam <- as.numeric(ebic_lambda(1000, 30))
  better <- 0
  for (r in 1:5) {
    ord <- sample.int(30)
    plain <- calm:::cpp_order_local_search(sigma, mask, lam, ord,
        order_options(max_sweeps = 1L, exact_parents_max = 0L, grow_ratio = 1))
    grown <- calm:::cpp_order_local_search(sigma, mask, lam, ord,
        order_options(max_sweeps = 1L, exact_parents_max = 0L, grow_ratio = 0.5))
    expect_lte(grown$score_start, plain$score_start + 1e-12)
    # (the trees update residual variances by rank-one steps)
    expect_equal(grown$score, as.numeric(score_dag(grown$dag, cov = sigma, edge_penalty = lam)),
                 tolerance = 1e-8)
    better <- better + (grown$score_start < plain$score_start - 1e-12)
  }
  # the longer grow step matters on dense graphs
  expect_gt(better, 0)
  # boss() records the ratio (default 1, plain grow-shrink)
  fit <- boss(sem$x, edge_penalty = lam, starts = 2, control = search_control(grow_ratio = 0.5))
  expect_identical(fit$settings$grow_ratio, 0.5)
  expect_identical(boss(sem$x, edge_penalty = lam, starts = 1)$settings$grow_ratio, 1)
})

test_that("kicks from the best order never end worse and escape a poor start", {
  set.seed(43)
  sem <- simulate_sem(25, k = 4, n = 1000)
  sigma <- cov2cor(stats::cov(sem$x))
  mask <- matrix(1, 25, 25) - diag(25)
  lam <- as.numeric(ebic_lambda(1000, 25))
  better <- 0
  for (r in 1:4) {
    start <- matrix(sample.int(25), 25)
    kicks <- calm:::draw_kicks(25, 15, 4)
    plain <- calm:::boss_search(sigma, mask, lam, start, 100L, 0L, TRUE, 1)
    kicked <- calm:::boss_search(sigma, mask, lam, start, 100L, 0L, TRUE, 1, kicks, c(1, 0.5))
    expect_length(kicked$kick_scores, 15)
    expect_lte(kicked$score, plain$score + 1e-12)
    expect_lte(kicked$kicks_improved, 15)
    expect_identical(kicked$kicks_improved > 0, kicked$score < plain$score - 1e-10)
    # the graph returned is the one scored
    expect_equal(kicked$score, as.numeric(score_dag(kicked$dag, cov = sigma, edge_penalty = lam)),
                 tolerance = 1e-8)
    better <- better + (kicked$score < plain$score - 1e-10)
  }
  # from a single random start on a dense graph the kicks find better graphs
  expect_gt(better, 0)
  # malformed kicks are refused by the C++ code with an R error
  expect_error(calm:::boss_search(sigma, mask, lam, start, 100L, 0L, TRUE, 1, matrix(1L, 3, 2)),
               "even number")
  expect_error(calm:::boss_search(sigma, mask, lam, start, 100L, 0L, TRUE, 1,
                                  matrix(c(1L, 26L), 2, 1)), "0..d-1")
  # the C++ entries read their options by name: a missing or unknown one is an error
  opts <- list(max_sweeps = 100L, tol = 1e-10, exact_parents_max = 0L, bes = TRUE, grow_ratio = 1,
               kick_grow_ratios = numeric(), cache_budget = 0)
  expect_error(calm:::cpp_boss(sigma, mask, lam, start, opts[-1], calm:::no_kicks()),
               "option 'max_sweeps' is missing")
  expect_error(calm:::cpp_boss(sigma, mask, lam, start, c(opts, sweeps = 1), calm:::no_kicks()),
               "unknown option 'sweeps'")
  ord <- start[, 1]
  expect_error(calm:::cpp_order_local_search(sigma, mask, lam, ord, order_options(1L, 0L)[-2]),
               "cpp_order_local_search: option 'tol' is missing")
  expect_error(calm:::cpp_order_local_search(sigma, mask, lam, ord, opts),
               "cpp_order_local_search: unknown option 'bes'")
  # boss(kicks = ): the same starts (drawn first), then the kicks; never worse
  set.seed(7)
  f0 <- boss(sem$x, edge_penalty = lam, starts = 2)
  set.seed(7)
  f1 <- boss(sem$x, edge_penalty = lam, starts = 2, control = search_control(kicks = 10, kick_size = 3))
  set.seed(7)
  f2 <- boss(sem$x, edge_penalty = lam, starts = 2, control = search_control(kicks = 10, kick_size = 3))
  expect_identical(f0$starts, f1$starts)
  expect_lte(f1$score, f0$score + 1e-12)
  expect_identical(f1$kicks_improved > 0, f1$score < f0$score - 1e-10)
  expect_identical(f0$kicks_improved, 0L)
  expect_identical(as_amat(f1), as_amat(f2))
  expect_equal(f1$score, as.numeric(score_dag(f1, cov = cov2cor(stats::cov(sem$x)), edge_penalty = lam)),
               tolerance = 1e-8)
  expect_identical(f1$settings$kicks, 10L)
})

test_that("kicks on a helper thread give the graph, scores and record of kicks one by one", {
  # each thread takes the next kick from the best order at that moment; a
  # kick that started before a kick ahead of it improved the order runs
  # again (which kicks that hits depends on the threads' timing: several
  # data sets and settings)
  improved <- 0L
  for (seed in 1:5) {
    cs <- boss_case(seed, 60, 2, 120, 1)
    kicks <- calm:::draw_kicks(60, 25, 6)
    for (local in c(FALSE, TRUE)) for (ratios in list(1, c(1, 0.5))) {
      run <- function(threads) {
        calm:::boss_search(cs$sigma, cs$mask, cs$lambda, cs$starts, 100L, 4L, TRUE, 1, kicks,
                           ratios, kick_local = local, threads = threads)
      }
      one <- run(1L)
      two <- run(2L)
      for (f in c("cpdag", "dag", "score", "order", "kick_scores", "kicks_improved")) {
        expect_identical(two[[f]], one[[f]])
      }
      improved <- improved + one$kicks_improved
    }
  }
  # kicks that improve (where the helper's kick is run again) were met
  expect_gt(improved, 0L)
  # a budget small enough that both threads empty their caches on the way
  cs <- boss_case(4, 60, 2, 120, 1)
  kicks <- calm:::draw_kicks(60, 20, 6)
  run <- function(threads) {
    calm:::boss_search(cs$sigma, cs$mask, cs$lambda, cs$starts, 100L, 4L, TRUE, 1, kicks,
                       c(1, 0.5), cache_budget = 2e4, kick_local = TRUE, threads = threads)
  }
  one <- run(1L)
  two <- run(2L)
  expect_gt(one$cache_clears, 0L)
  expect_gt(two$cache_clears, 0L)
  for (f in c("cpdag", "dag", "score", "order", "kick_scores", "kicks_improved")) {
    expect_identical(two[[f]], one[[f]])
  }
})

test_that("a single start's sweeps with a helper thread ahead give one thread's search", {
  # the helper examines the nodes ahead of the sweep against the order as it
  # stands; a move makes its findings after the moved node stale, and the
  # caller examines those again (which ones depends on the threads' timing:
  # several data sets, random starts with many moves, a budget that empties
  # the caches, knowledge, and the kicks after the start on the helper's
  # search)
  for (seed in 1:4) {
    cs <- boss_case(seed, 80, 2, 160, 1)
    kicks <- calm:::draw_kicks(80, 12, 6)
    req <- matrix(0, 80, 80)
    req[cbind(c(1, 2), c(3, 4))] <- 1
    kn <- list(required = req, forbidden = matrix(0, 80, 80), precedes = matrix(0, 80, 80))
    none <- calm:::no_kicks()
    for (v in list(list(kicks = none, budget = 0, kn = NULL),
                   list(kicks = kicks, budget = 0, kn = NULL),
                   list(kicks = kicks, budget = 2e4, kn = NULL),
                   list(kicks = none, budget = 0, kn = kn))) {
      run <- function(threads) {
        calm:::boss_search(cs$sigma, cs$mask, cs$lambda, cs$starts, 100L, 4L, TRUE, 1, v$kicks,
                           c(1, 0.5), kn = v$kn, cache_budget = v$budget, kick_local = TRUE,
                           threads = threads)
      }
      one <- run(1L)
      two <- run(2L)
      expect_gt(one$starts$moves, 20L)
      for (f in c("cpdag", "dag", "score", "order", "starts", "kick_scores", "kicks_improved")) {
        expect_identical(two[[f]], one[[f]])
      }
    }
  }
})

test_that("starts on a helper thread give the starts, graph and choice of one thread", {
  # the two threads take starts in turn; the best is chosen over all of
  # them in their order, ties to the earlier start
  for (seed in 1:3) {
    cs <- boss_case(seed, 50, 2, 100, 7)
    # a start given twice ends in the same graph: a tie between threads
    cs$starts <- cbind(cs$starts, cs$starts[, 2])
    for (budget in c(1024^3, 2e4)) {
      run <- function(threads) {
        calm:::boss_search(cs$sigma, cs$mask, cs$lambda, cs$starts, 100L, 4L, TRUE, 0.5,
                           cache_budget = budget, keep_graphs = TRUE, threads = threads)
      }
      one <- run(1L)
      two <- run(2L)
      for (f in c("cpdag", "dag", "score", "order", "best_start", "starts", "orders",
                  "start_cpdags")) {
        expect_identical(two[[f]], one[[f]])
      }
      expect_identical(one$starts$score[8], one$starts$score[2])
      if (budget < 1e5) expect_gt(two$cache_clears, 0L)
    }
  }
  # the future plan's workers share the starts instead: one thread each
  cs <- boss_case(5, 40, 2, 100, 4)
  one <- calm:::boss_run(cs$sigma, cs$mask, cs$lambda, cs$starts, 100L, 4L, TRUE, 1,
                         progress = FALSE)
  two <- calm:::boss_run(cs$sigma, cs$mask, cs$lambda, cs$starts, 100L, 4L, TRUE, 1,
                         progress = FALSE, groups = list(1:2, 3:4), threads = 2L)
  expect_identical(two$cpdag, one$cpdag)
  expect_identical(two$starts, one$starts)
})

test_that("boss() refuses bad arguments, naming them", {
  set.seed(5)
  x <- simulate_sem(5, k = 1, n = 100)$x
  expect_error(boss(x, starts = 0), "starts")
  expect_error(boss(x, starts = list(c(1, 1, 2, 3, 4))), "starts")
  expect_error(boss(x, starts = list(c("X1", "nope", "X3", "X4", "X5"))), "starts")
  expect_error(boss(x, starts = "many"), "starts")
  expect_error(boss(x, edge_penalty = -1), "edge_penalty")
  expect_error(boss(x, control = search_control(penalty_discount = NA)), "penalty_discount")
  expect_error(boss(x, control = search_control(exact_parents_max = 25)), "exact_parents_max")
  expect_error(boss(x, control = search_control(max_sweeps = 0)), "max_sweeps")
  expect_error(boss(x, bes = "yes"), "bes")
  expect_error(boss(x, control = search_control(grow_ratio = 2)), "grow_ratio")
  expect_error(boss(x, control = search_control(grow_ratio = "a")), "grow_ratio")
  expect_error(boss(x, control = search_control(kicks = -1)), "kicks")
  expect_error(boss(x, control = search_control(kicks = 1.5)), "kicks")
  expect_error(boss(x, control = search_control(kick_size = 0)), "kick_size")
  expect_error(boss(x, moral = matrix(1, 3, 3)), "moral")
  expect_error(boss(), "x")
})

test_that("boss is available in benchmark_methods()", {
  res <- benchmark_methods("boss", data.frame(d = 6, k = 1, n = 500), reps = 1)
  expect_identical(as.character(res$method), "boss")
  expect_true(is.finite(res$shd))
})

# Bad inputs (the table of helper-bad-input.R)
test_that("bad inputs to boss() end in clear errors, warnings or results", {
  expect_bad_inputs(bad_input_section({
err("boss", "x", boss("a"))
err("boss", "x", boss(with_na(x)), pattern = "complete.cases")
err("boss", "cov", boss(cov = singular))
err("boss", "standardize", boss(x, standardize = NA))
err("boss", "bes", boss(x, bes = "yes"))
err("boss", "penalty_discount", boss(x, control = search_control(penalty_discount = -1)))
err("boss", "starts", boss(x, starts = 0))
err("boss", "starts", boss(x, starts = list(1:3)))
err("boss", "exact_parents_max", boss(x, control = search_control(exact_parents_max = 21)))
err("boss", "grow_ratio", boss(x, control = search_control(grow_ratio = 1.5)))
err("boss", "grow_ratio", boss(x, control = search_control(grow_ratio = c(0.5, 1))))
ok("boss", boss(x, starts = 2), function(f) inherits(f, "calm_fit") && is_dag(f))
ok("boss", boss(x[1:5, ], starts = 2), function(f) inherits(f, "calm_fit") && is_dag(f))
err("boss", "x", boss(cbind(x[1:5, ], copy = x[1:5, 2])), pattern = "X2 and copy")
  }))
})

test_that("the exact tables are shared by the threads and grow ratios, with one thread's result", {
  # inside a sparse mask most nodes have few candidates, so their best parent
  # sets come from exact tables: computed on both threads, shared by the
  # helper's search and by the searches at the kicks' other grow ratio;
  # required parents sit in the tables and in the trees
  for (seed in 1:3) {
    set.seed(seed)
    d <- 60
    sem <- simulate_sem(d, k = 2, n = 150)
    b <- sem$B != 0
    mask <- (b | t(b) | (b %*% t(b) > 0)) * 1
    diag(mask) <- 0
    sigma <- stats::cov(sem$x)
    at <- which(b, arr.ind = TRUE)[1:3, , drop = FALSE]
    req <- matrix(0, d, d)
    req[at] <- 1
    kn <- list(required = req, forbidden = matrix(0, d, d), precedes = matrix(0, d, d))
    starts <- replicate(5, sample.int(d))
    kicks <- calm:::draw_kicks(d, 12, 5)
    for (knowledge in list(NULL, kn)) {
      run <- function(threads) {
        calm:::boss_search(sigma, mask, bic_lambda(150, 2), starts, 100L, 6L, TRUE, 0.5, kicks,
                           c(1, 0.5), kn = knowledge, keep_graphs = TRUE, kick_local = TRUE,
                           threads = threads)
      }
      one <- run(1L)
      two <- run(2L)
      for (f in c("cpdag", "dag", "score", "order", "starts", "start_cpdags", "kick_scores",
                  "kicks_improved")) {
        expect_identical(two[[f]], one[[f]])
      }
      if (!is.null(knowledge)) expect_true(all(one$dag[at] == 1))
    }
  }
})
