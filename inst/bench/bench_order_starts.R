# calm's default against the same fit with more random starts of the
# refinement's order search (search_control(order_starts =)), on fresh
# graphs: 50-node ER4 at the population covariance with the true moral graph
# (where the default was found far from the truth on some graphs), 50-node
# ER4 and 100-node ER1 at n = 1000 (estimated moral graph). Paired: both see
# the same data. Prints mean SHD of CPDAG and time per setting and stores
# the rows.
#
#   Rscript inst/bench/bench_order_starts.R out.rds [reps] [starts] [seed]
#
# reps: graphs per setting (default 10); starts: the alternative number of
# starts (default 30); seed: benchmark_methods() seed (default 77001).
suppressPackageStartupMessages(library(calm))
source(system.file("bench", "bench_args.R", package = "calm", mustWork = TRUE))
a <- bench_args(list(out = NA_character_, reps = 10L, starts = 30L, seed = 77001L),
                usage = "Rscript inst/bench/bench_order_starts.R out.rds [reps] [starts] [seed]")
out <- a$out
reps <- a$reps
starts <- a$starts
seed <- a$seed
more <- function(cov, n, standardize, sem) {
  calm(cov = cov, n = n, standardize = standardize,
       moral = if (is.finite(n)) NULL else moral_graph(sem$B),
       control = calm_control(search = search_control(order_starts = starts)), verbose = FALSE)
}
default <- function(cov, n, standardize, sem) {
  calm(cov = cov, n = n, standardize = standardize,
       moral = if (is.finite(n)) NULL else moral_graph(sem$B), verbose = FALSE)
}
methods <- stats::setNames(list(default, more), c("default", paste0("starts_", starts)))
settings <- data.frame(d = c(50, 50, 100), k = c(4, 4, 1), n = c(Inf, 1000, 1000),
                       standardized = c(FALSE, TRUE, TRUE))
t0 <- proc.time()[["elapsed"]]
res <- benchmark_methods(methods, settings, reps = reps, seed = seed)
attr(res, "info") <- list(date = format(Sys.time(), tz = "UTC", usetz = TRUE),
                          command = paste("Rscript inst/bench/bench_order_starts.R out.rds", reps,
                                          starts, seed),
                          seconds = proc.time()[["elapsed"]] - t0)
bench_save(res, out)
print(format_table(res, metrics = c("shd", "time")))
for (s in split(res, list(res$d, res$k, res$n), drop = TRUE)) {
  a0 <- s[s$method == "default", ]
  a1 <- s[s$method != "default", ]
  dif <- a1$shd[order(a1$rep)] - a0$shd[order(a0$rep)]
  cat(sprintf("d = %d ER%d n = %s: paired SHD difference (more starts - default) %.1f +/- %.1f\n",
              s$d[1], s$k[1], format(s$n[1]), mean(dif), stats::sd(dif) / sqrt(length(dif))))
}
