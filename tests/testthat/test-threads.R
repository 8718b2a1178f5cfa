# Threads. Two kinds of parallelism, both chosen by the user:
# - calm_control(threads =): the step kernel splits the matrix products of
#   moral-graph blocks of 180 nodes or more by columns among that many
#   threads (src/thread_team.h), started for one fit and joined at its end.
#   Each column is computed the same way in any split, so the fit is the same
#   bit for bit for every thread count (checked below).
# - restarts, components and benchmark grids go through the future framework,
#   whose plan the user chooses (the package never sets it).
# Eigen is built with EIGEN_DONT_PARALLELIZE and without OpenMP (whose
# thread pool hangs forked children: future's multicore plan, mclapply).

# Names of OpenMP's runtime functions referenced by the package's shared object.
openmp_symbols_in_dll <- function() {
  path <- getLoadedDLLs()[["calm"]][["path"]]
  bytes <- readBin(path, "raw", file.size(path))
  syms <- c("GOMP_parallel", "GOMP_loop", "omp_get_num_threads", "omp_set_num_threads")
  syms[vapply(syms, function(s) length(grepRaw(s, bytes, fixed = TRUE)) > 0L, logical(1))]
}

test_that("the compiled code does not use OpenMP", {
  expect_identical(openmp_symbols_in_dll(), character())
})

# A problem whose moral graph has one block of more than 180 nodes, so that
# threads > 1 splits its products.
big_block_problem <- function(k) {
  set.seed(11)
  sem <- simulate_sem(190, k = k, n = 500)
  list(x = sem$x, moral = moral_graph(sem$B))
}

test_that("a fit is the same bit for bit with 1, 2 and 3 kernel threads", {
  skip_on_cran()   # among the slowest tests; CI runs it with NOT_CRAN=true
  pb2 <- big_block_problem(2)
  pb4 <- big_block_problem(4)
  expect_gte(max(igraph::components(pb2$moral)$csize), 180)
  expect_gte(max(igraph::components(pb4$moral)$csize), 180)
  fit_with <- function(pb, threads, iter = 100, rounds = 2, ...) {
    suppressWarnings(calm(pb$x, moral = pb$moral, refine = "none", verbose = FALSE, seed = 5,
                          control = calm_control(iter_per_round = iter, max_rounds = rounds,
                                                 threads = threads, ...)))
  }
  same <- function(a, b) {
    expect_identical(a$B_raw, b$B_raw)
    expect_identical(a$gate_values, b$gate_values)
    expect_identical(a$trace$objective, b$trace$objective)
  }
  # sparse block (column updates, selected last product), dense block (products
  # in the score and the power), the matrix exponential, and a complete block
  one <- fit_with(pb2, 1)
  same(one, fit_with(pb2, 2))
  # CRAN allows at most 2 threads in checks
  if (identical(Sys.getenv("NOT_CRAN"), "true")) same(one, fit_with(pb2, 3))
  same(fit_with(pb4, 1), fit_with(pb4, 2))
  same(fit_with(pb2, 1, acyclicity = "exp"), fit_with(pb2, 2, acyclicity = "exp"))
  pbf <- list(x = pb2$x, moral = "none")
  same(fit_with(pbf, 1, iter = 40, rounds = 1), fit_with(pbf, 2, iter = 40, rounds = 1))
  expect_identical(one$settings$control$threads, 1L)
})

test_that("on a busy machine a 2-thread fit is still the same bit for bit", {
  # With every core taken by other processes, the kernel's team finds its
  # helper lagging and runs the parts on the caller's thread for a while
  # (src/thread_team.cpp); the parts are the same, so the fit is too.
  skip_on_cran()
  skip_if_not_installed("callr")
  pb <- big_block_problem(2)
  fit_with <- function(threads) {
    suppressWarnings(calm(pb$x, moral = pb$moral, refine = "none", verbose = FALSE, seed = 5,
                          control = calm_control(iter_per_round = 300, max_rounds = 2,
                                                 threads = threads)))
  }
  one <- fit_with(1)
  busy <- lapply(1:2, function(i) callr::r_bg(function() {
    t0 <- proc.time()[["elapsed"]]
    while (proc.time()[["elapsed"]] - t0 < 120) NULL
  }))
  on.exit(for (b in busy) b$kill(), add = TRUE)
  two <- fit_with(2)
  expect_true(all(vapply(busy, function(b) b$is_alive(), logical(1))))  # the load was there
  expect_identical(one$B_raw, two$B_raw)
  expect_identical(one$trace$objective, two$trace$objective)
})

