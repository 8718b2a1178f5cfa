# How short can CALM's continuous phase be once the refinement (GES moves,
# BOSS, and the exact step up to 20 variables) follows it? Fits calm's default
# and the same with shorter rounds on the same data and prints SHD of CPDAG,
# the refined score's gap to the best found on the graph, Adam steps and time.
#   Rscript inst/bench/tune_schedule.R d k graphs first_seed out.rds [candidates]
# candidates: comma-separated schedules, each "default" or control settings
# joined by "+", e.g. "default,iter_per_round=5000+rho_mult=10"; a bare
# number is iter_per_round (default "40000,10000,5000").
suppressMessages(library(calm))
source(system.file("bench", "bench_args.R", package = "calm", mustWork = TRUE))
a <- bench_args(list(d = NA_integer_, k = NA_real_, graphs = NA_integer_, first_seed = NA_integer_,
                     out = NA_character_, candidates = "40000,10000,5000"),
                usage = "Rscript inst/bench/tune_schedule.R d k graphs first_seed out.rds [candidates]")
d <- a$d; k <- a$k; reps <- a$graphs
first <- a$first_seed; out <- a$out
specs <- bench_list(a$candidates)
parse_spec <- function(s) {
  if (s == "default") return(list())
  if (grepl("^[0-9.e+]+$", s)) return(list(iter_per_round = as.numeric(s)))
  kv <- strsplit(strsplit(s, "+", fixed = TRUE)[[1]], "=", fixed = TRUE)
  stats::setNames(lapply(kv, function(p) {
    v <- utils::type.convert(p[2], as.is = TRUE)
    v
  }), vapply(kv, `[`, "", 1))
}
rows <- list()
for (r in seq_len(reps)) {
  seed <- first + r - 1L
  set.seed(seed)
  sem <- simulate_sem(d, k = k, n = 1000)
  for (it in specs) {
    set.seed(seed + 100000L)
    t0 <- proc.time()[["elapsed"]]
    fit <- calm(sem$x, verbose = FALSE, control = do.call(calm_control, parse_spec(it)))
    secs <- proc.time()[["elapsed"]] - t0
    rows[[length(rows) + 1]] <- data.frame(
      d = d, k = k, seed = seed, schedule = it, shd = shd_cpdag(fit, sem$B),
      shd_before = shd_cpdag(fit$refine$dag_before, sem$B), score = fit$refine$score_after,
      steps = sum(fit$trace$steps), rounds = max(fit$trace$round), seconds = secs,
      refine_seconds = fit$refine$seconds)
    x <- rows[[length(rows)]]
    cat(sprintf("seed %d %-30s SHD %3d (before refinement %3d) score %.5f steps %7d rounds %2d %.1fs (refine %.1fs)\n",
                seed, it, x$shd, x$shd_before, x$score, x$steps, x$rounds, secs, x$refine_seconds))
  }
  bench_save(do.call(rbind, rows), out)
}
res <- do.call(rbind, rows)
res$gap <- res$score - ave(res$score, res$seed, FUN = min)
msd <- function(v) sprintf("%.1f +/- %.1f", mean(v), sd(v) / sqrt(length(v)))
tab <- do.call(rbind, lapply(split(res, factor(res$schedule, levels = specs)), function(b)
  data.frame(schedule = b$schedule[1], graphs = nrow(b), shd = msd(b$shd),
             shd_before = msd(b$shd_before), score_gap = sprintf("%.4f", mean(b$gap)),
             graphs_at_best = sum(b$gap < 1e-9), steps = round(mean(b$steps)),
             seconds = sprintf("%.1f", mean(b$seconds)))))
cat(sprintf("\n%d-node ER%g, n = 1000, %d graphs (seeds %d-%d)\n", d, k, reps, first, first + reps - 1))
print(tab, row.names = FALSE)
# paired against the first schedule: same graph, same data, same fit seed
base <- res[res$schedule == specs[1], ]
for (s in specs[-1]) {
  b <- res[res$schedule == s, ]
  b <- b[match(base$seed, b$seed), ]
  cat(sprintf("%s minus %s: SHD %s, steps %.2f of the first\n", s, specs[1],
              msd(b$shd - base$shd), mean(b$steps / base$steps)))
}
