# The interventional polish of a search's DAG (R/search-polish.R).

# Two variables A -> B, observed and with A intervened on: the two
# orientations are one observational class, which the interventional
# score tells apart.
polish_case <- function() {
  set.seed(6204)
  nm <- c("A", "B")
  sem <- simulate_sem(2, dag = matrix(c(0, 0, 1, 0), 2, 2, dimnames = list(nm, nm)))
  sim <- simulate_interventions(sem, list(integer(0), "A"), c(400, 400))
  x <- as.matrix(sim$x)
  tg <- calm:::learner_targets(sim$targets, sim$target_index, nm, x, call = environment())
  sigma <- calm:::with_targets(stats::cor(x), x, tg, TRUE)
  list(sigma = sigma, n = nrow(x), lambda = as.numeric(bic_lambda(nrow(x), 2)), nm = nm)
}

test_that("polish_interventional() turns the wrong orientation into the right one", {
  pc <- polish_case()
  wrong <- matrix(c(0, 1, 0, 0), 2, 2, dimnames = list(pc$nm, pc$nm))
  right <- t(wrong)
  pol <- calm:::polish_interventional(wrong, pc$sigma, pc$lambda, pc$n)
  expect_equal(unname(pol$dag), unname(right))
  expect_identical(dimnames(pol$dag), list(pc$nm, pc$nm))
  before <- calm:::cpp_dag_local_scores(pc$sigma, wrong, pc$lambda, -1L)$total
  expect_lt(pol$score, before)
  # the right DAG is kept as it is, with its own score
  kept <- calm:::polish_interventional(right, pc$sigma, pc$lambda, pc$n)
  expect_equal(unname(kept$dag), unname(right))
  expect_equal(kept$score, calm:::cpp_dag_local_scores(pc$sigma, right, pc$lambda, -1L)$total)
})

test_that("polish_refined() records the polish in the refinement's record", {
  pc <- polish_case()
  wrong <- matrix(c(0, 1, 0, 0), 2, 2, dimnames = list(pc$nm, pc$nm))
  rec <- list(mask = NULL, score_after = 0, score_best = 0, seconds = 1,
              stage_seconds = c(order = 1))
  ctrl <- list(search = list(exact_max_d = 10))
  out <- calm:::polish_refined(list(dag = wrong, record = rec), pc$sigma, pc$lambda, pc$n,
                               NULL, ctrl)
  expect_true(out$record$polished)
  expect_equal(unname(out$dag), unname(t(wrong)))
  expect_identical(out$record$score_after, out$record$score_best)
  expect_gte(out$record$stage_seconds[["polish"]], 0)
  expect_equal(out$record$seconds, 1 + out$record$stage_seconds[["polish"]])
})
