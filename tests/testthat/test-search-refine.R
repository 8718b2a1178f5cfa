# Refinement by greedy equivalence search moves (R/search-refine.R, src/search_ges.cpp)
# and the local score it uses (R/score.R, src/search_score.cpp).

to_in_edges <- function(A) lapply(seq_len(nrow(A)), function(j) which(A[, j] != 0))
from_ess <- function(eg, p) {
  A <- matrix(0, p, p)
  for (j in seq_len(p)) A[eg$.in.edges[[j]], j] <- 1
  A
}

test_that("every operator agrees with pcalg's EssGraph$greedy.step on random CPDAGs", {
  skip_on_cran()   # among the slowest tests; CI runs it with NOT_CRAN=true
  skip_if_not_installed("pcalg")
  set.seed(2024)
  agree <- 0
  checked <- 0
  for (r in seq_len(120)) {
    p <- sample(5:9, 1)
    truth <- simulate_sem(p, k = runif(1, 1, 2), n = 200)
    x <- truth$x
    n <- nrow(x)
    S <- cov(x) * (n - 1) / n
    G <- as_amat(dag_to_cpdag(simulate_dag(p, k = runif(1, 0.5, 2))))
    lam <- runif(1, 0.001, 0.02)
    sc <- new("GaussL0penObsScore", data = x, lambda = lam * n, intercept = TRUE)
    for (type in c("delete", "turn", "insert")) {
      mine <- calm:::cpp_ges_best_move(S, G, type, lam, matrix(1, p, p) - diag(p))
      eg <- new("EssGraph", nodes = as.character(seq_len(p)), in.edges = to_in_edges(G), score = sc)
      s0 <- sc$global.score(eg$repr())
      stepped <- unname(eg$greedy.step(switch(type, delete = "backward", turn = "turning",
                                       insert = "forward")))
      improves <- !is.null(mine) && mine$delta * n < -sqrt(.Machine$double.eps)
      checked <- checked + 1
      # the same decision whether a move improves the score ...
      expect_identical(improves, stepped)
      if (stepped && improves) {
        # ... the same resulting CPDAG and the same change of score
        expect_true(mine$applied)
        expect_identical(unname(mine$cpdag), unname(from_ess(eg, p)))
        expect_equal(-n * mine$delta, sc$global.score(eg$repr()) - s0, tolerance = 1e-7)
        agree <- agree + 1
      }
    }
  }
  expect_gt(agree, 200)
})

test_that("from a supergraph of the truth, refinement on a population covariance finds the true CPDAG", {
  set.seed(7)
  for (r in 1:5) {
    sem <- simulate_sem(12, k = 1, n = Inf)
    sigma <- cov2cor(sem$sigma)
    super <- as_amat(sem$B)
    ord <- match(topological_order(sem$B), colnames(super))
    # add every third forward pair of the topological order: an I-map of the truth
    pos <- match(seq_len(12), ord)
    extra <- which(outer(pos, pos, "<") & super == 0, arr.ind = TRUE)
    extra <- extra[seq(1, nrow(extra), by = 3), , drop = FALSE]
    super[extra] <- 1
    dimnames(super) <- dimnames(sigma)
    ref <- calm:::refine_dag(super, sigma, matrix(1, 12, 12) - diag(12), 0.005,
                             calm_control())
    expect_equal(shd_cpdag(ref$dag, sem$B), 0)
    expect_lt(ref$record$score_after, ref$record$score_before)
    expect_true(all(ref$record$moves$type %in% c("delete", "turn")))
  }
})

