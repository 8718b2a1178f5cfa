# Kicks after the order search's starts (search_control(kicks = )):
# calm's default fit with and without them on random ER graphs with seeds
# fixed in advance (data from accuracy_data.R, as in bench_accuracy.R, so
# the same seeds give the same data). Paired: both fits see the same data
# and the same seed (set.seed(1) before each). Optionally (best = TRUE) a
# long search for the best score known on each graph: 30 random starts of
# the order search at calm's score (boss()) with the plain grow step and
# again with grow ratio 0.5, each followed by 100 kicks. Prints one line per graph
# and the summary: mean SHD of CPDAG +/- se per variant, graphs with a
# better / worse score (calm's extended BIC per sample, lower is better),
# graphs where each variant is at the best score known, and the mean time
# per fit; stores the per-graph rows.
#   Rscript inst/bench/bench_kicks.R d k n graphs first_seed out.rds [kicks] [best]
# kicks: the number of kicks of the variant (default 20); best: TRUE or
# FALSE (default FALSE).
suppressMessages(library(calm))
source(system.file("bench", "bench_args.R", package = "calm", mustWork = TRUE))
bench_dir <- bench_script_dir()
source(file.path(bench_dir, "accuracy_data.R"))
accuracy_args("bench_kicks.R", list(kicks = 20L, best = FALSE))
long <- best

best_known <- function(dat, seed) {
  set.seed(seed + 7L)
  starts <- lapply(1:30, function(i) sample.int(d))
  fits <- lapply(c(1, 0.5), function(g) {
    boss(cov = dat$sigma, n = n, edge_penalty = dat$lam_ebic, starts = starts, standardize = FALSE, control = search_control(grow_ratio = g, kicks = 100))
  })
  min(vapply(fits, `[[`, numeric(1), "score"))
}

rows <- NULL
for (r in seq_len(reps)) {
  seed <- first + r - 1L
  dat <- accuracy_data(d, k, n, seed)
  for (kk in c(0L, kicks)) {
    set.seed(1)
    fit <- do.call(calm, c(dat$data_args, list(moral = dat$moral, verbose = FALSE,
                                               control = calm_control(search = search_control(kicks = kk)))))
    rows <- rbind(rows, data.frame(seed = seed, kicks = kk, score = fit$refine$score_after,
                                   shd = shd_cpdag(fit$cpdag, dat$sem$dag), time = fit$time,
                                   best_known = NA_real_))
  }
  bk <- if (long) min(best_known(dat, seed), rows$score[rows$seed == seed]) else NA_real_
  rows$best_known[rows$seed == seed] <- bk
  x <- rows[rows$seed == seed, ]
  cat(sprintf("seed %d: kicks 0 score %.4f SHD %d (%.1f s); kicks %d score %.4f SHD %d (%.1f s); best known %.4f\n",
              seed, x$score[1], x$shd[1], x$time[1], kicks, x$score[2], x$shd[2], x$time[2], bk))
  saveRDS(rows, out)
}
se <- function(v) if (length(v) > 1) stats::sd(v) / sqrt(length(v)) else NA_real_
a0 <- rows[rows$kicks == 0L, ]
a1 <- rows[rows$kicks == kicks, ]
cat(sprintf("\n%d graphs, d = %d, ER%g, n = %g\n", reps, d, k, n))
cat(sprintf("kicks 0: SHD %.2f +/- %.2f, %.1f s per fit%s\n", mean(a0$shd), se(a0$shd), mean(a0$time),
            if (long) sprintf(", at the best score known on %d", sum(a0$score <= a0$best_known + 1e-9)) else ""))
cat(sprintf("kicks %d: SHD %.2f +/- %.2f, %.1f s per fit%s\n", kicks, mean(a1$shd), se(a1$shd), mean(a1$time),
            if (long) sprintf(", at the best score known on %d", sum(a1$score <= a1$best_known + 1e-9)) else ""))
cat(sprintf("with kicks: better score on %d graphs, worse on %d; paired SHD difference %.2f +/- %.2f\n",
            sum(a1$score < a0$score - 1e-9), sum(a1$score > a0$score + 1e-9),
            mean(a1$shd - a0$shd), se(a1$shd - a0$shd)))
