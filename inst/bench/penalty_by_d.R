# Which BIC penalty discount puts the optimum of the score closest to the
# true graph, by size, density and sample size? boss() (10 random starts)
# stands in for the optimum, or exact_search() where d <= exact_max_d; every
# discount sees the same data. Prints mean SHD of CPDAG +/- se per
# (d, k, n, discount) and the paired difference to discount 2.
#   Rscript inst/bench/penalty_by_d.R out.rds graphs first_seed d:k[:n],... [discounts] [exact_max_d]
# e.g. Rscript inst/bench/penalty_by_d.R out.rds 10 12001 20:4,50:1,50:4,100:1,200:1 1,2,3,4
# n defaults to 1000; exact_max_d to 0 (boss() everywhere).
suppressMessages(library(calm))
source(system.file("bench", "bench_args.R", package = "calm", mustWork = TRUE))
a <- bench_args(list(out = NA_character_, graphs = NA_integer_, first_seed = NA_integer_,
                     cases = NA_character_, discounts = "1,2,3,4", exact_max_d = 0),
                usage = "Rscript inst/bench/penalty_by_d.R out.rds graphs first_seed d:k[:n],... [discounts] [exact_max_d]")
out <- a$out; graphs <- a$graphs; first <- a$first_seed
cases <- lapply(strsplit(bench_list(a$cases), ":"), as.numeric)
# a discount "ebic" stands for calm's default, the extended BIC
# (ebic_lambda(n, d), gamma 0.75), as the discount it equals at (d, n)
discounts <- bench_list(a$discounts)
exact_max_d <- a$exact_max_d
rows <- list()
for (cs in cases) for (r in seq_len(graphs)) {
  d <- cs[1]; k <- cs[2]; n <- if (length(cs) >= 3) cs[3] else 1000
  seed <- first + r - 1L
  set.seed(seed)
  sem <- simulate_sem(d, k = k, n = n)
  for (label in discounts) {
    pd <- if (label == "ebic") attr(ebic_lambda(n, d), "discount") else as.numeric(label)
    set.seed(seed + 100000L)
    t0 <- proc.time()[["elapsed"]]
    b <- if (d <= exact_max_d) exact_search(sem$x, edge_penalty = bic_lambda(n, pd), moral = "none") else
      boss(sem$x, control = search_control(penalty_discount = pd))
    rows[[length(rows) + 1]] <- data.frame(d = d, k = k, n = n, seed = seed, discount = label,
      discount_value = pd,
      search = if (d <= exact_max_d) "exact" else "boss",
      shd = shd_cpdag(b, sem$B), edges = sum(b$amat), true_edges = sum(sem$B != 0),
      seconds = proc.time()[["elapsed"]] - t0)
  }
  res <- do.call(rbind, rows)
  attr(res, "info") <- list(date = format(Sys.Date()), command = bench_command())
  bench_save(res, out)
}
res <- do.call(rbind, rows)
msd <- function(v) sprintf("%.1f +/- %.1f", mean(v), sd(v) / sqrt(length(v)))
if (is.null(res$n)) res$n <- 1000
for (g in split(res, list(res$d, res$k, res$n), drop = TRUE)) {
  base <- g[g$discount == "2", ]
  cat(sprintf("\n%d-node ER%g, n = %g, %d graphs\n", g$d[1], g$k[1], g$n[1], nrow(base)))
  for (pd in discounts) {
    b <- g[g$discount == pd, ]
    if (!nrow(b)) next
    b <- b[match(base$seed, b$seed), ]
    cat(sprintf("  discount %s: SHD %s (edges %.1f of %.1f true), minus discount 2: %s\n", pd,
                msd(b$shd), mean(b$edges), mean(b$true_edges), msd(b$shd - base$shd)))
  }
}
