# The penalty chosen from the data (R/search-penalty.R): select_penalty(),
# calm_control(penalty_discount = "cv") and boss(penalty_discount = "cv").

test_that("the selection picks a larger discount for strong sparse effects than for weak ones", {
  picks <- vapply(1:3, function(seed) {
    set.seed(seed)
    dag <- simulate_dag(20, k = 1)
    set.seed(seed + 100)
    strong <- simulate_sem(20, n = 1000, dag = dag, weight_range = c(0.8, 2))
    set.seed(seed + 100)
    weak <- simulate_sem(20, n = 1000, dag = dag, weight_range = c(0.08, 0.15))
    set.seed(seed)
    ps <- select_penalty(strong$x)
    set.seed(seed)
    pw <- select_penalty(weak$x)
    c(strong = ps$discount, weak = pw$discount)
  }, numeric(2))
  expect_true(all(picks["strong", ] > picks["weak", ]), label = paste(picks, collapse = " "))
})

test_that("the choice is recorded with its criterion, within the grid, and reproducible", {
  set.seed(4)
  sem <- simulate_sem(12, k = 1, n = 400)
  set.seed(10)
  p1 <- select_penalty(sem$x, grid = c(4, 1, 2), folds = 4)
  set.seed(10)
  p2 <- select_penalty(sem$x, grid = c(4, 1, 2), folds = 4)
  expect_identical(p1, p2)
  expect_s3_class(p1, "calm_penalty")
  expect_identical(p1$method, "cv")
  expect_identical(p1$table$discount, c(1, 2, 4))
  expect_true(p1$discount %in% c(1, 2, 4))
  expect_equal(sum(p1$table$chosen), 1)
  expect_equal(p1$table$discount[p1$table$chosen], p1$discount)
  expect_equal(p1$lambda, bic_lambda(400, p1$discount))
  # the choice is the largest discount within half a standard error of the
  # best held-out log-likelihood (se: of each candidate's difference to the best)
  tab <- p1$table
  best <- which.max(tab$heldout_loglik)
  expect_equal(tab$se[best], 0)
  near <- tab$heldout_loglik >= tab$heldout_loglik[best] - p1$tie_se * tab$se
  expect_equal(p1$discount, max(tab$discount[near]))
  expect_equal(p1$tie_se, 0.5)
  expect_equal(p1$splits, 2)
  expect_output(print(p1), "chosen from 1, 2, 4 by 2 x 4-fold held-out log-likelihood")
  # a fit records it and print() says it in one line
  set.seed(10)
  fit <- calm(sem$x, penalty_grid = c(4, 1, 2), penalty_folds = 4, verbose = FALSE)
  expect_identical(fit$penalty$method, "cv")
  expect_true(fit$penalty$discount %in% c(1, 2, 4))
  expect_equal(fit$refine$lambda, fit$penalty$lambda)
  expect_output(print(fit), "penalty: BIC, discount")
  set.seed(10)
  fit2 <- calm(sem$x, penalty_grid = c(4, 1, 2), penalty_folds = 4, verbose = FALSE)
  expect_identical(fit2$penalty, fit$penalty)
  expect_identical(fit2$amat, fit$amat)
})

