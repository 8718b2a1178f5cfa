# The grow step of the order search's grow-shrink trees: calm's default fit
# (search_control(grow_ratio = )) and boss() at calm's score
# (boss(grow_ratio = ), 10 random starts) at several ratios, on random ER
# graphs with seeds fixed in advance (data from accuracy_data.R, as in
# bench_accuracy.R, so the same seeds give the same data). Paired: every ratio sees the same data
# and the same random starts. Prints, per method and ratio, the mean SHD of
# CPDAG +/- se, how many graphs end at a better / worse score (calm's
# extended BIC, ebic_lambda(n, d), per sample, lower is better) than at the
# first ratio, the paired SHD difference and the time per fit; for boss()
# also the share of its single starts that end at the best score found on
# the graph (by any method and ratio), a measure of the search's landscape
# that does not hang on which start wins; stores the per-graph rows (and
# the per-start scores as the attribute "starts").
#   Rscript inst/bench/bench_grow_ratio.R d k n graphs first_seed out.rds [ratios] [methods]
# ratios: comma-separated (default 1,0.5; the first is the reference);
# methods: comma-separated subset of calm,boss (default both). n = Inf runs
# the population covariance with the true moral graph (the paper's Table 2
# setting; score penalty 0.005).
suppressMessages(library(calm))
source(system.file("bench", "bench_args.R", package = "calm", mustWork = TRUE))
bench_dir <- bench_script_dir()
source(file.path(bench_dir, "accuracy_data.R"))
accuracy_args("bench_grow_ratio.R", list(ratios = "1,0.5", methods = "calm,boss"))
ratios <- as.numeric(bench_list(ratios))
methods <- bench_list(methods)
rows <- list()
start_rows <- list()
for (r in seq_len(reps)) {
  seed <- first + r - 1L
  dat <- accuracy_data(d, k, n, seed)  # the same data as bench_accuracy.R
  sem <- dat$sem
  pop <- dat$pop
  data_args <- dat$data_args
  sigma <- dat$sigma
  lam <- dat$lam_ebic
  moral <- dat$moral
  for (m in methods) for (g in ratios) {
    set.seed(seed + 100000L)
    t0 <- proc.time()[["elapsed"]]
    fit <- switch(m,
      calm = do.call(calm, c(data_args, list(moral = moral, verbose = FALSE,
                                             control = calm_control(search = search_control(grow_ratio = g))))),
      boss = do.call(boss, c(data_args, list(edge_penalty = lam, starts = 10,
                                             control = search_control(grow_ratio = g),
                                             moral = if (pop) moral else "none"))),
      stop("unknown method ", m))
    secs <- proc.time()[["elapsed"]] - t0
    if (m == "boss") {
      start_rows[[length(start_rows) + 1L]] <- data.frame(seed = seed, grow_ratio = g,
                                                          start = seq_len(nrow(fit$starts)),
                                                          score = fit$starts$score)
    }
    rows[[length(rows) + 1L]] <- data.frame(
      d = d, k = k, n = n, seed = seed, method = m, grow_ratio = g,
      shd = shd_cpdag(fit, sem$B),
      score = as.numeric(score_dag(fit$cpdag_amat, cov = sigma, edge_penalty = lam)),
      seconds = secs)
    cat(sprintf("seed %d %-4s ratio %-5g SHD %3d score %.5f %.1fs\n", seed, m, g,
                rows[[length(rows)]]$shd, rows[[length(rows)]]$score, secs))
  }
  res <- do.call(rbind, rows)
  if (length(start_rows)) attr(res, "starts") <- do.call(rbind, start_rows)
  attr(res, "info") <- list(date = format(Sys.time(), tz = "UTC", usetz = TRUE),
                            R = R.version.string,
                            command = paste("Rscript inst/bench/bench_grow_ratio.R", d, k, format(n),
                                            reps, first, "out.rds", paste(ratios, collapse = ","),
                                            paste(methods, collapse = ",")))
  saveRDS(res, out)
}
msd <- function(v) sprintf("%.1f +/- %.1f", mean(v), sd(v) / sqrt(length(v)))
cat(sprintf("\n%d-node ER%g, n = %s, %d graphs (seeds %d-%d); score: calm's, penalty %.5f\n",
            d, k, format(n), reps, first, first + reps - 1L,
            if (is.finite(n)) as.numeric(ebic_lambda(n, d)) else 0.005))
for (m in methods) {
  ref <- res[res$method == m & res$grow_ratio == ratios[1], ]
  for (g in ratios) {
    b <- res[res$method == m & res$grow_ratio == g, ]
    b <- b[match(ref$seed, b$seed), ]
    ds <- b$score - ref$score
    cat(sprintf("%-4s ratio %-5g SHD %-12s better %2d worse %2d (score vs %g, mean %+.4f)  paired SHD %s  %.1f s/fit\n",
                m, g, msd(b$shd), sum(ds < -1e-9), sum(ds > 1e-9), ratios[1], mean(ds),
                if (g == ratios[1]) "-" else msd(b$shd - ref$shd), mean(b$seconds)))
  }
}
st <- attr(res, "starts")
if (!is.null(st)) {
  best <- tapply(res$score, res$seed, min)
  st$at_best <- st$score <= best[as.character(st$seed)] + 1e-9
  for (g in ratios) {
    b <- st[st$grow_ratio == g, ]
    cat(sprintf("boss ratio %-5g single starts at the best score found: %.1f%% of %d (%.1f%% +/- %.1f%% over graphs)\n",
                g, 100 * mean(b$at_best), nrow(b), 100 * mean(tapply(b$at_best, b$seed, mean)),
                100 * sd(tapply(b$at_best, b$seed, mean)) / sqrt(length(unique(b$seed)))))
  }
}
