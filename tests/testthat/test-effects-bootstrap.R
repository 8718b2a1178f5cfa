# causal_effects() over the graphs of a bootstrap (R/effects-bootstrap.R).

test_that("bootstrap effects summarise the bounds over replicates", {
  set.seed(508)
  sem <- simulate_sem(5, k = 1, n = 300)
  bs <- bootstrap_edges(sem$x, R = 4, learner = boss, starts = 1)
  expect_length(bs$graphs, 4)
  expect_length(bs$rows[[1]], 300)
  e <- causal_effects(bs, "X1", data = sem$x)
  expect_setequal(e$y, paste0("X", 2:5))
  expect_true(all(e$min <= e$max))
  expect_true(all(e$min_lower <= e$min_upper & e$max_lower <= e$max_upper))
  expect_true(all(e$replicates == 4))
  # the same replicates through R = : same seed, same numbers
  fit <- boss(sem$x, starts = 1)
  set.seed(509)
  bs <- bootstrap_edges(sem$x, R = 4, learner = boss, starts = 1)
  e <- causal_effects(bs, "X1", data = sem$x)
  set.seed(509)
  e2 <- causal_effects(fit, "X1", data = sem$x, R = 4, learner = boss, starts = 1)
  expect_equal(e2, e)
  expect_error(causal_effects(bs, "X1"), class = "calm_error_argument", regexp = "`data`")
})
