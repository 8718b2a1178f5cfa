# The interventional class (R/interventional.R): the essential graph against
# pcalg's dag2essgraph(), the learners, knowledge, comparisons, the
# penalty's folds and the bootstrap with targets.

test_that("the interventional essential graph equals pcalg's dag2essgraph() on 200 DAGs", {
  skip_if_not_installed("pcalg")
  set.seed(6201)
  for (r in 1:200) {
    d <- sample(5:30, 1)
    g <- simulate_dag(d, k = stats::runif(1, 0.5, min(3, (d - 1) / 2)))
    sets <- lapply(seq_len(sample(1:4, 1)), function(i) sort(sample.int(d, sample(1:3, 1))))
    # with the observational condition, or without it when every variable
    # is still left alone somewhere (a conservative family)
    tg <- c(list(integer(0)), sets)
    if (r %% 2 == 0 && all(seq_len(d) %in% unlist(lapply(sets, function(s) setdiff(seq_len(d), s))))) {
      tg <- sets
    }
    ours <- dag_to_cpdag(g, "matrix", targets = tg)
    theirs <- as(pcalg::dag2essgraph(as(g, "graphNEL"), targets = tg), "matrix") * 1
    expect_equal(unname(ours), unname(theirs), label = paste("DAG", r))
  }
})

test_that("experiments orient edges and never unorient the CPDAG's", {
  chain <- matrix(0, 3, 3, dimnames = list(c("A", "B", "C"), c("A", "B", "C")))
  chain["A", "B"] <- chain["B", "C"] <- 1
  expect_equal(sum(dag_to_cpdag(chain, "matrix") * t(dag_to_cpdag(chain, "matrix"))), 4)
  # an experiment on A orients A -> B, and Meek's first rule B -> C
  expect_equal(dag_to_cpdag(chain, "matrix", targets = list(integer(0), "A")), chain)
  # an experiment on the whole chain tells nothing apart
  expect_equal(dag_to_cpdag(chain, "matrix", targets = list(integer(0), 1:3)),
               dag_to_cpdag(chain, "matrix"))
  set.seed(6202)
  for (r in 1:20) {
    g <- simulate_dag(12, k = 2)
    cp <- dag_to_cpdag(g, "matrix")
    icp <- dag_to_cpdag(g, "matrix", targets = list(integer(0), sample.int(12, 2)))
    directed <- cp != 0 & t(cp) == 0
    expect_true(all(icp[directed] == 1 & t(icp)[directed] == 0))
    expect_true(all((icp + t(icp) != 0) == (g + t(g) != 0)))
  }
})

test_that("boss(), exact_search() and calm() optimise the interventional score", {
  set.seed(6205)
  dat <- int_data(8, c(2, 5), n_obs = 400, n_each = 150)
  lam <- bic_lambda(nrow(dat$x), 2)
  sc <- function(g) score_dag(g, dat$x, edge_penalty = lam, targets = dat$targets,
                              target_index = dat$target_index)
  ex <- exact_search(dat$x, edge_penalty = lam, moral = "none", targets = dat$targets,
                     target_index = dat$target_index)
  bo <- boss(dat$x, edge_penalty = lam, starts = 3, targets = dat$targets,
             target_index = dat$target_index)
  ca <- calm(dat$x, penalty_discount = 2, verbose = FALSE, targets = dat$targets,
             target_index = dat$target_index)
  # each fit's score is that of its own DAG, and the exact one is optimal
  expect_equal(ex$score, as.numeric(sc(ex)), tolerance = 1e-10)
  expect_equal(bo$score, as.numeric(sc(bo)), tolerance = 1e-10)
  expect_lte(ex$score, as.numeric(sc(dat$B)) + 1e-10)
  expect_lte(ex$score, bo$score + 1e-10)
  expect_lte(ex$score, as.numeric(sc(ca)) + 1e-10)
  # the fits' CPDAGs are interventional essential graphs
  for (f in list(ex, bo, ca)) {
    expect_equal(f$cpdag_amat, dag_to_cpdag(f$amat, "matrix", targets = dat$targets))
    expect_s3_class(f$targets, "calm_targets")
  }
  expect_output(print(ca), "only the refinement and the penalty's choice used them")
  expect_output(print(bo), "the search used the interventional score")
  # the observational fit's class is the plain CPDAG
  ob <- boss(dat$x, edge_penalty = lam, starts = 3)
  expect_null(ob$targets)
  expect_equal(ob$cpdag_amat, dag_to_cpdag(ob$amat, "matrix"))
})

test_that("background knowledge applies with targets", {
  set.seed(6207)
  dat <- int_data(6, 3, n_obs = 300, n_each = 100)
  bk <- background_knowledge(forbidden = rbind(c("X1", "X2"), c("X2", "X1")))
  f <- boss(dat$x, starts = 2, knowledge = bk, targets = dat$targets,
            target_index = dat$target_index)
  expect_equal(unname(f$amat["X1", "X2"] + f$amat["X2", "X1"]), 0)
  e <- exact_search(dat$x, edge_penalty = 0.01, knowledge = bk, targets = dat$targets,
                    target_index = dat$target_index)
  expect_equal(unname(e$amat["X1", "X2"] + e$amat["X2", "X1"]), 0)
})

test_that("compare_graphs() compares interventional classes when given targets", {
  chain <- matrix(0, 3, 3, dimnames = list(c("A", "B", "C"), c("A", "B", "C")))
  chain["A", "B"] <- chain["B", "C"] <- 1
  flipped <- t(chain)
  expect_equal(compare_graphs(flipped, chain)$shd, 0)
  expect_equal(compare_graphs(flipped, chain, targets = list(integer(0), "A"))$shd, 2)
  expect_equal(shd_cpdag(flipped, chain, targets = list(integer(0), "A")), 2L)
})

test_that("the penalty's folds keep each condition's share", {
  set.seed(6210)
  strata <- rep(1:3, c(50, 20, 10))
  fold <- calm:::draw_folds(80, 5, call = NULL, strata = strata)
  expect_equal(as.vector(table(fold)), rep(16L, 5))
  expect_true(all(table(fold, strata) == matrix(c(10, 4, 2), 5, 3, byrow = TRUE)))
  # without strata the draw is the one it always was
  set.seed(1)
  a <- calm:::draw_folds(80, 5, call = NULL)
  set.seed(1)
  expect_identical(a, sample(rep_len(1:5, 80)))
  # calm()'s default penalty selection runs with targets
  dat <- int_data(6, 2, n_obs = 200, n_each = 100)
  f <- calm(dat$x, verbose = FALSE, targets = dat$targets, target_index = dat$target_index)
  expect_identical(f$penalty$method, "cv")
})

test_that("bootstrap_edges() resamples within conditions and passes the targets on", {
  set.seed(6211)
  dat <- int_data(5, 2, n_obs = 60, n_each = 30)
  b <- bootstrap_edges(dat$x, R = 3, learner = boss, starts = 1, targets = dat$targets,
                       target_index = dat$target_index)
  expect_s3_class(b, "calm_bootstrap")
  expect_equal(b$R, 3)
  for (rows in b$rows) expect_equal(tabulate(dat$target_index[rows]), c(60L, 30L))
  expect_error(bootstrap_edges(dat$x, R = 2, learner = boss, targets = dat$targets,
                               target_index = dat$target_index[-1]),
               class = "calm_error_targets")
})
