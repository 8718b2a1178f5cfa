# Candidates for choosing the penalty from the data, measured against each
# other on the realistic benchmark's kinds of data (realistic_data.R), with
# BOSS as the search so that only the penalty differs:
# - the fixed discounts of the grid (their best per cell is the oracle);
# - the extended BIC (calm's default before the selection);
# - 5-fold held-out log-likelihood: the best-predicting discount ("cv_max"),
#   and the largest within one standard error of it ("cv_1se").
# kinds: sf, er, sachs (realistic_data.R), paper1 and paper2 (simulate_sem()
# at k = 1 or 2: the paper's ER graphs with strong edges).
# Seeds here (tuning) are not those of bench_realistic.R.
#
# Rscript inst/bench/bench_penalty_select.R reps first_seed out.rds [kinds] [ns]
# e.g. Rscript inst/bench/bench_penalty_select.R 6 910001 inst/extdata/penalty_select.rds
suppressPackageStartupMessages(library(calm))
source(system.file("bench", "bench_args.R", package = "calm", mustWork = TRUE))
script_dir <- bench_script_dir()
source(file.path(script_dir, "realistic_data.R"))
a <- bench_args(list(reps = NA_integer_, first_seed = NA_integer_, out = NA_character_,
                     kinds = "sf,er", ns = "200,1000,5000"),
                usage = "Rscript inst/bench/bench_penalty_select.R reps first_seed out.rds [kinds] [ns]")
reps <- a$reps; first <- a$first_seed; out <- a$out
kinds <- bench_list(a$kinds)
ns <- as.numeric(bench_list(a$ns))
grid <- c(1, 1.5, 2, 2.5, 3, 4)   # the fixed discounts; the selection chose from all six here

rows <- list()
seed <- first
for (kind in kinds) for (n in ns) for (r in seq_len(reps)) {
  seed <- seed + 1
  set.seed(seed)
  d <- sample(40:150, 1)
  dat <- if (grepl("^paper", kind)) {
    # the paper's ER graphs with strong edges (ER1 or ER2), as the README's
    # accuracy table
    sem <- simulate_sem(d, k = as.numeric(sub("paper", "", kind)), n = n)
    list(x = sem$x, truth = (sem$B != 0) * 1)
  } else {
    realistic_data(kind, d, n, seed)
  }
  d <- ncol(dat$x)
  t0 <- proc.time()[["elapsed"]]
  set.seed(seed)
  sel <- calm:::select_discount(dat$x, sort(grid, decreasing = TRUE), 5,
                                matrix(1, d, d) - diag(d))
  t_sel <- proc.time()[["elapsed"]] - t0
  tab <- sel$table
  picks <- c(cv_1se = sel$discount, cv_max = tab$discount[which.max(tab$heldout_loglik)],
             ebic = attr(ebic_lambda(n, d), "discount"))
  fits <- lapply(c(grid, picks[["ebic"]]), function(k) {
    set.seed(seed)
    boss(dat$x, starts = 4, control = search_control(penalty_discount = k))
  })
  shd <- vapply(fits, function(f) shd_cpdag(f, dat$truth), numeric(1))
  names(shd) <- c(paste0("boss", grid), "ebic")
  row <- data.frame(kind = kind, n = n, d = d, seed = seed, edges = sum(dat$truth),
                    t(shd), cv_1se = shd[[paste0("boss", picks[["cv_1se"]])]],
                    cv_max = shd[[paste0("boss", picks[["cv_max"]])]],
                    pick_1se = picks[["cv_1se"]], pick_max = picks[["cv_max"]],
                    select_seconds = t_sel,
                    t(stats::setNames(tab$heldout_loglik, paste0("ll", tab$discount))),
                    t(stats::setNames(tab$se, paste0("se", tab$discount))))
  print(row[1:15])
  rows[[length(rows) + 1]] <- row
  res <- do.call(rbind, rows)
  saveRDS(res, out)
}
bench_save(res, out)
agg <- aggregate(res[, c(paste0("boss", grid), "ebic", "cv_1se", "cv_max")],
                 res[c("kind", "n")], mean)
print(agg, digits = 3)