test_that("the order search never ends worse than its start and finds the truth on population covariances", {
  set.seed(21)
  for (r in 1:4) {
    sem <- simulate_sem(15, k = 1.5, n = Inf)
    sigma <- cov2cor(sem$sigma)
    mg <- as_amat(moral_graph(sem$dag))
    for (st in list(sample.int(15), 15:1)) {
      os <- calm:::cpp_order_local_search(sigma, mg, 0.005, st,
          order_options(max_sweeps = 100L, exact_parents_max = 14L, grow_ratio = 1))
      expect_lte(os$score, os$score_start + 1e-12)
      expect_true(is_dag(os$dag))
      expect_true(all(os$dag <= mg))
      expect_equal(os$score, as.numeric(score_dag(os$dag, cov = sigma)), tolerance = 1e-10)
      expect_true(setequal(os$order, 1:15))
    }
    # from the true order, the best parent sets score at least as well as the truth
    ord <- match(topological_order(sem$B), colnames(sigma))
    os <- calm:::cpp_order_local_search(sigma, mg, 0.005, ord,
        order_options(max_sweeps = 100L, exact_parents_max = 14L, grow_ratio = 1))
    expect_lte(os$score_start, as.numeric(score_dag(sem$B, cov = sigma)) + 1e-9)
    # grow-shrink parent sets (no exact tables) never leave a worse start
    gs <- calm:::cpp_order_local_search(sigma, mg, 0.005, sample.int(15),
        order_options(max_sweeps = 100L, exact_parents_max = 0L, grow_ratio = 1))
    expect_lte(gs$score, gs$score_start + 1e-12)
    expect_true(is_dag(gs$dag))
  }
})

test_that("with a given moral graph, starts from a search over all pairs reach the truth the masked search missed", {
  skip_on_cran()   # among the slowest tests; CI runs it with NOT_CRAN=true
  # 25-node ER4 population covariances with the true moral graph: the order
  # search inside the mask from calm's starts ends 55 and 41 edge marks from
  # the truth on these two graphs; the orders of an all-pairs search lead it there
  for (s in c(6, 11)) {
    set.seed(s)
    sem <- simulate_sem(25, k = 4, n = Inf)
    M <- moral_graph(sem$dag, output = "matrix")
    set.seed(100 + s)
    a <- calm(cov = sem$sigma, n = Inf, moral = M, standardize = FALSE, verbose = FALSE)
    set.seed(100 + s)
    b <- calm(cov = sem$sigma, n = Inf, moral = M, standardize = FALSE, verbose = FALSE,
              control = calm_control(search = search_control(order_free_starts = FALSE, kicks = 0)))
    expect_equal(shd_cpdag(a, sem$dag), 0)
    expect_gt(shd_cpdag(b, sem$dag), 10)
    expect_lt(a$refine$score_after, b$refine$score_after - 0.01)
    # the kicks alone (search_control(kicks)) also get there from the same starts
    set.seed(100 + s)
    k <- calm(cov = sem$sigma, n = Inf, moral = M, standardize = FALSE, verbose = FALSE,
              control = calm_control(search = search_control(order_free_starts = FALSE)))
    expect_equal(shd_cpdag(k, sem$dag), 0)
    # all keep to the given moral graph
    expect_true(all((as_amat(a) != 0) <= M))
    expect_true(all((as_amat(b) != 0) <= M))
    expect_true(all((as_amat(k) != 0) <= M))
  }
})

test_that("the refinement's kicks never end worse, are reproducible and are labelled", {
  skip_on_cran()
  set.seed(64)
  sem <- simulate_sem(30, k = 4, n = 1000)
  set.seed(2)
  none <- calm(sem$x, control = calm_control(search = search_control(kicks = 0)), verbose = FALSE)
  set.seed(2)
  kicked <- calm(sem$x, verbose = FALSE)
  set.seed(2)
  again <- calm(sem$x, verbose = FALSE)
  expect_identical(calm_control()$search$kicks, 20L)
  expect_identical(calm_control()$search$kick_size, 5L)
  expect_lte(kicked$refine$score_best, none$refine$score_best + 1e-9)
  expect_identical(as_amat(kicked), as_amat(again))
  order_moves <- kicked$refine$moves$clique[kicked$refine$moves$type == "order"]
  if (length(order_moves) && grepl("kicks", order_moves)) {
    expect_match(order_moves, "then [0-9]+ of 20 kicks")
  }
})

