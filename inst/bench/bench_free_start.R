# The refinement's extra order-search start with a given moral graph
# (calm_control(refine_order_free_starts)): calm's default against the same
# fit without it, paired on the same data, with the true moral graph given,
# on 50-node ER4 (population covariance and n = 1000), 50-node ER1 and
# 100-node ER1 (population covariance). BOSS over all pairs (unrestricted,
# 10 starts) is shown beside them. Prints mean SHD of CPDAG, time per fit,
# the paired SHD difference and the paired score difference (the
# refinement's score inside the moral graph, per sample; negative is better).
#
#   Rscript inst/bench/bench_free_start.R out.rds [reps] [seed]
#
# reps: graphs per setting (default 10); seed: benchmark_methods() seed
# (default 99001; 88001 was used while developing the starts).
suppressPackageStartupMessages(library(calm))
source(system.file("bench", "bench_args.R", package = "calm", mustWork = TRUE))
a <- bench_args(list(out = NA_character_, reps = 10L, seed = 99001L),
                usage = "Rscript inst/bench/bench_free_start.R out.rds [reps] [seed]")
out <- a$out
reps <- a$reps
seed <- a$seed
# the refinement's score of every fit, recorded by the method functions (a
# sequential plan, the default, runs them in this session)
scores <- new.env()
scores$rows <- list()
fit_with <- function(free) {
  force(free)
  function(cov, n, standardize, sem) {
    f <- calm(cov = cov, n = n, standardize = standardize,
              moral = moral_graph(sem$B, output = "matrix"),
              control = calm_control(search = search_control(order_free_starts = free)), verbose = FALSE)
    scores$rows[[length(scores$rows) + 1L]] <- data.frame(
      free = free, d = nrow(cov), n = n, n_true = sum(sem$B != 0),
      graph = sum(abs(sem$B)), score = f$refine$score_after)
    f
  }
}
methods <- list(default = fit_with(TRUE), no_free_start = fit_with(FALSE), boss = "boss")
settings <- data.frame(d = c(50, 50, 50, 100), k = c(4, 4, 1, 1), n = c(Inf, 1000, Inf, Inf),
                       standardized = c(FALSE, TRUE, FALSE, FALSE))
t0 <- proc.time()[["elapsed"]]
res <- benchmark_methods(methods, settings, reps = reps, seed = seed, moral = "true")
attr(res, "info") <- list(date = format(Sys.time(), tz = "UTC", usetz = TRUE),
                          command = paste("Rscript inst/bench/bench_free_start.R out.rds", reps, seed),
                          seconds = proc.time()[["elapsed"]] - t0,
                          scores = do.call(rbind, scores$rows))
bench_save(res, out)
print(format_table(res, metrics = c("shd", "time")))
sc <- do.call(rbind, scores$rows)
# the two fits of each graph side by side (the graph's weights identify it)
paired <- merge(sc[sc$free, ], sc[!sc$free, ], by = c("d", "n", "n_true", "graph"),
                suffixes = c("", "_without"))
for (s in split(res, list(res$d, res$k, res$n), drop = TRUE)) {
  a0 <- s[s$method == "no_free_start", ]
  a1 <- s[s$method == "default", ]
  a0 <- a0[order(a0$rep), ]
  a1 <- a1[order(a1$rep), ]
  dif <- a1$shd - a0$shd
  cat(sprintf("d = %d ER%d n = %s: paired SHD difference (default - no free start) %.1f +/- %.1f",
              s$d[1], s$k[1], format(s$n[1]), mean(dif), stats::sd(dif) / sqrt(length(dif))))
  here <- paired$d == s$d[1] & paired$n == s$n[1] & paired$n_true %in% s$n_true
  ds <- paired$score[here] - paired$score_without[here]
  cat(sprintf("; paired score difference %.4f +/- %.4f (min %.4f, max %.4f, %d graphs)\n",
              mean(ds), stats::sd(ds) / sqrt(length(ds)), min(ds), max(ds), length(ds)))
}
