# The penalty chosen in the order of a first fit, above order_all_pairs
# variables with an estimated moral graph (R/search-penalty-in-order.R).

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
                                                         exact_parents_max = 0L, grow_ratio = 1))$dag
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
  expect_lte(score_dag(fit$amat, sem$x, edge_penalty = lam), score_dag(first$amat, sem$x, edge_penalty = lam) + 1e-8)
})