test_that("the refinement's second pass of BOSS starts (search_control(grow_ratio)) never ends worse here", {
  skip_on_cran()
  set.seed(63)
  sem <- simulate_sem(30, k = 4, n = 1000)
  set.seed(1)
  plain <- calm(sem$x, control = calm_control(search = search_control(grow_ratio = 1)), verbose = FALSE)
  set.seed(1)
  both <- calm(sem$x, control = calm_control(search = search_control(grow_ratio = 0.5)),
               verbose = FALSE)
  expect_lte(both$refine$score_best, plain$refine$score_best + 1e-9)
  order_moves <- both$refine$moves$clique[both$refine$moves$type == "order"]
  if (length(order_moves)) expect_match(order_moves, "grow ratios 1 and 0.5")
})

test_that("insertions kept between moves give the same search as scoring every insertion each move", {
  # the forward phase keeps each head's scored insertions and scores again
  # only heads next to changed edges; the moves must be those of the plain
  # search, with a mask, a parent-set cap (n small) and knowledge
  set.seed(36)
  for (r in 1:6) {
    d <- sample(15:30, 1)
    n <- if (r %% 3 == 0) 20 else 500
    sem <- simulate_sem(d, k = runif(1, 1, 3), n = n)
    s <- stats::cor(sem$x)
    mask <- matrix(stats::rbinom(d * d, 1, 0.7), d, d)
    mask <- pmax(mask, t(mask))
    diag(mask) <- 0
    start <- if (r %% 2 == 0) matrix(0, d, d) else
      calm:::cpp_dag_to_cpdag(1 * (as_amat(simulate_dag(d, k = 0.5)) != 0)) * 1
    req <- forb <- NULL
    if (r >= 5) {
      # knowledge: no edge into node 1 and node 2 before node 3
      forb <- matrix(0, d, d)
      forb[, 1] <- 1
      forb[3, 2] <- 1
      diag(forb) <- 0
      req <- matrix(0, d, d)
      start <- matrix(0, d, d)
    }
    mp <- calm:::max_parents_for(n)
    run <- function(cached, budget = calm:::search_cache_budget, threads = 1L) {
      opt <- calm:::ges_options(TRUE, 1000L, cached_inserts = cached, threads = threads)
      opt$cache_budget <- budget
      calm:::cpp_ges_refine(s, start, bic_lambda(n, 2), mask, opt, req, forb, mp)
    }
    a <- run(TRUE)
    b <- run(FALSE)
    expect_gt(length(a$moves$type), 0)
    expect_identical(a, b)
    # a score cache emptied after every move: the same search
    expect_identical(run(TRUE, budget = 1), a)
    # half the heads listed on a helper thread (all d >= 16 heads at the
    # first move), with and without its own cache emptied: the same search
    expect_identical(run(TRUE, threads = 2L), a)
    expect_identical(run(TRUE, budget = 1, threads = 2L), a)
    if (is.null(req)) {
      # a 0 x 0 start is the empty graph; with_dag = FALSE drops only the DAG
      start <- matrix(0, 0, 0)
      lean <- calm:::cpp_ges_refine(s, start, bic_lambda(n, 2), mask,
                                    calm:::ges_options(TRUE, 1000L), NULL, NULL, mp, FALSE)
      empty <- calm:::cpp_ges_refine(s, matrix(0, d, d), bic_lambda(n, 2), mask,
                                     calm:::ges_options(TRUE, 1000L), NULL, NULL, mp)
      expect_null(lean$dag)
      empty["dag"] <- list(NULL)
      expect_identical(lean, empty)
    }
  }
})

test_that("grow_ratio = \"auto\" runs the second grow ratio only with n <= d", {
  expect_identical(calm_control()$search$grow_ratio, "auto")
  expect_identical(calm:::refine_grow_ratio("auto", 1000, 30), 1)
  expect_identical(calm:::refine_grow_ratio("auto", 30, 30), 0.5)
  expect_identical(calm:::refine_grow_ratio(0.3, 1000, 30), 0.3)
  set.seed(5)
  sem <- simulate_sem(25, k = 1, n = 20)
  set.seed(1)
  auto <- calm(sem$x, verbose = FALSE)
  set.seed(1)
  half <- calm(sem$x, control = calm_control(search = search_control(grow_ratio = 0.5)),
               verbose = FALSE)
  expect_identical(auto$amat, half$amat)
})

