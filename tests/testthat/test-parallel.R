# Beyond one machine: calm's futures on a cluster of separate R
# processes (PSOCK: what a plan over several machines uses) give the results
# of the sequential plan, seed for seed.

test_that("a PSOCK cluster plan gives the results of the sequential plan", {
  skip_on_cran()
  skip_if_not_installed("parallelly")
  sem <- withr::with_seed(21, simulate_sem(10, k = 1, n = 300))
  run <- function() {
    list(
      calm = withr::with_seed(1, calm(sem$x, restarts = 2, verbose = FALSE)),
      boss = withr::with_seed(2, boss(sem$x, starts = 4)),
      boot = withr::with_seed(3, bootstrap_edges(sem$x, R = 4, learner = boss))
    )
  }
  old <- future::plan(future::sequential)
  on.exit(future::plan(old), add = TRUE)
  seq_res <- run()
  # the workers load calm from this session's libraries
  cl <- parallelly::makeClusterPSOCK(2, rscript_libs = .libPaths(), verbose = FALSE)
  on.exit(parallel::stopCluster(cl), add = TRUE, after = FALSE)
  future::plan(future::cluster, workers = cl)
  expect_equal(future::nbrOfWorkers(), 2)
  par_res <- run()
  future::plan(future::sequential)

  expect_identical(par_res$calm$amat, seq_res$calm$amat)
  expect_identical(par_res$calm$restarts$seed, seq_res$calm$restarts$seed)
  expect_identical(par_res$calm$refine$score_after, seq_res$calm$refine$score_after)
  expect_identical(par_res$boss$amat, seq_res$boss$amat)
  expect_identical(par_res$boss$score, seq_res$boss$score)
  expect_identical(par_res$boot$dag, seq_res$boot$dag)
  expect_identical(par_res$boot$cpdag, seq_res$boot$cpdag)
  # the run did use the workers: their process ids differ from this one's
  pids <- unlist(parallel::clusterCall(cl, Sys.getpid))
  expect_false(Sys.getpid() %in% pids)
})
