# A fit records its learner and settings; bootstrap effects refit every
# replicate with them (knowledge included), the user's arguments on top.

sachs_tiers <- function() {
  data(sachs, package = "calm", envir = environment())
  background_knowledge(tiers = list(c("pka", "pkc"), setdiff(colnames(sachs), c("pka", "pkc"))))
}

test_that("bootstrap effects of a fit under tiers keep its knowledge", {
  data(sachs, package = "calm", envir = environment())
  bk <- sachs_tiers()
  set.seed(1)
  fit <- calm(sachs, knowledge = bk, verbose = FALSE)
  expect_identical(fit$learner$name, "calm")
  expect_identical(fit$learner$args$knowledge, bk)
  set.seed(2)
  kept <- causal_effects(fit, "pka", "akt", data = sachs, R = 8)
  set.seed(2)
  given <- causal_effects(fit, "pka", "akt", data = sachs, R = 8, knowledge = bk)
  expect_identical(kept, given)
  # without the knowledge the replicates' classes leave pka - akt paths
  # unoriented: the bounds split and some replicates allow a zero effect
  set.seed(2)
  dropped <- causal_effects(fit, "pka", "akt", data = sachs, R = 8, knowledge = NULL)
  expect_false(isTRUE(all.equal(kept, dropped)))
  expect_equal(kept$min, kept$max)
})

test_that("a boss() fit's replicates are boss() fits with its settings", {
  data(sachs, package = "calm", envir = environment())
  bk <- sachs_tiers()
  set.seed(3)
  fit <- boss(sachs, starts = 2, knowledge = bk)
  rl <- calm:::replicate_learner(fit, NULL, list(), environment())
  expect_identical(rl$learner, boss)
  expect_identical(rl$args$starts, 2)
  expect_identical(rl$args$knowledge, bk)
  set.seed(4)
  ours <- causal_effects(fit, "pka", "akt", data = sachs, R = 3)
  set.seed(4)
  bs <- bootstrap_edges(sachs, R = 3, learner = boss, starts = 2, knowledge = bk)
  expect_identical(ours, causal_effects(bs, "pka", "akt", data = sachs))
  # a user's argument replaces the fit's
  rl <- calm:::replicate_learner(fit, NULL, list(starts = 5, knowledge = NULL), environment())
  expect_identical(rl$args$starts, 5)
  expect_null(rl$args$knowledge)
  expect_true("knowledge" %in% names(rl$args))
  # another learner gets the fit's knowledge and the user's arguments only
  rl <- calm:::replicate_learner(fit, calm, list(restarts = 1), environment())
  expect_identical(rl$learner, calm)
  expect_setequal(names(rl$args), c("knowledge", "restarts"))
})

test_that("misspelt learner arguments are classed errors naming them", {
  data(sachs, package = "calm", envir = environment())
  set.seed(5)
  fit <- boss(sachs, starts = 1)
  expect_error(causal_effects(fit, "pka", "akt", data = sachs, R = 2, strats = 2),
               class = "calm_error_argument", regexp = "`strats`")
  expect_error(bootstrap_edges(sachs, R = 2, learner = boss, strats = 2),
               class = "calm_error_argument", regexp = "`strats`")
  expect_error(bootstrap_edges(sachs, R = 2, iter_per_roudn = 2),
               class = "calm_error_argument", regexp = "`iter_per_roudn`")
  expect_error(causal_effects(fit, "pka", "akt", methd = "optimal"),
               class = "calm_error_argument", regexp = "`methd`")
})
