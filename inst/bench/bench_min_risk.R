# The refinement's last step, the minimum-risk choice among local optima
# (search_control(risk_starts, risk_temperature), R/search-risk.R), measured on the
# realistic benchmark's kinds of data (realistic_data.R) with tuning seeds,
# not those of bench_realistic.R. Every method sees the same data set
# (paired): calm's default (the step at temperature 4), the step at
# temperature 2, calm without the step (risk_starts = 0), and
# boss(penalty_discount = "cv") for reference. One row per data set and
# method: SHD of CPDAG, time, chosen discount.
#
#   Rscript inst/bench/bench_min_risk.R cells reps out.rds [base]
# cells: comma-separated kind:n as in bench_realistic.R; the seed of
# replicate r of a cell is base + 10000 * (cell number) + r (base 2940000).
suppressPackageStartupMessages(library(calm))
source(system.file("bench", "bench_args.R", package = "calm", mustWork = TRUE))
bench_dir <- bench_script_dir()
source(file.path(bench_dir, "realistic_data.R"))
all_cells <- c(outer(c("sf", "er", "sachs"), c(200, 1000, 5000), paste, sep = ":"))
a <- bench_args(list(cells = NA_character_, reps = NA_integer_, out = NA_character_,
                     base = 2940000L),
                usage = "Rscript inst/bench/bench_min_risk.R cells reps out.rds [base]")
cells <- bench_list(a$cells)
stopifnot(all(cells %in% all_cells))

methods <- list(
  calm = function(x) calm(x, verbose = FALSE),
  risk_t2 = function(x) calm(x, verbose = FALSE, search = search_control(risk_temperature = 2)),
  risk_off = function(x) calm(x, verbose = FALSE, search = search_control(risk_starts = 0)),
  boss_cv = function(x) boss(x, control = search_control(penalty_discount = "cv")))

rows <- list()
for (cell in cells) {
  kind <- sub(":.*", "", cell)
  n <- as.numeric(sub(".*:", "", cell))
  for (r in seq_len(a$reps)) {
    seed <- a$base + 10000L * match(cell, all_cells) + r
    set.seed(seed)
    d <- sample(40:150, 1)
    dat <- realistic_data(kind, d, n, seed)
    for (m in names(methods)) {
      set.seed(seed + 1L)
      t0 <- proc.time()[["elapsed"]]
      fit <- methods[[m]](dat$x)
      secs <- proc.time()[["elapsed"]] - t0
      rows[[length(rows) + 1L]] <- data.frame(
        kind = kind, n = n, d = ncol(dat$x), seed = seed, method = m,
        shd = compare_graphs(fit, dat$truth)$shd, seconds = secs,
        discount = fit$penalty$discount,
        risk_changed = any(fit$refine$moves$type == "risk"))
      message(sprintf("%-9s seed %d %-9s SHD %4d %6.1f s", cell, seed, m,
                      rows[[length(rows)]]$shd, secs))
    }
    bench_save(do.call(rbind, rows), a$out)
  }
}
res <- readRDS(a$out)
print(aggregate(shd ~ method + kind + n, res, mean), digits = 3)
