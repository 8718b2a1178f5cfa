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
  expect_equal(b$settings$lambda1, bic_lambda(500, 8))
  # the same discount, the same score: up to 20 variables calm()'s refinement
  # finds the exact optimum of that score, so no better than boss()'s graph is
  # missed (its last step may then return a near-optimal graph instead)
  expect_lte(sparse$refine$score_best,
             as.numeric(score_dag(b, sem$x, lambda1 = bic_lambda(500, 8))) + 1e-10)
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

test_that("above order_all_pairs variables with an estimated moral graph the penalty is chosen in the order of a first fit", {
  set.seed(12)
  sem <- simulate_sem(8, k = 1, n = 300)
  # the limit lowered below d stands in for a large problem
  set.seed(3)
  big <- calm(sem$x, search = search_control(order_all_pairs = 5), verbose = FALSE)
  # the first fit: the extended BIC at gamma 1 (search_control(gamma = "auto"))
  first <- attr(ebic_lambda(300, 8, gamma = 1), "discount")
  expect_identical(big$penalty$method, "cv")
  expect_equal(big$penalty$in_order, first)
  # the candidates: the grid and the first fit's discount
  expect_equal(sort(big$penalty$table$discount), sort(c(1.5, 2, 2.5, 3, 4, first)))
  expect_identical(sum(big$penalty$table$chosen), 1L)
  expect_equal(big$penalty$discount, big$penalty$table$discount[big$penalty$table$chosen])
  expect_match(big$penalty$label, "in the order of a first fit at discount [0-9.]+, the extended BIC")
  # the first fit's penalty stays exactly, or the chosen discount's BIC
  expect_equal(big$penalty$lambda,
               if (big$penalty$discount == first) as.numeric(ebic_lambda(300, 8, gamma = 1)) else
                 bic_lambda(300, big$penalty$discount))
  expect_equal(big$refine$lambda, big$penalty$lambda)
  # set.seed() reproduces the choice and the graph
  set.seed(3)
  again <- calm(sem$x, search = search_control(order_all_pairs = 5), verbose = FALSE)
  expect_identical(again$penalty$table, big$penalty$table)
  expect_identical(as_amat(again), as_amat(big))
  # a gamma the user gives is the first fit's
  set.seed(3)
  g75 <- calm(sem$x, search = search_control(order_all_pairs = 5, gamma = 0.75), verbose = FALSE)
  expect_equal(g75$penalty$in_order, attr(ebic_lambda(300, 8), "discount"))
  # the extended BIC when asked for, and with no more rows than variables:
  # gamma 0.75 under "auto"
  asked <- calm(sem$x, search = search_control(order_all_pairs = 5, penalty = "ebic"),
                verbose = FALSE)
  expect_identical(asked$penalty$method, "ebic")
  expect_equal(asked$penalty$lambda, as.numeric(ebic_lambda(300, 8)))
  few <- calm(sem$x[1:8, ], search = search_control(order_all_pairs = 5), verbose = FALSE)
  expect_identical(few$penalty$method, "ebic")
  expect_equal(few$penalty$lambda, as.numeric(ebic_lambda(8, 8)))
  expect_identical(calm(sem$x, verbose = FALSE)$penalty$method, "cv")
  expect_null(calm(sem$x, verbose = FALSE)$penalty$in_order)
  # a moral graph the user gives is searched inside, at any size
  given <- calm(sem$x, moral = moral_graph(sem$dag), search = search_control(order_all_pairs = 5),
                verbose = FALSE)
  expect_identical(given$penalty$method, "cv")
  # the rule itself
  ctrl <- calm_control(search = search_control(order_all_pairs = 5))
  mo <- list(source = "iamb")
  expect_null(calm:::selection_mask(matrix(1, 8, 8), mo, NULL, ctrl))
  expect_identical(calm:::selection_mask(matrix(1, 4, 4), mo, NULL, ctrl), matrix(1, 4, 4) - diag(4))
})

