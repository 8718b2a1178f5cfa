# causal_effects() with intervention targets: regressions within the
# conditions that leave the causal paths alone, not on the pooled rows.

# X1 -> X2 -> X3 with unit weights; observation and experiments on `vars`,
# each drawing its variable around `mean`.
chain_data <- function(vars, n = 400, mean = 2) {
  dag <- matrix(0, 3, 3, dimnames = list(paste0("X", 1:3), paste0("X", 1:3)))
  dag[1, 2] <- dag[2, 3] <- 1
  sem <- simulate_sem(dag = dag, weight_range = c(1, 1), noise_var = rep(1, 3))
  sem$B[sem$B != 0] <- 1
  sem$sigma <- calm:::simulated_cov(sem$B, sem$omega, "noise_var", environment())
  tg <- c(list(integer(0)), as.list(vars))
  c(simulate_interventions(sem, tg, n = n, mean = mean), list(dag = dag))
}

test_that("an experiment on a mediator biases the pooled effect, not the new one", {
  set.seed(6210)
  sim <- chain_data("X2")
  for (method in c("local", "optimal")) {
    pooled <- causal_effects(sim$dag, "X1", "X3", data = sim$x, method = method)
    within <- causal_effects(sim$dag, "X1", "X3", data = sim$x, method = method,
                             targets = sim$targets, target_index = sim$target_index)
    # the truth is 1; the experiment's rows carry none of it
    expect_lt(pooled$effect, 0.7)
    expect_lt(pooled$upper, 1)
    expect_lt(abs(within$effect - 1), 0.15)
    expect_true(within$lower < 1 && 1 < within$upper)
  }
})

test_that("with one usable condition the effect is that condition's lm()", {
  set.seed(6211)
  sim <- chain_data("X3")
  e <- causal_effects(sim$dag, "X1", "X3", data = sim$x, targets = sim$targets,
                      target_index = sim$target_index)
  obs <- as.data.frame(sim$x[sim$target_index == 1, ])
  co <- summary(stats::lm(X3 ~ X1, data = obs))$coefficients
  expect_equal(e$effect, co["X1", "Estimate"], tolerance = 1e-10)
  expect_equal(e$se, co["X1", "Std. Error"], tolerance = 1e-8)
  # an experiment on X1 leaves its effect on X2 alone: both conditions count,
  # so the standard error is smaller than that of the observational rows
  e12 <- causal_effects(sim$dag, "X1", "X2", data = sim$x, targets = sim$targets,
                        target_index = sim$target_index)
  co12 <- summary(stats::lm(X2 ~ X1, data = obs))$coefficients
  expect_lt(e12$se, co12["X1", "Std. Error"])
})

test_that("a fit learned with targets uses them, and its bootstrap refits with them", {
  set.seed(6212)
  sim <- chain_data("X2", n = 300)
  fit <- boss(sim$x, targets = sim$targets, target_index = sim$target_index)
  e <- causal_effects(fit, "X1", "X3", data = sim$x)
  expect_lt(abs(e$effect - 1), 0.15)
  bs <- bootstrap_edges(sim$x, R = 3, learner = boss, targets = sim$targets,
                        target_index = sim$target_index)
  expect_s3_class(bs$targets, "calm_targets")
  b <- causal_effects(bs, "X1", "X3", data = sim$x)
  expect_lt(abs(b$min - 1), 0.2)
  expect_lt(abs(b$max - 1), 0.2)
})

test_that("no usable condition gives NA", {
  set.seed(6213)
  sim <- chain_data("X2")
  # the only rows without the experiment on the mediator are too few
  idx <- c(1, 1, rep(2, nrow(sim$x) - 2))
  e <- causal_effects(sim$dag, "X1", "X3", data = sim$x, targets = list(integer(0), "X2"),
                      target_index = idx)
  expect_true(is.na(e$effect))
  expect_true(is.na(e$se))
})

test_that("bad targets for causal_effects() are classed errors naming the argument", {
  set.seed(6214)
  sim <- chain_data("X2", n = 100)
  fit <- boss(sim$x, targets = sim$targets, target_index = sim$target_index)
  expect_error(causal_effects(fit, "X1"), class = "calm_error_targets", regexp = "data")
  expect_error(causal_effects(fit, "X1", data = sim$x, targets = sim$targets,
                              target_index = sim$target_index),
               class = "calm_error_targets", regexp = "targets")
  expect_error(causal_effects(sim$dag, "X1", cov = stats::cov(sim$x), targets = sim$targets,
                              target_index = sim$target_index),
               class = "calm_error_targets", regexp = "data")
  expect_error(causal_effects(sim$dag, "X1", data = sim$x, target_index = sim$target_index),
               class = "calm_error_targets", regexp = "target_index")
  expect_error(causal_effects(sim$dag, "X1", data = sim$x, targets = list(integer(0), "X9"),
                              target_index = sim$target_index),
               class = "calm_error_targets", regexp = "targets")
  expect_error(causal_effects(sim$dag, "X1", data = sim$x, targets = sim$targets,
                              target_index = sim$target_index[-1]),
               class = "calm_error_targets", regexp = "target_index")
})
