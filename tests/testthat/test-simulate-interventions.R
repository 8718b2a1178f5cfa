# simulate_interventions() (R/simulate-interventions.R).

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

# Bad inputs (the table of helper-bad-input.R)
test_that("bad inputs to simulate_interventions() end in errors naming the argument", {
  expect_bad_inputs(bad_input_section({
err("simulate_interventions", "sem", simulate_interventions(x, list(integer(0)), 10))
err("simulate_interventions", "n", simulate_interventions(sem, list(integer(0), "X1"), c(10, 1)))
err("simulate_interventions", "targets", simulate_interventions(sem, list("X99"), 10))
  }))
})
