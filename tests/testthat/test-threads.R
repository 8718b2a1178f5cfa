# Threads. The compiled code is single-threaded by design: Eigen is built
# with EIGEN_DONT_PARALLELIZE and without OpenMP, and nothing in src/ starts
# a thread. Parallelism over restarts and benchmark grids goes through the
# future framework, whose plan the user chooses (the package never sets it).
# These tests check that design from the outside: results do not depend on
# thread settings or on the plan, and the package starts no threads.

# Names of thread-starting functions referenced by the package's shared
# object: OpenMP's runtime, POSIX and C11 threads.
thread_symbols_in_dll <- function() {
  path <- getLoadedDLLs()[["calm"]][["path"]]
  bytes <- readBin(path, "raw", file.size(path))
  syms <- c("GOMP_parallel", "GOMP_loop", "omp_get_num_threads", "omp_set_num_threads",
            "pthread_create", "thrd_create")
  syms[vapply(syms, function(s) length(grepRaw(s, bytes, fixed = TRUE)) > 0L, logical(1))]
}

test_that("the compiled code neither uses OpenMP nor creates threads", {
  expect_identical(thread_symbols_in_dll(), character())
})

test_that("no function sets or changes the future plan", {
  skip_if_not_installed("future")
  # The package's code must leave plan() to the user: it never calls it.
  ns <- asNamespace("calm")
  calls_plan <- vapply(ls(ns, all.names = TRUE), function(f) {
    fn <- get(f, envir = ns)
    is.function(fn) && any(grepl("\\bplan\\s*\\(", deparse(fn)))
  }, logical(1))
  expect_identical(names(calls_plan)[calls_plan], character())
  before <- future::plan()
  set.seed(1)
  sem <- simulate_sem(6, k = 1, n = 100)
  estimate_moral_graph(sem$x)
  # a short schedule: its not-converged warning is beside the point here
  suppressWarnings(
    calm(sem$x, restarts = 2, iter_per_round = 100, max_rounds = 1, verbose = FALSE)
  )
  expect_identical(future::plan(), before)
})

# Runs `fun` in a child R process with the given environment variables and
# returns its value.
in_child <- function(fun, env = character()) {
  callr::r(fun, env = c(callr::rcmd_safe_env(), env))
}

test_that("results are identical with 1 and 2 BLAS / OpenMP threads", {
  skip_on_cran()
  skip_if_not_installed("callr")
  # Bit for bit: what calm computes itself (its C++ core). What goes through
  # R's own BLAS/LAPACK (solve(), crossprod(): population_cov() and the
  # least-squares refit of fit$B) may differ in the last bits under a
  # multithreaded BLAS such as OpenBLAS, so it is compared to 1e-12.
  work <- function() {
    library(calm)
    set.seed(7)
    sem <- simulate_sem(15, k = 2, n = 400)
    own <- list(
      mg = as_amat(estimate_moral_graph(sem$x)),
      mg_prec = as_amat(estimate_moral_graph(cov = sem$sigma, method = "precision")),
      cpdag = dag_to_cpdag(sem$B, output = "matrix")
    )
    blas <- list(sigma = population_cov(sem$B, sem$omega))
    fit <- calm(sem$x, iter_per_round = 300, max_rounds = 2, verbose = FALSE)
    own$calm <- list(amat = fit$amat, B_raw = fit$B_raw,
                     trace = fit$trace[, c("h", "objective")])
    blas$B <- fit$B
    list(own = own, blas = blas, blas_lib = extSoftVersion()[["BLAS"]])
  }
  threads <- function(k) {
    c(OMP_NUM_THREADS = k, OPENBLAS_NUM_THREADS = k, MKL_NUM_THREADS = k,
      OMP_THREAD_LIMIT = k)
  }
  one <- in_child(work, threads("1"))
  two <- in_child(work, threads("2"))
  expect_identical(one$own, two$own)
  expect_equal(one$blas, two$blas, tolerance = 1e-12)
})

test_that("calm() restarts give the same fit under any future plan", {
  skip_on_cran()
  skip_if_not_installed("future")
  fit_with <- function(...) {
    old <- future::plan(...)
    on.exit(future::plan(old), add = TRUE)
    set.seed(3)
    sem <- simulate_sem(8, k = 1, n = 300)
    suppressWarnings(
      calm(sem$x, restarts = 2, iter_per_round = 300, max_rounds = 2, verbose = FALSE)
    )
  }
  seq_fit <- fit_with(future::sequential)
  par_fit <- fit_with(future::multisession, workers = 2)
  expect_identical(seq_fit$B, par_fit$B)
  expect_identical(seq_fit$restarts$objective, par_fit$restarts$objective)
  expect_identical(seq_fit$seed, par_fit$seed)
})

test_that("the package starts no threads while it computes", {
  skip_on_cran()
  skip_on_os(c("windows", "mac", "solaris"))   # counts threads through /proc
  skip_if_not_installed("callr")
  signal <- tempfile("calm-threads-")
  on.exit(unlink(signal), add = TRUE)
  p <- callr::r_bg(function(signal) {
    library(calm)
    set.seed(2)
    sem <- simulate_sem(40, k = 2, n = 2000)
    dag_to_cpdag(sem$B)   # every dependency loaded before the baseline
    writeLines(as.character(length(list.files("/proc/self/task"))), signal)
    t0 <- proc.time()[["elapsed"]]
    while (proc.time()[["elapsed"]] - t0 < 2) {
      estimate_moral_graph(sem$x)
      estimate_moral_graph(cov = sem$sigma, method = "precision")
      moral_graph(sem$B)
      calm(sem$x, iter_per_round = 200, max_rounds = 1, verbose = FALSE)
    }
    length(list.files("/proc/self/task"))
  }, args = list(signal = signal))
  on.exit(p$kill(), add = TRUE)
  task_dir <- file.path("/proc", p$get_pid(), "task")
  waited <- 0
  while (!file.exists(signal) && p$is_alive() && waited < 60) {
    Sys.sleep(0.02)
    waited <- waited + 0.02
  }
  peak <- 0L
  while (p$is_alive()) {
    peak <- max(peak, length(list.files(task_dir)))
    Sys.sleep(0.02)
  }
  baseline <- as.integer(readLines(signal))
  at_end <- p$get_result()
  expect_gte(peak, 1L)   # the sampling saw the child's threads
  # Threads present after loading the package and its dependencies (R's
  # main thread, plus any that igraph or cli keep) are not ours. The rule is
  # at most 2 threads unless the user asks for more; today the computations
  # add none at all, which is what is asserted (relax it to 2 only with a
  # threaded feature that defaults to 2).
  expect_identical(max(peak, at_end) - baseline, 0L)
})
