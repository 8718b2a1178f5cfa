# The memory guard of calm(): the estimate of what a fit needs is compared
# with what the machine can give before anything large is allocated.

test_that("a fit that needs more than calm.max_bytes stops with a clear error", {
  set.seed(1)
  x <- simulate_sem(50, k = 1, n = 1000)$x
  old <- options(calm.max_bytes = 1e6)
  on.exit(options(old), add = TRUE)
  err <- expect_error(calm(x, verbose = FALSE), class = "calm_error_memory")
  expect_s3_class(err, "calm_error")
  msg <- conditionMessage(err)
  expect_match(msg, "50 variables", fixed = TRUE)
  expect_match(msg, "needs about [0-9.]+ MB of memory")
  expect_match(msg, "1 MB available (option calm.max_bytes)", fixed = TRUE)
  # also for a covariance, and before IAMB runs (no moral graph is estimated)
  expect_error(calm(cov = cov(x), n = 1000, moral = "none", verbose = FALSE),
               class = "calm_error_memory")
})

test_that("the limit comes from the option, else from /proc/meminfo", {
  old <- options(calm.max_bytes = 5e9)
  on.exit(options(old), add = TRUE)
  avail <- calm:::memory_available()
  expect_identical(as.numeric(avail), 5e9)
  expect_identical(attr(avail, "source"), "option calm.max_bytes")
  options(calm.max_bytes = "lots")
  expect_error(calm:::memory_available(), class = "calm_error_argument")
  options(calm.max_bytes = NULL)
  avail <- calm:::memory_available()
  if (file.exists("/proc/meminfo")) {
    expect_gt(as.numeric(avail), 0)
    expect_identical(attr(avail, "source"), "MemAvailable in /proc/meminfo")
  } else {
    expect_null(avail)
  }
})

test_that("the estimate grows with d, the data and the free entries", {
  ctrl <- calm_control()
  need <- function(...) calm:::fit_memory_need(..., ctrl = ctrl)
  # beyond a fixed part, as d^2
  fixed <- need(0, refine = "none")
  expect_equal(need(200, refine = "none") - fixed, 4 * (need(100, refine = "none") - fixed))
  expect_gt(need(100, n_rows = 1000, refine = "none"), need(100, refine = "none"))
  expect_gt(need(100, m = 9900, blocks2 = 1e4), need(100, m = 200, blocks2 = 1e4))
  expect_gt(need(100), need(100, refine = "none"))
  # the refinement's share, with the exact search's tables where it runs
  search <- 8 * (calm:::MEMORY_SEARCH_DD + 5) * 21^2
  expect_equal(need(21) - need(21, refine = "none"), search)
  full <- matrix(1, 20, 20) - diag(20)
  expect_equal(need(20) - need(20, refine = "none"),
               8 * (calm:::MEMORY_SEARCH_DD + 5) * 20^2 + calm:::cpp_exact_search_bytes(full))
  # the searches' caches count up to their budget
  big <- need(1e4) - need(1e4, refine = "none")
  expect_equal(big, 8 * calm:::MEMORY_SEARCH_DD * 1e8 + calm:::search_cache_budget)
  # a fit that fits passes
  old <- options(calm.max_bytes = 1e12)
  on.exit(options(old), add = TRUE)
  sem <- simulate_sem(5, n = Inf)
  fit <- suppressWarnings(calm(cov = sem$sigma, iter_per_round = 200, max_rounds = 2,
                               refine = "none", verbose = FALSE))
  expect_s3_class(fit, "calm_fit")
})

test_that("the guard lets 10,000 variables start with 13 GB and stops 50,000", {
  ctrl <- calm_control()
  guard <- function(d, bytes) {
    old <- options(calm.max_bytes = bytes)
    on.exit(options(old))
    # as calm() calls it before the covariance exists: d, the rows, no mask
    calm:::check_fit_memory(d, 3000, moral = NULL, refine = "ges", ctrl = ctrl,
                            kernel = !calm:::continuous_skip(ctrl, "ges", 3000, d),
                            call = environment())
  }
  expect_lt(guard(1e4, 13e9), 13e9)
  err <- expect_error(guard(1e4, 8e9), class = "calm_error_memory")
  expect_match(conditionMessage(err), "10000 variables")
  err <- expect_error(guard(5e4, 24e9), class = "calm_error_memory")
  expect_match(conditionMessage(err), "needs about [0-9.]+ GB")
  # with the kernel of a continuous phase (at most 1000 variables) more is needed
  expect_gt(calm:::fit_memory_need(1000, 3000, kernel = TRUE),
            calm:::fit_memory_need(1000, 3000, kernel = FALSE))
})
