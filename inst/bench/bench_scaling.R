# How calm's default fit scales with the number of variables.
#
# For ER1 and ER4 graphs with d = 50, 100, 200, 500 variables and n = 1000
# samples (standardized), fits calm's default and, optionally, CALM as in the
# paper (refine = "none") and BOSS, each fit in a fresh R process so that its
# peak memory (maximum resident set size) can be read. Prints one row per
# fit and a summary table, and stores the rows.
#
#   Rscript inst/bench/bench_scaling.R out.rds [graphs] [d,...] [k,...] [methods] [first_seed] [n]
#
# graphs: graphs per (d, k) (default 3); d: default 50,100,200,500; k:
# default 1,4; methods: comma-separated subset of default, paper
# (refine = "none"), long (the refinement after the long schedule, calm's
# default before the short one), full (the default with its continuous phase
# in full, calm_control(continuous = "always")), ebic (the default at the
# extended BIC's penalty, search_control(penalty = "ebic"): the default above
# 250 variables before the penalty was chosen in order), inside (the default without
# the search over all pairs above 250 variables,
# search_control(order_wide_starts = 0)), grow05 (BOSS's starts also at grow
# ratio 0.5, search_control(grow_ratio = 0.5)), boss, boss3 and boss4 (BOSS at
# penalty discount 2, 3 and 4), ges2 and ges4 (pcalg's GES at penalty discount 2 and 4) (default
# "default"); first_seed: default 9001 (graph r of a setting uses
# first_seed + r - 1); n: the sample size (default 1000). Times are wall clock on the machine as it is; run it
# on an otherwise idle machine.
source(system.file("bench", "bench_args.R", package = "calm", mustWork = TRUE))
a <- bench_args(list(out = NA_character_, graphs = 3L, d = "50,100,200,500", k = "1,4",
                     methods = "default", first_seed = 9001L, n = 1000L),
                usage = "Rscript inst/bench/bench_scaling.R out.rds [graphs] [d,...] [k,...] [methods] [first_seed] [n]")
out <- a$out
graphs <- a$graphs
ds <- as.numeric(bench_list(a$d))
ks <- as.numeric(bench_list(a$k))
methods <- bench_list(a$methods)
first <- a$first_seed

# One fit in a child process: prints one line "key=value;..." that the
# parent parses.
child <- '
suppressPackageStartupMessages(library(calm))
a <- commandArgs(TRUE)
d <- as.numeric(a[1]); k <- as.numeric(a[2]); seed <- as.integer(a[3]); m <- a[4]
n <- as.numeric(a[5])
set.seed(seed)
sem <- simulate_sem(d, k = k, n = n)
set.seed(seed + 100000L)
t0 <- proc.time()[["elapsed"]]
fit <- switch(m,
  default = calm(sem$x, verbose = FALSE),
  default1 = calm(sem$x, control = calm_control(threads = 1), verbose = FALSE),
  paper = calm(sem$x, refine = "none", split_components = FALSE, verbose = FALSE),
  long = calm(sem$x, schedule = "long", verbose = FALSE),
  ebic = calm(sem$x, search = search_control(penalty = "ebic"), verbose = FALSE),
  boss = boss(sem$x),
  boss3 = boss(sem$x, control = search_control(penalty_discount = 3)),
  boss4 = boss(sem$x, control = search_control(penalty_discount = 4)),
  full = calm(sem$x, control = calm_control(continuous = "always"), verbose = FALSE),
  inside = calm(sem$x, search = search_control(order_wide_starts = 0), verbose = FALSE),
  grow05 = calm(sem$x, search = search_control(grow_ratio = 0.5), verbose = FALSE),
  ges2 = ges_pcalg(sem$x, penalty_discount = 2),
  ges4 = ges_pcalg(sem$x, penalty_discount = 4))
