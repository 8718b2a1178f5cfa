# The penalty above 250 variables (issue 48): calm()'s default, which chooses
# the discount by held-out log-likelihood of the graphs in the order of a
# first fit at the extended BIC, against calm at the extended BIC alone
# (method ebic: search_control(penalty = "ebic"), gamma 0.75; the default
# before the choice, and its first fit until that moved to gamma 1) and
# boss() at fixed discounts 2, 3 and 4, all on the same data. Data: the realistic benchmark's kinds
# (realistic_data.R: er, sf, hub, mixed; weak effects, raw scales) or
# "paper1" (simulate_sem() at k = 1, the paper's ER1 graphs, standardized as
# the scaling benchmark draws them).
#
#   Rscript inst/bench/bench_penalty_large.R out.rds graphs first_seed kind:d:n,... [methods]
#
# e.g. Rscript inst/bench/bench_penalty_large.R out.rds 10 9701 er:400:1000
# methods: comma-separated subset of calm, ebic, boss2, boss3, boss4 (default
# all five). Replicate r of a cell uses seed first_seed + r - 1 for its data,
# and that seed + 100000 before each fit. Times are wall clock; one fit at a
# time, in this process.
suppressPackageStartupMessages(library(calm))
source(system.file("bench", "bench_args.R", package = "calm", mustWork = TRUE))
source(file.path(bench_script_dir(), "realistic_data.R"))
a <- bench_args(list(out = NA_character_, graphs = NA_integer_, first_seed = NA_integer_,
                     cells = NA_character_, methods = "calm,ebic,boss2,boss3,boss4"),
                usage = "Rscript inst/bench/bench_penalty_large.R out.rds graphs first_seed kind:d:n,... [methods]")
cells <- strsplit(bench_list(a$cells), ":")
methods <- bench_list(a$methods)

cell_data <- function(kind, d, n, seed) {
  if (kind == "paper1") {
    set.seed(seed)
    sem <- simulate_sem(d, k = 1, n = n)
    return(list(x = sem$x, truth = (sem$B != 0) * 1))
  }
  realistic_data(kind, d, n, seed)
}

fit_method <- function(m, x) {
  switch(m,
    calm = calm(x, verbose = FALSE),
    ebic = calm(x, search = search_control(penalty = "ebic"), verbose = FALSE),
    boss2 = boss(x, control = search_control(penalty_discount = 2)),
    boss3 = boss(x, control = search_control(penalty_discount = 3)),
    boss4 = boss(x, control = search_control(penalty_discount = 4)),
    stop("unknown method ", m))
}

# For calm's choice in order: how far the first fit's discount's held-out
# log-likelihood is behind the best, in standard errors (NA otherwise).
first_fit_z <- function(pen) {
  t <- pen$table
  if (is.null(pen$in_order) || is.null(t)) return(NA_real_)
  k <- which(t$discount == pen$in_order)
  gap <- t$heldout_loglik[k] - max(t$heldout_loglik)
  if (gap == 0) 0 else gap / t$se[k]
}

rows <- list()
for (cell in cells) for (r in seq_len(a$graphs)) {
  kind <- cell[1]
  d <- as.numeric(cell[2])
  n <- as.numeric(cell[3])
  seed <- a$first_seed + r - 1L
  dat <- cell_data(kind, d, n, seed)
  for (m in methods) {
    set.seed(seed + 100000L)
    t0 <- proc.time()[["elapsed"]]
    fit <- fit_method(m, dat$x)
    secs <- proc.time()[["elapsed"]] - t0
    disc <- fit$penalty$discount
    row <- data.frame(kind = kind, d = d, n = n, seed = seed, method = m,
                      shd = shd_cpdag(fit, dat$truth), true = sum(dat$truth),
                      edges = sum(fit$amat), seconds = secs,
                      discount = if (is.null(disc)) NA_real_ else disc,
                      first_z = first_fit_z(fit$penalty))
    rows[[length(rows) + 1L]] <- row
    cat(sprintf("%-6s d %4d n %5d seed %d %-5s SHD %4d (%4d true) %7.1f s  discount %.3g  first fit %.2f se behind\n",
                kind, d, n, seed, m, row$shd, row$true, secs, row$discount, -row$first_z))
    bench_save(do.call(rbind, rows), a$out)
  }
}
res <- do.call(rbind, rows)
msd <- function(v) sprintf("%.2f +/- %.2f", mean(v), stats::sd(v) / sqrt(length(v)))
tab <- do.call(rbind, lapply(split(res, list(res$method, res$kind, res$d, res$n), drop = TRUE),
                             function(b) data.frame(kind = b$kind[1], d = b$d[1], n = b$n[1],
                                                    method = b$method[1], graphs = nrow(b),
                                                    shd = msd(b$shd), seconds = msd(b$seconds),
                                                    discount = msd(b$discount))))
print(tab[order(tab$kind, tab$d, tab$n, tab$method), ], row.names = FALSE)
# paired: each method's SHD minus calm's, per data set
if ("calm" %in% methods) {
  base <- res[res$method == "calm", c("kind", "d", "n", "seed", "shd")]
  for (m in setdiff(methods, "calm")) {
    o <- merge(base, res[res$method == m, c("kind", "d", "n", "seed", "shd")],
               by = c("kind", "d", "n", "seed"))
    cat(sprintf("%s - calm: %s (paired, %d data sets)\n", m, msd(o$shd.y - o$shd.x), nrow(o)))
  }
}
