# Time of causal_effects() at d = 100: five treatments (each with undirected
# edges, so several parent sets), each on all 99 other nodes, one call per
# treatment, for method "local" and "optimal". Prints CPU and elapsed
# seconds of three repetitions; stores nothing. Takes no arguments.
#   Rscript inst/bench/bench_effects.R
library(calm)
set.seed(100)
sem <- simulate_sem(100, k = 2, n = 1000)
cp <- dag_to_cpdag(sem$dag, output = "matrix")
cat("d = 100:", sum(cp * t(cp)) / 2, "undirected and", sum(cp * (1 - t(cp))), "directed edges\n")
xs <- which(rowSums(cp * t(cp)) > 0)[1:5]
invisible(causal_effects(cp, xs[1], data = sem$x))  # warm-up (lazy loading)
for (m in c("local", "optimal")) for (rep in 1:3) {
  t <- system.time(for (x in xs) e <- causal_effects(cp, x, data = sem$x, method = m))
  cat(sprintf("%-7s 5 treatments x 99 outcomes: cpu %.2f s, elapsed %.2f s\n", m,
              t[["user.self"]] + t[["sys.self"]], t[["elapsed"]]))
}