test_that("the exact search runs when BOSS's starts disagree, and only then", {
  expect_true(calm:::exact_pays(list()))
  expect_true(calm:::exact_pays(list(order_agreement = 0.4)))
  expect_false(calm:::exact_pays(list(order_agreement = 0.5)))
  os <- list(starts = data.frame(score = c(-3, -3, -2.5, -3)), kicks_improved = 0L)
  expect_equal(calm:::start_agreement(os), 0.75)
  os$kicks_improved <- 1L
  expect_equal(calm:::start_agreement(os), 0)
  # a sparse graph: BOSS's starts agree and the exact search is left out,
  # with BOSS off it runs, and both find the same optimum here
  set.seed(11)
  sem <- simulate_sem(12, k = 1, n = 1000)
  set.seed(1)
  fit <- calm(sem$x, verbose = FALSE)
  expect_false(fit$refine$exact_run)
  set.seed(1)
  no_boss <- calm(sem$x, control = calm_control(search = search_control(order_search = FALSE)),
                  verbose = FALSE)
  expect_true(no_boss$refine$exact_run)
  expect_equal(fit$refine$score_best, no_boss$refine$score_best, tolerance = 1e-9)
  expect_false(any(grepl("exact search", capture.output(print(fit)))))
  expect_true(any(grepl("exact search", capture.output(print(no_boss)))))
})

test_that("the search over all pairs replaces the masked search's graph only when it scores better by a log-likelihood unit", {
  expect_equal(calm:::wide_min_gain(1000), 1 / 1000)
  expect_equal(calm:::wide_min_gain(Inf), calm:::score_tol)
})

test_that("above order_all_pairs variables, BOSS over all pairs from the masked search's orders finds a better graph", {
  # a 40-variable ER2 graph, n = 300, with order_all_pairs = 10 standing in
  # for the 250-variable limit: inside the IAMB moral graph the order search
  # ends 19 marks from the truth; the run over all pairs from its orders gets
  # within a few
  set.seed(1)
  sem <- simulate_sem(40, k = 2, n = 300)
  fit_with <- function(w) {
    set.seed(1)
    # one penalty for both (the extended BIC), so that their scores compare
    calm(sem$x, verbose = FALSE,
         search = search_control(order_all_pairs = 10, order_wide_starts = w, penalty = "ebic"))
  }
  wide <- fit_with(5)
  inside <- fit_with(0)
  expect_lt(wide$refine$score_after, inside$refine$score_after - 0.1)
  expect_lt(shd_cpdag(wide, sem$B), shd_cpdag(inside, sem$B) - 5)
  expect_match(wide$refine$moves$clique, "then over all pairs from 5 orders", all = FALSE)
  expect_false(any(grepl("over all pairs", inside$refine$moves$clique)))
  # the refined graph's pairs join the pairs the refinement may use
  expect_true(all((as_amat(wide) != 0) <= wide$refine$mask))
  # within the limit the search is over all pairs already: no second run
  set.seed(1)
  small <- calm(sem$x, verbose = FALSE, search = search_control(order_wide_starts = 5))
  expect_false(any(grepl("over all pairs", small$refine$moves$clique)))
})

