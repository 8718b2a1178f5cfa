# The helpers the reproduction scripts share (inst/bench/paper/common.R): how a
# long table is run and stored in chunks of replicates.

scripts_env <- function() {
  f <- system.file("bench", "paper", "common.R", package = "calm")
  skip_if(!nzchar(f), "the scripts are not installed")
  env <- new.env()
  sys.source(f, envir = env)
  env
}

test_that("--replicates is parsed as a range or a list", {
  e <- scripts_env()
  expect_equal(e$parse_replicates("6-10"), 6:10)
  expect_equal(e$parse_replicates("5,1,3"), c(1L, 3L, 5L))
  expect_equal(e$parse_replicates("2"), 2L)
  expect_equal(e$parse_replicates("1-2,7"), c(1L, 2L, 7L))
  for (bad in c("3-1", "1,1", "a", "0", "1-2-3", "")) {
    expect_error(e$parse_replicates(bad), "--replicates")
  }
  expect_equal(e$replicates_label(6:10), "r6-10")
  expect_equal(e$replicates_label(c(1L, 3L)), "r1.3")
  expect_equal(e$replicates_label(4L), "r4")
})

test_that("a chunk of replicates is planned, run and stored under its own name", {
  skip_if_not_installed("future")
  e <- scripts_env()
  out <- withr::local_tempdir()
  opts <- list(quick = FALSE, reps = NULL, replicates = 2:3, methods = "notears",
               settings = 1L, workers = NULL, outdir = out)
  plan <- e$table_plan(opts, c("notears", "pc"), data.frame(d = c(5, 6), k = 1, n = Inf))
  expect_equal(plan$replicates, 2:3)
  expect_equal(plan$methods, "notears")
  res <- benchmark_methods(plan$methods, plan$settings, seed = 2025,
                           replicates = plan$replicates)
  expect_equal(sort(unique(res$rep)), 2:3)
  path <- suppressMessages(
    e$store_result("table9", res, opts, Sys.time(), plan$methods, c("notears", "pc"))
  )
  expect_equal(basename(path), "table9_s1_notears_r2-3.rds")
  stored <- readRDS(path)
  expect_equal(stored$result$shd, res$shd)
  # the vignette groups chunks by the name without the replicate part
  expect_equal(sub("_r[0-9.-]+$", "", sub("\\.rds$", "", basename(path))), "table9_s1_notears")
  # without --replicates the plan is the table's replicates
  opts$replicates <- NULL
  expect_equal(e$table_plan(opts, "notears", data.frame(d = 5))$replicates, 1:10)
})
