# PC (pcalg, majority-rule v-structures) at several significance levels,
# on the n = 1000 settings of the paper's Table 5 (50-node ER1, 50-node ER4,
# 100-node ER1, standardized), the same graphs and data as
# inst/bench/paper/table5.R (benchmark_methods() seed 2025), so that PC's row in
# the stored tables (alpha = 0.01) can be read against its best alpha.
#
#   Rscript inst/bench/bench_pc_alpha.R out.rds [reps] [alphas] [settings]
#
# reps: graphs per setting (default 10); alphas: comma-separated (default
# 1e-4,1e-3,0.01,0.05); settings: comma-separated subset of 1 (50 ER1),
# 3 (50 ER4), 5 (100 ER1) (default all three). Prints the mean SHD of CPDAG
# per alpha and setting and stores the rows.
suppressPackageStartupMessages(library(calm))
source(system.file("bench", "bench_args.R", package = "calm", mustWork = TRUE))
a <- bench_args(list(out = NA_character_, reps = 10L, alphas = "1e-4,1e-3,0.01,0.05", settings = "1,3,5"),
                usage = "Rscript inst/bench/bench_pc_alpha.R out.rds [reps] [alphas] [settings]")
out <- a$out
reps <- a$reps
alphas <- as.numeric(bench_list(a$alphas))
which_settings <- as.integer(bench_list(a$settings))

all_settings <- data.frame(id = c(1L, 3L, 5L), d = c(50, 50, 100), k = c(1, 4, 1), n = 1000,
                           standardized = TRUE)
settings <- all_settings[all_settings$id %in% which_settings, c("d", "k", "n", "standardized")]
methods <- stats::setNames(lapply(alphas, function(al) {
  force(al)
  function(cov, n, standardize, sem) pc_pcalg(cov = cov, n = n, alpha = al, maj.rule = TRUE)
}), paste0("pc_", format(alphas, scientific = FALSE, drop0trailing = TRUE)))
t0 <- proc.time()[["elapsed"]]
res <- benchmark_methods(methods, settings, reps = reps, seed = 2025)
attr(res, "info") <- list(date = format(Sys.time(), tz = "UTC", usetz = TRUE),
                          R = R.version.string,
                          command = paste("Rscript inst/bench/bench_pc_alpha.R out.rds", reps,
                                          paste(alphas, collapse = ","),
                                          paste(which_settings, collapse = ",")),
                          seconds = proc.time()[["elapsed"]] - t0)
bench_save(res, out)
print(format_table(res, metrics = c("shd", "precision", "recall")))
