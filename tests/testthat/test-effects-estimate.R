# The estimators behind causal_effects() (R/effects-estimate.R): the
# regressions, their standard errors and intervals, and the effects of
# outcomes out of a treatment's reach, against lm() and simulated SEMs.

test_that("the true DAG's effect is among the possible effects at n = 1e5", {
  set.seed(505)
  hits <- 0
  for (r in seq_len(20)) {
    # moderate weights and equal noise keep the sampling error of every
    # effect well below 0.02 at this n (with noise ratio 16 and weights up
    # to 2 some outcomes' variances make it larger)
    sem <- simulate_sem(8, k = 1.5, n = 1e5, weight_range = c(0.3, 0.8), noise_var = rep(1, 8))
    total <- solve(diag(8) - sem$B)
    cp <- dag_to_cpdag(sem$dag)
    x <- pick_treatment(as_amat(cp))
    eff <- causal_effects(cp, x, data = sem$x)
    ok <- vapply(split(eff, eff$y), function(e) {
      any(abs(e$effect - total[x, match(e$y[1], colnames(sem$x))]) < 0.02)
    }, logical(1))
    hits <- hits + all(ok)
  }
  expect_equal(hits, 20)
})

test_that("a unique effect is flagged and a directed parent gives one zero", {
  g <- matrix(0, 3, 3, dimnames = rep(list(c("a", "b", "c")), 2))
  g["a", "b"] <- g["b", "c"] <- 1
  s <- diag(3) + 0.3
  dimnames(s) <- dimnames(g)
  e <- causal_effects(g, "b", cov = s)
  expect_true(all(e$is_unique))
  expect_equal(e$effect[e$y == "a"], 0)
  u <- g
  u["b", "a"] <- 1  # a - b -> c
  e <- causal_effects(u, "b", "c", cov = s)
  expect_equal(nrow(e), 2L)
  expect_false(any(e$is_unique))
})

test_that("standard errors and intervals are lm()'s for the adjustment regression", {
  set.seed(510)
  sem <- simulate_sem(6, k = 1.5, n = 300)
  x <- sem$x
  cp <- dag_to_cpdag(sem$dag, output = "matrix")
  checked <- 0
  for (v in seq_len(6)) {
    e <- causal_effects(cp, v, data = x, method = "optimal")
    # a 0 with standard error 0 is the graph's (no causal path in that
    # orientation), not a regression's
    e <- e[e$possible_descendant & !is.na(e$effect) & e$se > 0, , drop = FALSE]
    for (i in seq_len(nrow(e))) {
      z <- if (nzchar(e$set[i])) strsplit(e$set[i], ",")[[1]] else character(0)
      fit <- stats::lm(x[, e$y[i]] ~ x[, c(e$x[i], z), drop = FALSE])
      co <- summary(fit)$coefficients[2, ]
      ci <- stats::confint(fit)[2, ]
      expect_equal(c(e$effect[i], e$se[i]), unname(co[1:2]))
      expect_equal(c(e$lower[i], e$upper[i]), unname(ci))
      checked <- checked + 1
    }
  }
  expect_gt(checked, 5)
})

test_that("outcomes no DAG of the class lets x reach get 0, flagged, with \"local\" too", {
  # a -> c <- b: neither a nor b can reach the other
  g <- matrix(0, 3, 3, dimnames = rep(list(c("a", "b", "c")), 2))
  g["a", "c"] <- g["b", "c"] <- 1
  s <- matrix(c(1, 0.3, 0.5, 0.3, 1, 0.4, 0.5, 0.4, 1), 3, dimnames = dimnames(g))
  for (m in c("local", "optimal")) {
    e <- causal_effects(g, "a", cov = s, method = m)
    expect_equal(e$effect[e$y == "b"], 0)
    expect_false(e$possible_descendant[e$y == "b"])
    expect_true(e$possible_descendant[e$y == "c"])
    expect_true(e$effect[e$y == "c"] != 0)
  }
})

test_that("95% intervals of identified effects cover the truth at about 95%", {
  # the true CPDAG, so that only the regressions' sampling error is tested
  set.seed(511)
  covered <- NULL
  for (r in seq_len(15)) {
    sem <- simulate_sem(10, k = 1.5, n = 2000)
    total <- solve(diag(10) - sem$B)
    cp <- dag_to_cpdag(sem$dag, output = "matrix")
    for (v in seq_len(10)) {
      e <- causal_effects(cp, v, data = sem$x)
      e <- e[e$is_unique & e$possible_descendant, , drop = FALSE]
      truth <- total[v, match(e$y, colnames(sem$x))]
      covered <- c(covered, e$lower <= truth & truth <= e$upper)
    }
  }
  expect_gt(length(covered), 150)
  expect_gt(mean(covered), 0.88)
  expect_lt(mean(covered), 0.995)
})
