# One fit over the future plan: the penalty selection's folds and the BOSS
# starts of the refinement and of its minimum-risk step (R/search-penalty.R,
# R/search-boss.R, R/search-refine.R, R/search-risk.R).

test_that("best_start_of() picks the start one call over all starts picks", {
  expect_identical(calm:::best_start_of(c(3, 1, 2)), 2L)
  # ties go to the earlier start
  expect_identical(calm:::best_start_of(c(2, 1, 1)), 2L)
  # scores within score_tol of each other chain: the first start is beaten
  # only by a score more than score_tol below the best so far
  tol <- calm:::score_tol
  expect_identical(calm:::best_start_of(c(0, -0.6 * tol, -1.2 * tol)), 3L)
  expect_identical(calm:::best_start_of(c(0, -0.6 * tol)), 1L)
})

test_that("boss_run() over groups of starts gives the result of one call", {
  b <- boss_case(3, d = 12, k = 2, n = 300, starts = 7)
  one <- calm:::boss_search(b$sigma, b$mask, b$lambda, b$starts, 100L, 14L, TRUE, 1,
                            keep_graphs = TRUE)
  # the future.apply path under the sequential plan, with uneven groups
  split <- calm:::boss_run(b$sigma, b$mask, b$lambda, b$starts, 100L, 14L, TRUE, 1,
                           keep_graphs = TRUE, progress = FALSE, groups = list(1:2, 3L, 4:7))
  keep <- c("dag", "cpdag", "score", "order", "best_start", "orders", "starts", "start_cpdags")
  expect_identical(split[keep], one[keep])
})

test_that("the selection's tasks are drawn as the folds run one after the other", {
  set.seed(8)
  tasks <- calm:::fold_tasks(20, 4, folds = 4, splits = 2, call = NULL, fold_arg = "folds")
  expect_length(tasks, 8L)
  # each split's folds cover the rows once
  for (s in 0:1) {
    rows <- unlist(lapply(tasks[4 * s + 1:4], `[[`, "test"))
    expect_setequal(rows, 1:20)
    expect_length(rows, 20L)
  }
  # the draws: a split's folds, then its folds' two start orders each
  set.seed(8)
  fold <- calm:::draw_folds(20, 4, NULL, "folds")
  expect_identical(tasks[[1]]$test, which(fold == 1))
  expect_identical(tasks[[1]]$starts, cbind(sample.int(4), sample.int(4)))
})

# A fit without its timings, which differ between any two runs; graphs as
# their vertex and edge tables (an igraph object carries a random id).
drop_timings <- function(x) {
  if (inherits(x, "igraph")) return(igraph::as_data_frame(x, what = "both"))
  if (!is.list(x)) return(x)
  x <- x[!names(x) %in% c("seconds", "time", "stage_seconds")]
  x[] <- lapply(x, drop_timings)
  x
}

test_that("a calm() fit is the same under a sequential and a 2-worker multisession plan", {
  skip_on_cran()
  skip_if_not_installed("future")
  skip_if_not_installed("future.apply")
  set.seed(12)
  sem <- simulate_sem(10, k = 2, n = 200)
  run <- function() {
    set.seed(5)
    calm(sem$x, penalty_discount = "cv", iter_per_round = 2000, verbose = FALSE)
  }
  old <- future::plan(future::sequential)
  on.exit(future::plan(old), add = TRUE)
  seq_fit <- run()
  # every part ran: the selection, BOSS and the minimum-risk step
  expect_identical(seq_fit$penalty$method, "cv")
  expect_true(calm:::min_risk_applies(list(ctrl = seq_fit$settings$control, n = 200, d = 10)))
  future::plan(future::multisession, workers = 2)
  expect_equal(future::nbrOfWorkers(), 2)
  par_fit <- run()
  after <- stats::runif(1)
  future::plan(future::sequential)
  expect_true(all.equal(drop_timings(unclass(par_fit)), drop_timings(unclass(seq_fit))))
  expect_identical(par_fit$amat, seq_fit$amat)
  expect_identical(par_fit$penalty, seq_fit$penalty)
  expect_identical(drop_timings(par_fit$refine), drop_timings(seq_fit$refine))
  # the parallel run drew as many random numbers as the sequential one
  set.seed(5)
  seq_again <- run()
  expect_identical(stats::runif(1), after)
  expect_identical(seq_again$amat, seq_fit$amat)
})

test_that("a calm() fit spread over localhost workers under plan(cluster) is the sequential one", {
  skip_on_cran()
  skip_if_not_installed("future")
  skip_if_not_installed("future.apply")
  set.seed(13)
  sem <- simulate_sem(30, k = 1, n = 300)
  run <- function() {
    set.seed(6)
    calm(sem$x, verbose = FALSE)
  }
  old <- future::plan(future::sequential)
  on.exit(future::plan(old), add = TRUE)
  seq_fit <- run()
  future::plan(future::cluster, workers = rep("localhost", 2))
  expect_equal(future::nbrOfWorkers(), 2)
  spread <- run()
  future::plan(future::sequential)
  expect_identical(spread$amat, seq_fit$amat)
  expect_identical(spread$penalty, seq_fit$penalty)
  expect_identical(drop_timings(spread$refine), drop_timings(seq_fit$refine))
})

test_that("kicks: the kicked search replaces the start only when it scores better", {
  b <- boss_case(21, d = 25, k = 2, n = 400, starts = 1)
  first <- calm:::boss_search(b$sigma, b$mask, b$lambda, b$starts, 100L, 14L, TRUE, 1)
  set.seed(9)
  kicked <- calm:::kick_search(first, b$sigma, b$mask, b$lambda, 100L, 14L, TRUE, 1, 12L, 4L,
                               c(1, 0.5))
  set.seed(9)
  single <- calm:::boss_search(b$sigma, b$mask, b$lambda, matrix(first$order), 100L, 14L, TRUE, 1,
                               calm:::draw_kicks(25, 12L, 4L), c(1, 0.5))
  expect_identical(kicked$score, min(first$score, single$score))
  if (single$score < first$score - calm:::score_tol) {
    expect_identical(kicked$order, single$order)
    expect_identical(kicked$kicks_improved, single$kicks_improved)
  } else {
    expect_identical(kicked$order, first$order)
    expect_identical(kicked$kicks_improved, 0L)
  }
})

test_that("search_control() has no kick_chains (removed: it did not pay)", {
  expect_error(search_control(kick_chains = 2), "kick_chains")
})