test_that("a fixed discount is the sparsity knob of calm() and boss(), with the same meaning", {
  set.seed(7)
  sem <- simulate_sem(12, k = 2, n = 500)
  dense <- calm(sem$x, penalty_discount = 0.5, verbose = FALSE)
  sparse <- calm(sem$x, penalty_discount = 8, verbose = FALSE)
  expect_identical(dense$penalty$method, "fixed")
  expect_equal(dense$refine$lambda, bic_lambda(500, 0.5))
  expect_gt(sum(dense$amat != 0), sum(sparse$amat != 0))
  b <- boss(sem$x, starts = 3, control = search_control(penalty_discount = 8))
  expect_equal(b$penalty$lambda, bic_lambda(500, 8))
  expect_equal(b$settings$edge_penalty, bic_lambda(500, 8))
  # the same discount, the same score: up to 20 variables calm()'s refinement
  # finds the exact optimum of that score, so no better than boss()'s graph is
  # missed (its last step may then return a near-optimal graph instead)
  expect_lte(sparse$refine$score_best,
             as.numeric(score_dag(b, sem$x, edge_penalty = bic_lambda(500, 8))) + 1e-10)
  set.seed(3)
  bc <- boss(sem$x, starts = 2, control = search_control(penalty_discount = "cv", penalty_grid = c(1, 3), penalty_folds = 3))
  expect_identical(bc$penalty$method, "cv")
  expect_true(bc$settings$penalty_discount %in% c(1, 3))
  # the extended BIC and a covariance
  e <- calm(sem$x, search = search_control(penalty = "ebic"), verbose = FALSE)
  expect_identical(e$penalty$method, "ebic")
  expect_equal(e$penalty$lambda, as.numeric(ebic_lambda(500, 12)))
  fc <- calm(cov = cov(sem$x), n = 500, verbose = FALSE)
  expect_identical(fc$penalty$method, "ebic")
  # "cv" needs data: from a covariance, boss() takes the extended BIC as calm() does
  bcv <- boss(cov = cov(sem$x), n = 500, starts = 2, control = search_control(penalty_discount = "cv"))
  expect_identical(bcv$penalty$method, "ebic")
  expect_equal(bcv$penalty$lambda, fc$penalty$lambda)
})

test_that("bad selection settings are refused with the argument named", {
  set.seed(1)
  x <- simulate_sem(5, n = 30)$x
  expect_error(select_penalty(x, grid = c(-1, 2)), "grid")
  expect_error(select_penalty(x, grid = c(1, NA)), "grid")
  expect_error(select_penalty(x, grid = numeric()), "grid")
  expect_error(select_penalty(x, grid = c(2, 2)), "grid")
  expect_error(select_penalty(x, grid = "a"), "grid")
  expect_error(select_penalty(x, folds = 1), "folds")
  expect_error(select_penalty(x, folds = 16), "folds")
  expect_error(select_penalty(x, folds = NA), "folds")
  # calm() and boss() take as many folds as the data allow (2 rows each);
  # select_penalty() is told
  small <- calm(x, penalty_folds = 20, verbose = FALSE)
  expect_identical(small$penalty$folds, 15)
  set.seed(2)
  expect_identical(boss(x, starts = 2, control = search_control(penalty_discount = "cv", penalty_folds = 20))$penalty$folds, 15)
  expect_error(boss(x, control = search_control(penalty_discount = "cv", penalty_folds = 1)), "penalty_folds")
  expect_error(boss(x, control = search_control(penalty_discount = "bic")), "penalty_discount")
  expect_error(boss(x, control = search_control(penalty_grid = 0)), "penalty_grid")
  x[1, 1] <- NA
  expect_error(select_penalty(x), "x")
})

test_that("the held-out log-likelihood in C++ equals R's", {
  set.seed(9)
  sem <- simulate_sem(8, k = 2, n = 200)
  x <- sem$x
  train <- x[1:150, ]
  m <- calm:::fold_moments(train)
  dag <- (sem$B != 0) * 1
  r_side <- calm:::heldout_loglik(dag, m$s, m$mu, x[151:200, ])
  cpp <- calm:::cpp_heldout_loglik(dag, m$s, m$mu, x[151:200, ], calm:::admissible_floor)
  expect_equal(cpp, r_side, tolerance = 1e-10)
  # a duplicated parent (singular parent covariance): the dependent copy
  # gets weight 0, as R's pivoted QR gives it
  x2 <- cbind(x, x[, 1])
  colnames(x2) <- c(colnames(x), "copy")
  m2 <- calm:::fold_moments(x2[1:150, ])
  dag2 <- matrix(0, 9, 9)
  dag2[c(1, 9), 2] <- 1
  r2 <- calm:::heldout_loglik(dag2, m2$s, m2$mu, x2[151:200, ])
  c2 <- calm:::cpp_heldout_loglik(dag2, m2$s, m2$mu, x2[151:200, ], calm:::admissible_floor)
  expect_equal(c2, r2, tolerance = 1e-8)
})

