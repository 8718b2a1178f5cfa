# Ctrl-C during a long computation in C++ must stop it promptly, unwind the
# C++ side cleanly and leave R usable. The computation runs in a child R
# process that is sent SIGINT; the child catches the interrupt condition,
# then evaluates more R code and returns it.

# Starts `fun` in a child R process, waits until it has started its long
# computation (it creates the file `signal`), lets it run `run_for` seconds,
# sends SIGINT and waits for the child to end (`args`: more arguments for
# `fun`). Returns the child's result
# and the seconds between the interrupt and the child's exit.
interrupt_child <- function(fun, run_for = 1.5, setup_timeout = 60, args = list()) {
  signal <- tempfile("calm-interrupt-")
  on.exit(unlink(signal), add = TRUE)
  p <- callr::r_bg(fun, args = c(list(signal = signal), args))
  on.exit(p$kill(), add = TRUE)
  waited <- 0
  while (!file.exists(signal) && p$is_alive() && waited < setup_timeout) {
    Sys.sleep(0.05)
    waited <- waited + 0.05
  }
  if (!file.exists(signal)) {
    stop("the child did not start: ", paste(p$read_all_error_lines(), collapse = "\n"))
  }
  Sys.sleep(run_for)
  expect_true(p$is_alive())   # still computing when interrupted
  t0 <- proc.time()[["elapsed"]]
  p$interrupt()
  p$wait(timeout = 10000)
  stopped_after <- proc.time()[["elapsed"]] - t0
  expect_false(p$is_alive())
  list(result = p$get_result(), stopped_after = stopped_after)
}

test_that("an interrupt stops a long moral graph search and R stays usable", {
  skip_on_cran()
  skip_on_os("windows")   # SIGINT semantics; processx sends CTRL+C there
  skip_if_not_installed("callr")
  out <- interrupt_child(function(signal) {
    library(calm)
    # Equicorrelated variables: every blanket holds all other variables, so
    # exact IAMB grows each one to d - 1 members (about 15 s for d = 400).
    d <- 400
    S <- matrix(0.5, d, d)
    diag(S) <- 1
    file.create(signal)
    res <- tryCatch({
      estimate_moral_graph(cov = S)
      "finished"
    }, interrupt = function(e) "interrupted")
    # R still works: evaluation, allocation, and the package itself.
    list(res = res, after = 1 + 1,
         small = igraph::ecount(estimate_moral_graph(cov = S[1:5, 1:5])))
  })
  expect_identical(out$result$res, "interrupted")
  expect_identical(out$result$after, 2)
  expect_identical(out$result$small, 10)
  # Interrupts are polled between targets (well under a second each here);
  # the bound leaves room for a loaded machine.
  expect_lt(out$stopped_after, 3)
})

test_that("an interrupt stops a long calm() fit and R stays usable", {
  skip_on_cran()
  skip_on_os("windows")
  skip_if_not_installed("callr")
  out <- interrupt_child(function(signal) {
    library(calm)
    set.seed(1)
    sem <- simulate_sem(30, k = 2)
    file.create(signal)
    res <- tryCatch({
      calm(cov = sem$sigma, moral = "none", iter_per_round = 1e6, max_rounds = 5,
           verbose = FALSE)
      "finished"
    }, interrupt = function(e) "interrupted")
    fit <- calm(cov = sem$sigma[1:4, 1:4], iter_per_round = 200, max_rounds = 2,
                verbose = FALSE)
    list(res = res, after = 1 + 1, small = inherits(fit, "calm_fit"))
  })
  expect_identical(out$result$res, "interrupted")
  expect_identical(out$result$after, 2)
  expect_true(out$result$small)
  expect_lt(out$stopped_after, 3)
})

test_that("an interrupt stops a long exact search and R stays usable", {
  skip_on_cran()
  skip_on_os("windows")
  skip_if_not_installed("callr")
  out <- interrupt_child(function(signal) {
    library(calm)
    set.seed(1)
    sem <- simulate_sem(22, k = 4)
    file.create(signal)
    # unrestricted, 22 variables: about 13 s and 0.4 GB of tables
    res <- tryCatch({
      exact_search(cov = sem$sigma, moral = "none")
      "finished"
    }, interrupt = function(e) "interrupted")
    fit <- exact_search(cov = sem$sigma[1:4, 1:4], moral = "none")
    list(res = res, after = 1 + 1, small = inherits(fit, "calm_fit"))
  })
  expect_identical(out$result$res, "interrupted")
  expect_identical(out$result$after, 2)
  expect_true(out$result$small)
  # polled between nodes' tables (well under a second each) and every 2^16
  # subsets of the dynamic programme
  expect_lt(out$stopped_after, 3)
})

test_that("an interrupt stops a long NOTEARS fit with either L-BFGS-B and R stays usable", {
  skip_on_cran()
  skip_on_os("windows")
  skip_if_not_installed("callr")
  for (solver in c("lbfgspp", "optim")) {
    out <- interrupt_child(function(signal, solver) {
      library(calm)
      set.seed(1)
      # non-standardized dense data: every subproblem runs long
      sem <- simulate_sem(40, k = 4)
      file.create(signal)
      res <- tryCatch({
        suppressWarnings(notears_linear(cov = sem$sigma, standardize = FALSE, solver = solver))
        "finished"
      }, interrupt = function(e) "interrupted")
      fit <- notears_linear(cov = sem$sigma[1:4, 1:4], solver = solver)
      list(res = res, after = 1 + 1, small = inherits(fit, "calm_fit"))
    }, args = list(solver = solver))
    expect_identical(out$result$res, "interrupted", label = solver)
    expect_identical(out$result$after, 2)
    expect_true(out$result$small)
    expect_lt(out$stopped_after, 3)
  }
})
