# Intervention targets (R/targets.R): the two forms, bad targets, and the
# learners that refuse them.

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

# Bad inputs (the table of helper-bad-input.R)
test_that("bad targets and conditions end in errors naming the argument", {
  expect_bad_inputs(bad_input_section({
err("intervention_targets", "targets", intervention_targets("X1", NULL, 6))
err("intervention_targets", "targets",
    intervention_targets(list(integer(0), "Z"), rep(1:2, 100), colnames(x), 200))
err("intervention_targets", "target_index",
    intervention_targets(list(integer(0), 1L), rep(1:2, 50), colnames(x), 200))
err("intervention_targets", "target_index",
    intervention_targets(list(integer(0), 1L), rep(c(1L, 3L), 100), colnames(x), 200))
err("intervention_targets", "target_index",
    intervention_targets(list(integer(0), 1L), c(2L, rep(1L, 199)), colnames(x), 200),
    pattern = "only one row")
err("intervention_targets", "targets",
    intervention_targets(list(1L), rep(1L, 200), colnames(x), 200), pattern = "every row")
err("boss", "target_index", boss(x, targets = list(integer(0), 1L), target_index = 1:3))
err("calm", "targets", calm(x, targets = list(integer(0), 99L), target_index = rep(1:2, 100),
                            verbose = FALSE))
err("exact_search", "target_index",
    exact_search(x, targets = list(integer(0), 1L), target_index = c(2L, rep(1L, 199))))
err("score_dag", "targets", score_dag(A, cov = S, targets = list(integer(0), 1L)))
err("dag_to_cpdag", "targets", dag_to_cpdag(A, targets = list("Z")))
err("compare_graphs", "targets", compare_graphs(A, A, targets = "X1"))
  }))
})
