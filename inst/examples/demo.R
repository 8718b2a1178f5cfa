# The package's main job, run by `make demo`: simulate a 20-node linear
# Gaussian SEM, learn its structure with calm(), print the learned graph and
# its comparison with the truth, and write a PNG plot.
# Output: the plot goes to the path in the environment variable CALM_DEMO_PNG,
# or calm-demo.png in the current directory.
library(calm)

set.seed(2025)
sem <- simulate_sem(d = 20, k = 1, n = 1000)
cat("Simulated problem:\n")
print(sem)

fit <- calm(sem$x, verbose = interactive())
cat("\nLearned graph:\n")
print(summary(fit))

cat("\nComparison with the true DAG (SHD of CPDAG, skeleton precision / recall);",
    "calm_paper is the paper's CALM (refine = \"none\"), ges_kK is GES at penalty discount K:\n")
rows <- list(calm = compare_graphs(fit, sem$B),
             calm_paper = compare_graphs(calm(sem$x, refine = "none", verbose = FALSE), sem$B))
if (requireNamespace("pcalg", quietly = TRUE)) {
  rows$pc <- compare_graphs(pc_pcalg(sem$x), sem$B)
  for (k in c(1, 2, 4)) {
    rows[[paste0("ges_k", k)]] <- compare_graphs(ges_pcalg(sem$x, penalty_discount = k), sem$B)
  }
}
if (!requireNamespace("pcalg", quietly = TRUE)) {
  cat("(PC and GES rows need pcalg, which make demo does not install: make test does)\n")
}
table <- do.call(rbind, rows)
print(table, digits = 3)

png_file <- Sys.getenv("CALM_DEMO_PNG", "calm-demo.png")
grDevices::png(png_file, width = 1400, height = 700, res = 110)
plot(fit, truth = sem$B)
invisible(grDevices::dev.off())
cat("\nPlot written to", normalizePath(png_file), "\n")
