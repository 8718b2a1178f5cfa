# Paper Table 1 (Section 3.2): the l1-inconsistency experiment. 1000 random
# 8-node ER1 DAGs (exactly 8 edges), population covariances, all 8! = 40320
# variable orders each; stored at no zero tolerance (zero_tol = 0, every
# floating-point nonzero is an edge) and at the package default (1e-8).
#
#   Rscript table1.R [--quick] [--outdir=DIR]
#
# --quick (or CALM_QUICK=1) uses 50 graphs. Results go to
# <outdir>/table1.rds (see common.R). The full run takes a few seconds.
library(calm)
source(system.file("bench", "paper", "common.R", package = "calm", mustWork = TRUE))
opts <- script_options()
started <- Sys.time()
n_graphs <- if (opts$quick) 50 else 1000
runs <- list()
for (tol in c(0, 1e-8)) {
  t0 <- Sys.time()
  res <- l1_inconsistency(n_graphs = n_graphs, d = 8, k = 1, edges = "exact", zero_tol = tol,
                          seed = 2025)
  res$seconds <- as.numeric(difftime(Sys.time(), t0, units = "secs"))
  print(res)
  message(sprintf("zero_tol = %g: %.1f s", tol, res$seconds))
  runs[[paste0("zero_tol_", format(tol))]] <- res
}
store_result("table1", runs, opts, started)
