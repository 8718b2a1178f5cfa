# How many random splits, and what tolerance: the held-out log-likelihoods
# behind select_penalty()'s choice, recorded fold by fold for four
# independent 5-fold splits of each tuning data set of
# bench_penalty_select.R (the same seeds and data), at the default grid.
# realistic_summary.R's split_rule_table() reads them with that benchmark's
# SHD of boss() at each fixed discount, and compares the rules: 1, 2 or 4
# splits pooled, choosing the best mean or the largest discount within
# 0.5 or 1 standard error of it.
#
#   Rscript inst/bench/bench_penalty_splits.R out.rds [rows]
# rows: an R expression for the rows of penalty_select.rds to run (default
# all). The splits of data set `seed` are drawn after set.seed(10 * seed + s).
suppressPackageStartupMessages(library(calm))
source(system.file("bench", "bench_args.R", package = "calm", mustWork = TRUE))
bench_dir <- bench_script_dir()
source(file.path(bench_dir, "realistic_data.R"))
a <- bench_args(list(out = NA_character_, rows = ""),
                usage = "Rscript inst/bench/bench_penalty_splits.R out.rds [rows]")
out <- a$out
tuning <- readRDS(system.file("extdata", "penalty_select.rds", package = "calm"))
rows <- if (nzchar(a$rows)) eval(parse(text = a$rows)) else seq_len(nrow(tuning))
grid <- c(4, 3, 2.5, 2, 1.5)   # decreasing, as select_discount() walks it
folds <- 5L

res <- list()
for (i in rows) {
  seed <- tuning$seed[i]
  kind <- tuning$kind[i]
  n <- tuning$n[i]
  set.seed(seed)
  d <- sample(40:150, 1)
  x <- if (grepl("^paper", kind)) {
    simulate_sem(d, k = as.numeric(sub("paper", "", kind)), n = n)$x
  } else {
    realistic_data(kind, d, n, seed)$x
  }
  x <- sweep(x, 2L, apply(abs(x), 2L, max), `/`)
  mask <- matrix(1, ncol(x), ncol(x)) - diag(ncol(x))
  t0 <- proc.time()[["elapsed"]]
  for (s in 1:4) {
    set.seed(10 * seed + s)
    tasks <- calm:::fold_tasks(n, ncol(x), folds, 1L, NULL, "penalty_folds")
    ll <- vapply(tasks, calm:::fold_task_loglik, numeric(length(grid)), x = x, grid = grid,
                 mask = mask, exact_parents_max = 14L)
    res[[length(res) + 1L]] <- data.frame(row = i, seed = seed, kind = kind, n = n, split = s,
                                          fold = rep(seq_len(folds), each = length(grid)),
                                          discount = grid, heldout_loglik = c(ll))
  }
  message(sprintf("%s n %g seed %d: %.1f s", kind, n, seed, proc.time()[["elapsed"]] - t0))
}
res <- do.call(rbind, res)
bench_save(res, out)