test_that("the selection in a given order scores each discount's graph in that order on held-out rows", {
  set.seed(4)
  sem <- simulate_sem(12, k = 1, n = 400)
  x <- sem$x
  truth_order <- calm:::cpp_topological_order((sem$B != 0) * 1)
  set.seed(5)
  pen <- calm:::select_discount_in_order(x, c(1.5, 2, 3, 4), 4L, truth_order, 3.3, splits = 1L)
  expect_s3_class(pen, "calm_penalty")
  expect_equal(pen$table$discount, c(1.5, 2, 3, 3.3, 4))
  expect_identical(pen$folds, 4L)
  # the held-out log-likelihood of one fold by hand: the DAG in the order at
  # discount 2 on the training rows, its regressions scored on the rest
  set.seed(5)
  fold <- sample(rep_len(1:4, 400))
  xs <- sweep(x, 2L, apply(abs(x), 2L, max), `/`)
  test <- which(fold == 1)
  train <- xs[-test, ]
  s <- cov(train) * (nrow(train) - 1) / nrow(train)
  dag <- calm:::cpp_order_local_search(s, matrix(1, 12, 12) - diag(12), bic_lambda(300, 2),
                                       truth_order, list(max_sweeps = 0L, tol = 1e-10,
                                                         exact_limit = 0L, grow_ratio = 1))$dag
  by_hand <- calm:::heldout_loglik(dag, s, colMeans(train), xs[test, ]) / length(test)
  path <- calm:::in_order_path(calm:::fold_moments(train), xs[test, ], c(4, 2),
                               matrix(1, 12, 12) - diag(12),
                               truth_order) / length(test)
  expect_equal(path[2], by_hand)
  # in the true order with strong effects the DAG at a large discount is the
  # true one, and the choice is not the smallest discount
  expect_gt(pen$discount, 1.5)
})

test_that("the training moments from one pass equal each fold's own moments", {
  set.seed(8)
  x <- matrix(rnorm(300 * 6), 300, 6) %*% matrix(runif(36), 6) + rep(1:6 * 10, each = 300)
  colnames(x) <- paste0("V", 1:6)
  fold <- sample(rep_len(1:3, 300))
  for (f in 1:3) {
    ms <- list()
    ms[[f]] <- calm:::training_moments(x, fold, f)
    own <- calm:::fold_moments(x[fold != f, ])
    expect_identical(ms[[f]]$n, own$n)
    expect_equal(ms[[f]]$mu, own$mu, tolerance = 1e-12)
    expect_equal(ms[[f]]$s, own$s, tolerance = 1e-10)
  }
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

test_that("the selection's rule keeps a given discount wherever it is tied with the best", {
  grid <- c(4, 3, 2)
  # three folds: discount 3 best, 4 within half a standard error, 2 far off
  ll <- rbind(c(1.02, 1.00, 0.99), c(1.01, 1.02, 0.99), c(0.5, 0.6, 0.4))
  expect_identical(calm:::choose_discount(ll, grid, 0.5)$discount, 4)
  expect_identical(calm:::choose_discount(ll, grid, 0.5, keep = 3)$discount, 3)
  # a kept discount outside its tolerance does not stay
  expect_identical(calm:::choose_discount(ll, grid, 0.5, keep = 2)$discount, 4)
  expect_identical(calm:::choose_discount(ll, grid, 0.5, keep = 2, keep_se = 2)$discount, 4)
  expect_identical(calm:::choose_discount(ll, grid, 0.5, keep = 2, keep_se = 1000)$discount, 2)
  tab <- calm:::choose_discount(ll, grid, 0.5)$table
  expect_identical(tab$discount, c(2, 3, 4))
  expect_identical(tab$chosen, c(FALSE, FALSE, TRUE))
})

test_that("where the choice in order moves the discount, the refinement runs again from the first fit's graph", {
  # weak effects: the extended BIC is too strong, and a smaller discount
  # predicts the held-out rows better by more than 3 standard errors
  set.seed(5)
  sem <- simulate_sem(20, k = 2, n = 500, weight_range = c(0.1, 0.5))
  ctl <- function(...) search_control(order_all_pairs = 10, ...)
  set.seed(2)
  fit <- calm(sem$x, refine = ctl(), verbose = FALSE)
  set.seed(2)
  first <- calm(sem$x, refine = ctl(penalty = "ebic", gamma = 1), verbose = FALSE)
  pen <- fit$penalty
  expect_lt(pen$discount, pen$in_order)
  expect_equal(pen$lambda, bic_lambda(500, pen$discount))
  expect_equal(fit$refine$lambda, pen$lambda)
  # the record keeps the first refinement: its penalty, score and moves, and
  # the continuous phase's graph as the start
  expect_equal(fit$refine$first$lambda, first$refine$lambda)
  expect_equal(fit$refine$first$score_after, first$refine$score_after)
  expect_identical(fit$refine$dag_before, first$refine$dag_before)
  k <- nrow(first$refine$moves)
  expect_equal(fit$refine$moves[seq_len(k), ], first$refine$moves, ignore_attr = TRUE)
  expect_gt(nrow(fit$refine$moves), k)
  expect_gte(fit$refine$seconds, fit$refine$first$seconds)
  # the second refinement's graph scores at least as well as the first fit's at that penalty
  lam <- pen$lambda
  expect_lte(score_dag(fit$amat, sem$x, lambda1 = lam), score_dag(first$amat, sem$x, lambda1 = lam) + 1e-8)
})