secs <- proc.time()[["elapsed"]] - t0
tr <- fit$trace
# a fit split by components has a trace per component (seconds cumulative
# within each): rounds is that of the longest component, time the sum over components
steps <- if (is.data.frame(tr)) sum(tr$steps) else NA
rounds <- if (is.data.frame(tr)) max(tr$round) else NA
cont <- if (is.data.frame(fit$components)) sum(fit$components$seconds) else
  if (is.data.frame(tr)) max(tr$seconds) else NA
ref <- if (is.list(fit$refine)) fit$refine$seconds else NA
st <- readLines("/proc/self/status")
hwm <- as.numeric(sub("[^0-9]*([0-9]+).*", "\\\\1", grep("^VmHWM", st, value = TRUE))) / 1024
disc <- if (is.null(fit$penalty$discount)) NA else fit$penalty$discount
# a choice in order (above 250 variables): how far the discount of the
# first fit predicts behind the best, in standard errors
pt <- fit$penalty$table
fz <- if (is.null(fit$penalty$in_order)) NA else {
  kk <- which(pt$discount == fit$penalty$in_order)
  gap <- pt$heldout_loglik[kk] - max(pt$heldout_loglik)
  if (gap == 0) 0 else gap / pt$se[kk]
}
cat(sprintf("RESULT shd=%d;true=%d;seconds=%.2f;steps=%s;rounds=%s;continuous=%.2f;refine=%.2f;peak_mb=%.0f;discount=%.4g;first_z=%.3g\\n",
            shd_cpdag(fit, sem$B), sum(sem$B != 0), secs, format(steps, scientific = FALSE),
            rounds, cont, ref, hwm, disc, fz))
'
script <- tempfile(fileext = ".R")
writeLines(child, script)
rows <- list()
for (k in ks) for (d in ds) for (r in seq_len(graphs)) for (m in methods) {
  seed <- first + r - 1L
  res <- system2(file.path(R.home("bin"), "Rscript"), c(script, d, k, seed, m, a$n), stdout = TRUE,
                 stderr = FALSE)
  line <- grep("^RESULT ", res, value = TRUE)
  if (!length(line)) {
    cat(sprintf("d %d ER%g seed %d %s: the fit failed\n", d, k, seed, m))
    next
  }
  kv <- strsplit(strsplit(sub("^RESULT ", "", line), ";")[[1]], "=")
  v <- stats::setNames(suppressWarnings(as.numeric(vapply(kv, `[`, "", 2))), vapply(kv, `[`, "", 1))
  row <- data.frame(d = d, k = k, n = a$n, seed = seed, method = m, t(v))
  row$us_per_step <- 1e6 * row$continuous / row$steps
  rows[[length(rows) + 1]] <- row
  cat(sprintf("d %4d ER%g seed %d %-7s SHD %4d (%4d true) %7.1f s  steps %9s rounds %3s  %6.1f us/step  refine %6.1f s  peak %5.0f MB  discount %s\n",
              d, k, seed, m, as.integer(v[["shd"]]), as.integer(v[["true"]]), v[["seconds"]],
              format(v[["steps"]], big.mark = ","), v[["rounds"]], row$us_per_step, v[["refine"]],
              v[["peak_mb"]], format(v["discount"], digits = 3)))
  res_df <- do.call(rbind, rows)
  attr(res_df, "info") <- list(date = format(Sys.Date()), R = R.version.string,
                               command = bench_command())
  bench_save(res_df, out)
}
res <- do.call(rbind, rows)
msd <- function(v) sprintf("%.1f +/- %.1f", mean(v), sd(v) / sqrt(length(v)))
tab <- do.call(rbind, lapply(split(res, list(res$method, res$k, res$d), drop = TRUE), function(b)
  data.frame(d = b$d[1], k = b$k[1], method = b$method[1], graphs = nrow(b),
             seconds = msd(b$seconds), shd = msd(b$shd), steps = round(mean(b$steps)),
             rounds = round(mean(b$rounds), 1), us_per_step = round(mean(b$us_per_step), 1),
             peak_mb = round(max(b$peak_mb)))))
tab <- tab[order(tab$k, tab$method, tab$d), ]
print(tab, row.names = FALSE)