test_that("no function sets or changes the future plan", {
  skip_if_not_installed("future")
  # The package's code must leave plan() to the user: it never calls it,
  # except restart_workers(), which sets the user's own plan again to
  # replace a worker that died; test-bootstrap.R checks that the
  # plan is the same afterwards.
  ns <- asNamespace("calm")
  calls_plan <- vapply(ls(ns, all.names = TRUE), function(f) {
    fn <- get(f, envir = ns)
    is.function(fn) && any(grepl("\\bplan\\s*\\(", deparse(fn)))
  }, logical(1))
  expect_identical(names(calls_plan)[calls_plan], "restart_workers")
  expect_identical(deparse(body(ns$restart_workers))[2:4],
                   c("    current <- future::plan(\"list\")", "    future::plan(current)",
                     "    invisible(NULL)"))
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
in_child <- function(fun, env = character(), args = list()) {
  callr::r(fun, args = args, env = c(callr::rcmd_safe_env(), env))
}

test_that("results are identical with 1 and 2 BLAS / OpenMP threads", {
  skip_on_cran()
  skip_if_not_installed("callr")
  # Bit for bit: what calm computes itself (its C++ core). What goes through
  # R's own BLAS/LAPACK (solve(), crossprod(): population_cov() and the
  # least-squares refit of fit$B) may differ in the last bits under a
  # multithreaded BLAS such as OpenBLAS, so it is compared to 1e-12. The
  # simulated data come from the parent process: simulate_sem() multiplies
  # matrices with R's BLAS, and OpenBLAS's AVX-512 kernels give other last
  # bits with 2 threads than with 1.
  set.seed(7)
  sem <- simulate_sem(15, k = 2, n = 400)
  work <- function(sem) {
    library(calm)
    set.seed(8)  # calm()'s Gumbel noise
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
  one <- in_child(work, threads("1"), args = list(sem = sem))
  two <- in_child(work, threads("2"), args = list(sem = sem))
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

test_that("a fit starts at most threads - 1 threads and leaves none behind", {
  skip_on_cran()
  skip_on_os(c("windows", "mac", "solaris"))   # counts threads through /proc
  skip_if_not_installed("callr")
  count_threads <- function(threads) {
    signal <- tempfile("calm-threads-")
    on.exit(unlink(signal), add = TRUE)
    p <- callr::r_bg(function(signal, threads) {
      library(calm)
      set.seed(2)
      sem <- simulate_sem(190, k = 2, n = 500)   # one moral block of 190 nodes
      mg <- moral_graph(sem$B)
      dag_to_cpdag(sem$B)   # every dependency loaded before the baseline
      writeLines(as.character(length(list.files("/proc/self/task"))), signal)
      t0 <- proc.time()[["elapsed"]]
      while (proc.time()[["elapsed"]] - t0 < 2) {
        estimate_moral_graph(sem$x)
        suppressWarnings(calm(sem$x, moral = mg, refine = "none", verbose = FALSE,
                              control = calm_control(iter_per_round = 200, max_rounds = 1,
                                                     threads = threads)))
      }
      length(list.files("/proc/self/task"))
    }, args = list(signal = signal, threads = threads))
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
      Sys.sleep(0.01)
    }
    baseline <- as.integer(readLines(signal))
    c(added = max(peak, baseline) - baseline, left = p$get_result() - baseline)
  }
  # Threads present after loading the package and its dependencies (R's main
  # thread, plus any that igraph or cli keep) are not ours.
  one <- count_threads(1L)
  expect_identical(unname(one), c(0L, 0L))
  two <- count_threads(2L)
  expect_identical(unname(two[["left"]]), 0L)   # joined at the end of each fit
  expect_identical(unname(two[["added"]]), 1L)  # the helper, seen while it ran
})
