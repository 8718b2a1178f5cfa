# Coverage of causal_effects()' confidence intervals (issue 61): on `reps`
# simulated linear Gaussian SEMs (ER graphs with k * d expected edges,
# simulate_sem()'s default weights and noise ratio 16) with n rows each,
# the 95% intervals of the effects the class identifies (is_unique, and y a
# possible descendant of x) are checked against the true total effects
# (solve(I - B)), for every ordered pair, with "local" and "optimal", in
# two graphs: the true CPDAG (the intervals' own calibration) and the
# CPDAG calm() learns from the same data (what a user gets: effects from
# the fit alone, no data given). One row per (replicate, graph, method, x,
# y); prints the coverage per graph and method (pooled over the effects,
# with the standard error of the replicates' mean coverage) and the number
# of replicates whose learned CPDAG is the true one.
#
#   Rscript inst/bench/bench_effect_coverage.R [reps] [d] [k] [n] [out]
# Defaults: 20 replicates, d = 20, k = 2, n = 10000, out =
# inst/extdata/effect_coverage.rds. The seed of replicate r is 610000 + r,
# fixed before any run.
suppressPackageStartupMessages(library(calm))
source(system.file("bench", "bench_args.R", package = "calm", mustWork = TRUE))
a <- bench_args(list(reps = 20L, d = 20L, k = 2, n = 10000, out = "inst/extdata/effect_coverage.rds"),
                usage = "Rscript inst/bench/bench_effect_coverage.R [reps] [d] [k] [n] [out]")

# Every identified effect of every treatment in graph `g` (a fit or a
# CPDAG; `data` NULL for a fit, which keeps its covariance), with the truth.
identified_effects <- function(g, data, total, method) {
  nm <- colnames(total)
  rows <- lapply(seq_along(nm), function(x) {
    e <- causal_effects(g, nm[x], data = data, method = method)
    e[e$is_unique & e$possible_descendant & !is.na(e$effect), , drop = FALSE]
  })
  e <- do.call(rbind, rows)
  e <- e[!duplicated(paste(e$x, e$y)), c("x", "y", "effect", "se", "lower", "upper")]
  e$truth <- total[cbind(match(e$x, nm), match(e$y, nm))]
  e$covered <- e$lower <= e$truth & e$truth <= e$upper
  e
}

rows <- list()
right <- 0L
t0 <- proc.time()[["elapsed"]]
for (r in seq_len(a$reps)) {
  set.seed(610000 + r)
  sem <- simulate_sem(a$d, k = a$k, n = a$n)
  total <- solve(diag(a$d) - sem$B)
  dimnames(total) <- list(colnames(sem$x), colnames(sem$x))
  truth_cpdag <- dag_to_cpdag(sem$dag, output = "matrix")
  fit <- calm(sem$x, verbose = FALSE)
  right <- right + (shd_cpdag(fit, sem$B) == 0)
  for (method in c("local", "optimal")) {
    for (graph in c("true", "learned")) {
      e <- if (graph == "true") identified_effects(truth_cpdag, sem$x, total, method) else
        identified_effects(fit, NULL, total, method)
      if (nrow(e)) rows[[length(rows) + 1L]] <- cbind(replicate = r, graph = graph,
                                                      method = method, e)
    }
  }
  cat(sprintf("replicate %d: SHD of the learned CPDAG %d\n", r, shd_cpdag(fit, sem$B)))
}
res <- do.call(rbind, rows)
rownames(res) <- NULL
# the effects of one replicate share its data: the standard error is that
# of the mean of the replicates' coverages
summ <- do.call(rbind, lapply(split(res, list(res$graph, res$method)), function(s) {
  per_rep <- tapply(s$covered, s$replicate, mean)
  data.frame(graph = s$graph[1], method = s$method[1], effects = nrow(s),
             replicates = length(per_rep), coverage = mean(s$covered),
             se = stats::sd(per_rep) / sqrt(length(per_rep)))
}))
rownames(summ) <- NULL
print(summ, digits = 3)
cat(sprintf("learned CPDAG equal to the true one in %d of %d replicates; %.0f s\n", right,
            a$reps, proc.time()[["elapsed"]] - t0))
attr(res, "info") <- list(summary = summ, learned_exact = right, reps = a$reps, d = a$d,
                          k = a$k, n = a$n, seeds = 610000 + seq_len(a$reps))
bench_save(res, a$out, note = "coverage of 95% intervals of identified effects (issue 61)")
