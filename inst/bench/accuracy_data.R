# Sourced by the accuracy benchmarks after bench_args.R.

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
# first_seed out.rds` (by position or as d=50 k=4 ...; see bench_args() in
# bench_args.R), as variables d, k, n, reps, first and out in the caller's
# environment, then the script's own arguments `more` (a named list of
# defaults, as bench_args() takes), each as a variable of its name.
accuracy_args <- function(script, more = list(), env = parent.frame()) {
  a <- bench_args(c(list(d = NA_integer_, k = NA_real_, n = NA_real_, graphs = NA_integer_,
                         first_seed = NA_integer_, out = NA_character_), more),
                  usage = sprintf("Rscript inst/bench/%s d k n graphs first_seed out.rds %s", script,
                                  paste(sprintf("[%s]", names(more)), collapse = " ")))
  names(a)[match(c("graphs", "first_seed"), names(a))] <- c("reps", "first")
  list2env(a, envir = env)
  invisible(NULL)
}
