# Peak memory and seconds of the last step of a fit at scale: the calm_fit
# object made from a DAG (its CPDAG, the weights refitted on the covariance,
# the igraph graphs) by calm's internal new_calm_fit(), and of its parts.
# At 10,000 variables this step set the peak of calm()'s whole fit (each
# d x d matrix there is 0.8 GB). The DAG is a random one of d variables with
# two parents per node (simulate_dag()); the covariance is the identity, so
# the refit's solves are trivial and what is measured is the memory moved.
# Each step is measured in this process after gc(), as its peak resident set
# size (VmHWM, reset before the step through /proc/self/clear_refs) above
# the resident size at its start. Prints one row per step and stores them.
#
#   Rscript inst/bench/bench_fit_end.R out.rds [d,...]
#
# d: default 10000. Linux only (reads and resets /proc/self).
source(system.file("bench", "bench_args.R", package = "calm", mustWork = TRUE))
a <- bench_args(list(out = NA_character_, d = "10000"),
                usage = "Rscript inst/bench/bench_fit_end.R out.rds [d,...]")
suppressPackageStartupMessages(library(calm))
ns <- asNamespace("calm")
status_mib <- function(field) {
  s <- grep(paste0("^", field), readLines("/proc/self/status"), value = TRUE)
  as.numeric(sub("[^0-9]*([0-9]+).*", "\\1", s)) / 1024
}
measure <- function(d, step, expr) {
  invisible(gc())
  writeLines("5", "/proc/self/clear_refs")
  start <- status_mib("VmRSS")
  t0 <- proc.time()[["elapsed"]]
  force(expr)
  data.frame(d = d, step = step, peak_mib = status_mib("VmHWM") - start,
             seconds = proc.time()[["elapsed"]] - t0, dd_mib = 8 * d^2 / 2^20)
}
rows <- list()
for (d in as.numeric(bench_list(a$d))) {
  set.seed(1)
  nm <- paste0("X", seq_len(d))
  amat <- as_amat(simulate_dag(d, k = 2)) * 1
  dimnames(amat) <- list(nm, nm)
  sigma <- diag(d)
  dimnames(sigma) <- list(nm, nm)
  refit <- ns$refit_weights(amat, sigma)
  steps <- list(
    class_cpdag = quote(ns$class_cpdag(amat)),
    refit_weights = quote(ns$refit_weights(amat, sigma)),
    amat_to_igraph = quote(ns$amat_to_igraph(refit$B)),
    new_calm_fit = quote(ns$new_calm_fit(amat, sigma = sigma, n = 3000, method = "calm"))
  )
  for (s in names(steps)) {
    r <- measure(d, s, eval(steps[[s]]))
    print(r, row.names = FALSE)
    rows[[length(rows) + 1L]] <- r
  }
  rm(amat, sigma, refit)
}
res <- do.call(rbind, rows)
bench_save(res, a$out)