# The penalty's selection with interventional data: held-out scores on
# each variable's free rows, from the interventional moments.

test_that("without experiments the held-out score is the observational one", {
  set.seed(6220)
  sem <- simulate_sem(6, k = 1.5, n = 300)
  x <- sem$x
  train <- x[1:200, ]
  test <- x[201:300, ]
  dag <- (sem$B != 0) * 1
  tg <- list(targets = list(integer(0)), index = rep(1L, 200))
  mo <- calm:::interventional_moments(train, tg, FALSE)
  ours <- calm:::interventional_heldout(dag, mo, list(colMeans(train)), test,
                                        matrix(TRUE, 100, 6))
  theirs <- calm:::heldout_loglik(dag, calm:::data_cov(train), colMeans(train), test)
  expect_equal(ours, theirs, tolerance = 1e-10)
})

test_that("an intervened variable is scored only on its free rows, from its free rows", {
  set.seed(6221)
  sem <- simulate_sem(4, k = 1.5)
  sim <- simulate_interventions(sem, list(integer(0), "X2"), n = c(200, 100), mean = 5)
  x <- sim$x
  tg <- intervention_targets(sim$targets, sim$target_index, colnames(x), nrow(x))
  test <- c(1:50, 201:250)
  task <- calm:::interventional_fold_task(tg)
  mask <- matrix(1, 4, 4) - diag(4)
  ll <- task(list(test = test, starts = cbind(1:4, 4:1)), x, grid = 2, mask = mask,
             exact_parents_max = 14L)
  expect_true(is.finite(ll))
  # by hand for the empty graph: X2 on its 50 free held-out rows, with the
  # mean and variance of its free training rows; the others on all rows
  dag <- matrix(0, 4, 4)
  free <- calm:::free_rows(tg, 4)
  expect_equal(sum(!free[, 2]), 100)
  tr <- list(targets = tg$targets, index = tg$index[-test])
  mo <- calm:::interventional_moments(x[-test, ], tr, FALSE)
  mu <- lapply(seq_along(mo$covs), function(g) {
    colMeans(x[-test, ][free[-test, match(g - 1L, mo$group)], , drop = FALSE])
  })
  got <- calm:::interventional_heldout(dag, mo, mu, x[test, ], free[test, ])
  by_hand <- sum(vapply(1:4, function(j) {
    tr_rows <- setdiff(which(free[, j]), test)
    te_rows <- intersect(which(free[, j]), test)
    m <- mean(x[tr_rows, j])
    v <- mean((x[tr_rows, j] - m)^2)
    sum(stats::dnorm(x[te_rows, j], m, sqrt(v), log = TRUE))
  }, numeric(1)))
  expect_equal(got, by_hand, tolerance = 1e-10)
})

test_that("the learners' selection uses the targets unless turned off", {
  set.seed(6222)
  sem <- simulate_sem(8, k = 1.5)
  sim <- simulate_interventions(sem, list(integer(0), "X3", "X5"), n = c(300, 100, 100))
  fit <- boss(sim$x, control = search_control(penalty_discount = "cv"), targets = sim$targets,
              target_index = sim$target_index)
  old <- options(calm.interventional_selection = FALSE)
  on.exit(options(old))
  fit_off <- boss(sim$x, control = search_control(penalty_discount = "cv"), targets = sim$targets,
                  target_index = sim$target_index)
  # the held-out scores are on other rows: the tables differ
  expect_false(isTRUE(all.equal(fit$penalty$table$heldout_loglik,
                                fit_off$penalty$table$heldout_loglik)))
  expect_true(all(is.finite(fit$penalty$table$heldout_loglik)))
})
