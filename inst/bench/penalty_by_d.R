# Which BIC penalty discount puts the optimum of the score closest to the
# true graph, by size and density? boss() (10 random starts) stands in for
# the optimum; every discount sees the same data. Prints mean SHD of CPDAG
# +/- se per (d, k, discount) and the paired difference to discount 2.
#   Rscript inst/bench/penalty_by_d.R out.rds graphs first_seed d:k,... [discounts]
# e.g. Rscript inst/bench/penalty_by_d.R out.rds 10 12001 20:4,50:1,50:4,100:1,200:1 1,2,3,4
suppressMessages(library(calm))
a <- commandArgs(TRUE)
out <- a[1]; graphs <- as.integer(a[2]); first <- as.integer(a[3])
cases <- lapply(strsplit(strsplit(a[4], ",")[[1]], ":"), as.numeric)
discounts <- if (length(a) >= 5) as.numeric(strsplit(a[5], ",")[[1]]) else c(1, 2, 3, 4)
rows <- list()
for (cs in cases) for (r in seq_len(graphs)) {
  d <- cs[1]; k <- cs[2]; seed <- first + r - 1L
  set.seed(seed)
  sem <- simulate_sem(d, k = k, n = 1000)
  for (pd in discounts) {
    set.seed(seed + 100000L)
    t0 <- proc.time()[["elapsed"]]
    b <- boss(sem$x, penalty_discount = pd)
    rows[[length(rows) + 1]] <- data.frame(d = d, k = k, seed = seed, discount = pd,
      shd = shd_cpdag(b, sem$B), edges = sum(b$amat), true_edges = sum(sem$B != 0),
      seconds = proc.time()[["elapsed"]] - t0)
  }
  res <- do.call(rbind, rows)
  attr(res, "info") <- list(date = format(Sys.Date()), command = paste("Rscript inst/bench/penalty_by_d.R", paste(a, collapse = " ")))
  saveRDS(res, out, version = 2)
}
res <- do.call(rbind, rows)
msd <- function(v) sprintf("%.1f +/- %.1f", mean(v), sd(v) / sqrt(length(v)))
for (g in split(res, list(res$d, res$k), drop = TRUE)) {
  base <- g[g$discount == 2, ]
  cat(sprintf("\n%d-node ER%g, %d graphs\n", g$d[1], g$k[1], nrow(base)))
  for (pd in discounts) {
    b <- g[g$discount == pd, ]
    b <- b[match(base$seed, b$seed), ]
    cat(sprintf("  discount %g: SHD %s (edges %.1f of %.1f true), minus discount 2: %s\n", pd,
                msd(b$shd), mean(b$edges), mean(b$true_edges), msd(b$shd - base$shd)))
  }
}
