# Interventional data: targets, the GIES score, the interventional
# essential graph, the learners with targets, simulation and bad input.

# A data set with experiments on `vars` (one condition each).
int_data <- function(d, vars, n_obs = 300, n_each = 100, k = 1.5) {
  sem <- simulate_sem(d, k = k)
  tg <- c(list(integer(0)), as.list(vars))
  sim <- simulate_interventions(sem, tg, c(n_obs, rep(n_each, length(vars))))
  c(sim, list(B = sem$B))
}

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

test_that("targets by name and a factor of conditions give the pcalg form's fit", {
  set.seed(6206)
  dat <- int_data(6, c(1, 4), n_obs = 200, n_each = 80)
  named <- list(obs = NULL, kd1 = "X1", kd4 = "X4")
  cond <- factor(c("obs", "kd1", "kd4")[dat$target_index])
  a <- exact_search(dat$x, edge_penalty = 0.01, targets = dat$targets, target_index = dat$target_index)
  b <- exact_search(dat$x, edge_penalty = 0.01, targets = named, target_index = cond)
  expect_identical(a$amat, b$amat)
  expect_equal(a$score, b$score)
  tg <- intervention_targets(named, cond, colnames(dat$x), nrow(dat$x))
  expect_identical(tg$targets, list(integer(0), 1L, 4L))
  expect_identical(tg$index, dat$target_index)
  expect_output(print(tg), "kd4: X4 \\[80 rows\\]")
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

test_that("simulate_interventions() cuts targets from their parents", {
  set.seed(6208)
  sem <- simulate_sem(5, dag = rbind(c(0, 1, 0, 0, 0), c(0, 0, 1, 0, 0), matrix(0, 3, 5)))
  sim <- simulate_interventions(sem, list(integer(0), "X2"), c(50, 30), value = 3)
  expect_equal(dim(sim$x), c(80L, 5L))
  expect_equal(sim$target_index, rep(1:2, c(50, 30)))
  expect_true(all(sim$x[51:80, "X2"] == 3))
  expect_false(all(sim$x[1:50, "X2"] == 3))
  expect_equal(levels(sim$condition), c("observation", "X2"))
  # a drawn intervention is independent of the cut parent
  big <- simulate_interventions(sem, list("X2"), 20000, sd = 1)
  expect_lt(abs(stats::cor(big$x[, "X1"], big$x[, "X2"])), 0.05)
  expect_equal(stats::sd(big$x[, "X2"]), 1, tolerance = 0.05)
})

test_that("bad targets are classed errors naming the argument", {
  set.seed(6209)
  x <- simulate_sem(4, n = 20)$x
  idx <- rep(1:2, each = 10)
  expect_error(boss(x, targets = list(integer(0), "X9"), target_index = idx),
               class = "calm_error_targets", regexp = "targets")
  expect_error(boss(x, targets = list(integer(0), 7L), target_index = idx),
               class = "calm_error_targets", regexp = "targets")
  expect_error(boss(x, targets = list(integer(0), 1L), target_index = idx[-1]),
               class = "calm_error_targets", regexp = "target_index")
  expect_error(calm(x, targets = list(integer(0), 1L), target_index = idx + 1L),
               class = "calm_error_targets", regexp = "target_index")
  expect_error(exact_search(x, targets = list(integer(0), 1L), target_index = c(1L, rep(2L, 19))),
               class = "calm_error_targets", regexp = "only one row")
  expect_error(score_dag(matrix(0, 4, 4), x, targets = list(1L, 1:2), target_index = idx),
               class = "calm_error_targets", regexp = "every row")
  expect_error(boss(x, targets = list(a = NULL, b = "X1"), target_index = rep(c("a", "z"), each = 10)),
               class = "calm_error_targets", regexp = "target_index")
  expect_error(boss(cov = cov(x), n = 20, targets = list(integer(0), 1L), target_index = idx),
               class = "calm_error_targets", regexp = "targets")
  expect_error(boss(x, target_index = idx), class = "calm_error_targets", regexp = "target_index")
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

test_that("the learners without targets refuse them with a classed error", {
  set.seed(6230)
  sim <- simulate_interventions(simulate_sem(4, k = 1), list(integer(0), "X2"), n = c(40, 20))
  expect_error(golem_nv(sim$x, targets = sim$targets, target_index = sim$target_index),
               class = "calm_error_targets", regexp = "golem_nv")
  expect_error(notears_linear(sim$x, target_index = sim$target_index),
               class = "calm_error_targets", regexp = "target_index")
  skip_if_not_installed("pcalg")
  expect_error(pc_pcalg(sim$x, targets = sim$targets), class = "calm_error_targets")
  expect_error(ges_pcalg(sim$x, targets = sim$targets), class = "calm_error_targets")
})
