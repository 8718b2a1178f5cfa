# Tasks spread over the user's future::plan() so that a worker that dies
# costs only its own task. future.apply::future_lapply() loses every result
# when one worker dies (its FutureError ends the call); here each task is
# its own future, collected on its own.

# Runs fun(i) for i in seq_len(n), one future each, and returns a list with
# `values` (fun(i), or NULL for a task that did not finish) and `failed` (NA,
# or why the task did not finish). `seeds`: NULL, or one L'Ecuyer-CMRG
# seed per task (rng_streams()). Errors fun() raises itself are the
# caller's to catch inside fun(); what reaches here is a worker's death.
# When a worker has died, the futures already running are collected first
# (nothing finished is lost), then the plan is set again, which starts
# fresh workers, and the remaining tasks go on.
run_tasks <- function(n, fun, seeds = NULL, packages = "calm") {
  values <- vector("list", n)
  failed <- rep(NA_character_, n)
  running <- list()
  launch <- function(i) {
    seed <- if (is.null(seeds)) FALSE else seeds[[i]]
    future::future(fun(i), seed = seed, packages = packages)
  }
  collect <- function() {
    for (key in names(running)) {
      i <- as.integer(key)
      # only the future's own failure is caught: an error fun() raises on
      # purpose (a bad argument found on the worker) stops the caller
      res <- tryCatch(list(value = future::value(running[[key]])), FutureError = function(e) e)
      if (inherits(res, "FutureError")) failed[i] <<- worker_failure(res) else values[i] <<- list(res$value)
    }
    running <<- list()
  }
  for (i in seq_len(n)) {
    f <- tryCatch(launch(i), FutureError = function(e) e)
    if (inherits(f, "FutureError")) {
      collect()
      restart_workers()
      f <- tryCatch(launch(i), FutureError = function(e) e)
    }
    if (inherits(f, "FutureError")) {
      failed[i] <- worker_failure(f)
      next
    }
    running[[as.character(i)]] <- f
  }
  collect()
  list(values = values, failed = failed)
}

worker_failure <- function(e) {
  paste0("the worker failed (did its R process die?): ", conditionMessage(e))
}

# The same plan set again: future stops the old workers and starts new
# ones, which is how a dead multisession worker is replaced.
restart_workers <- function() {
  # evaluated first: plan() takes a call as its argument for a strategy
  current <- future::plan("list")
  future::plan(current)
  invisible(NULL)
}

# n independent L'Ecuyer-CMRG streams drawn from R's generator (one number
# of it), so that set.seed() makes the tasks reproducible whatever the plan.
rng_streams <- function(n) {
  first <- sample.int(.Machine$integer.max, 1L)
  old_kind <- RNGkind()[1L]
  old_seed <- get0(".Random.seed", envir = globalenv(), inherits = FALSE)
  on.exit({
    RNGkind(old_kind)
    if (is.null(old_seed)) {
      rm(".Random.seed", envir = globalenv())
    } else {
      assign(".Random.seed", old_seed, envir = globalenv())
    }
  })
  RNGkind("L'Ecuyer-CMRG")
  set.seed(first)
  s <- get(".Random.seed", envir = globalenv())
  out <- vector("list", n)
  for (i in seq_len(n)) {
    out[[i]] <- s
    s <- parallel::nextRNGStream(s)
  }
  out
}