test_that("each GES move's CPDAG, computed on its component, is the whole graph's", {
  # ges_refine() redoes the extension and the labelling on the move's
  # component only (src/search_ges_update.cpp); after every move the class must
  # be what the move makes of the whole graph (apply_move(), through
  # cpp_ges_best_move()), and the recorded change its score's
  set.seed(60)
  checked <- with_clique <- 0
  for (r in 1:5) {
    d <- sample(10:16, 1)
    n <- 300
    sem <- simulate_sem(d, k = runif(1, 1, 2.5), n = n)
    s <- stats::cor(sem$x)
    lam <- bic_lambda(n, 2)
    mp <- calm:::max_parents_for(n)
    full <- matrix(1, d, d) - diag(d)
    start <- if (r %% 2 == 0) matrix(0, d, d) else
      calm:::cpp_dag_to_cpdag(1 * (as_amat(simulate_dag(d, k = 1.5)) != 0)) * 1
    run <- function(k) {
      calm:::cpp_ges_refine(s, start, lam, full, calm:::ges_options(TRUE, k), NULL, NULL, mp)
    }
    total <- length(run(1000L)$moves$type)
    g <- start
    for (k in seq_len(total)) {
      rk <- run(k)
      ty <- rk$moves$type[k]
      dense <- calm:::cpp_ges_best_move(s, g, ty, lam, full, mp)
      expect_identical(c(dense$u, dense$v), c(rk$moves$from[k], rk$moves$to[k]))
      expect_identical(unname(rk$cpdag), unname(dense$cpdag))
      expect_equal(rk$moves$delta[k], dense$delta, tolerance = 1e-9)
      # a class: the CPDAG of any member is the graph itself
      ext <- calm:::cpp_pdag_extension(rk$cpdag)
      expect_identical(unname(calm:::cpp_dag_to_cpdag(ext) * 1), unname(rk$cpdag * 1))
      expect_equal(rk$score_after, calm:::cpp_dag_local_scores(s, ext * 1, lam, mp)$total,
                   tolerance = 1e-10)
      g <- rk$cpdag
      checked <- checked + 1
      # an insertion whose clique is not empty reorients the head's chain
      # component (CpdagUpdate::member_for_insert())
      if (ty == "insert" && length(rk$moves$clique[[k]]) > 0L) with_clique <- with_clique + 1
    }
  }
  expect_gt(checked, 30)
  expect_gt(with_clique, 3)
})

test_that("above all_pairs_max_d variables the steps beyond the moral graph use its two-hop pairs", {
  # a path 1 - 2 - 3 - 4 and an isolated 5
  adj <- matrix(0, 5, 5)
  adj[cbind(1:3, 2:4)] <- 1
  adj <- adj + t(adj)
  two <- calm:::two_hop_pairs(adj)
  expect_true(isSymmetric(two))
  expect_identical(sum(diag(two)), 0)
  expected <- adj
  expected[1, 3] <- expected[3, 1] <- expected[2, 4] <- expected[4, 2] <- 1
  expect_identical(unname(two), unname(expected))
  # every pair up to the limit, or with a moral graph given by the user
  expect_identical(calm:::wide_pairs(adj, TRUE, 5), matrix(1, 5, 5) - diag(5))
  expect_identical(calm:::wide_pairs(adj, FALSE, 2), matrix(1, 5, 5) - diag(5))
  expect_identical(unname(calm:::wide_pairs(adj, TRUE, 4)), unname(expected))
  # the setting: a whole number or Inf
  expect_identical(search_control(all_pairs_max_d = Inf)$all_pairs_max_d, Inf)
  expect_equal(search_control()$all_pairs_max_d, 500)
  expect_error(search_control(all_pairs_max_d = -1), class = "calm_error_argument")
  expect_error(search_control(all_pairs_max_d = "many"), "all_pairs_max_d")
  # a fit above the limit refines inside the two-hop pairs (without the
  # scan beyond them, test-search-scan.R): its graph's adjacencies outside
  # the moral graph share a neighbour in it
  set.seed(61)
  sem <- simulate_sem(40, k = 1, n = 400)
  fit <- calm(sem$x, verbose = FALSE,
              search = search_control(all_pairs_max_d = 10, scan_beyond = FALSE))
  mg <- as_amat(fit$moral)
  within <- calm:::two_hop_pairs(mg)
  skel <- pmax(fit$amat, t(fit$amat))
  expect_true(all(skel[within == 0] == 0))
  expect_lte(shd_cpdag(fit, sem$B), 3)
})
