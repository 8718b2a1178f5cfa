# Times dag_to_cpdag(), moral_graph() and shd_cpdag() on large sparse DAGs.
# Run: Rscript inst/bench/bench_cpdag.R   (after installing calm)
library(calm)
set.seed(1)
cat(sprintf("%-6s %-4s %-6s %12s %12s %12s\n", "d", "k", "edges", "cpdag (s)", "moral (s)", "shd (s)"))
for (d in c(500, 1000, 2000)) {
  for (k in c(1, 2)) {
    B <- simulate_dag(d, k)
    B2 <- simulate_dag(d, k)
    t_cp <- min(replicate(3, system.time(dag_to_cpdag(B, "matrix"))[["elapsed"]]))
    t_mo <- min(replicate(3, system.time(moral_graph(B, "matrix"))[["elapsed"]]))
    t_shd <- min(replicate(3, system.time(shd_cpdag(B, B2))[["elapsed"]]))
    cat(sprintf("%-6d %-4g %-6d %12.3f %12.3f %12.3f\n", d, k, sum(B), t_cp, t_mo, t_shd))
  }
}
