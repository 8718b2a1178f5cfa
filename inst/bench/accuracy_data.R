# One replicate's data for the accuracy benchmarks (bench_accuracy.R,
# bench_grow_ratio.R), so that the same seed gives the same graph and data in
# both: the SEM, the arguments a learner takes (`x`, or `cov` for n = Inf),
# the standardized covariance the scores are computed on, the true moral
# graph for n = Inf, and the two penalties (BIC discount 2 and calm's
# extended BIC; 0.005 for a population covariance).
accuracy_data <- function(d, k, n, seed) {
  set.seed(seed)
  sem <- simulate_sem(d, k = k, n = n)
  pop <- !is.finite(n)
  list(sem = sem, pop = pop,
       data_args = if (pop) list(cov = sem$sigma) else list(x = sem$x),
       sigma = if (pop) cov2cor(sem$sigma) else cov2cor(cov(sem$x)),
       moral = if (pop) moral_graph(sem$dag) else NULL,
       lam_bic2 = if (pop) 0.005 else bic_lambda(n, 2),
       lam_ebic = if (pop) 0.005 else as.numeric(ebic_lambda(n, d)))
}

# The arguments every accuracy benchmark starts with, `d k n graphs
# first_seed out.rds`, as variables d, k, n, reps, first and out in the
# caller's environment; `rest` holds the script's own further arguments.
accuracy_args <- function(script, more = "", env = parent.frame()) {
  a <- commandArgs(TRUE)
  if (length(a) < 6L) stop(sprintf("usage: %s d k n graphs first_seed out.rds %s", script, more))
  list2env(list(d = as.integer(a[1]), k = as.numeric(a[2]), n = as.numeric(a[3]),
                reps = as.integer(a[4]), first = as.integer(a[5]), out = a[6], rest = a[-(1:6)]),
           envir = env)
  invisible(NULL)
}
