# calm()'s search against boss()'s at one fixed discount: with the penalty
# the same, any difference in the graph comes from the search. For each data
# set: calm() at the discount (its default search, and variants of the search
# over all pairs beyond the moral graph above 250 variables) and boss() at the
# same discount (10 random starts over all pairs); SHD of CPDAG, the score's
# gap to the true graph in log-likelihood units (n times score_dag(), lower
# is better; negative: the graph scores better than the truth), seconds.
#
#   Rscript inst/bench/bench_search_at_discount.R out.rds graphs first_seed d k n [discount] [methods]
#
# e.g. OPENBLAS_NUM_THREADS=1 Rscript inst/bench/bench_search_at_discount.R out.rds 10 9501 500 1 1000 4
# methods: comma-separated subset of calm (the default search), wide10
# (search_control(order_wide_starts = 10)), boss (default: all three). Data:
# simulate_sem(d, k, n) (the paper's ER graphs, standardized) from seed
# first_seed + r - 1; that seed + 100000 before each fit. Times are wall
# clock; one fit at a time, in this process.
suppressPackageStartupMessages(library(calm))
source(system.file("bench", "bench_args.R", package = "calm", mustWork = TRUE))
a <- bench_args(list(out = NA_character_, graphs = NA_integer_, first_seed = NA_integer_,
                     d = NA_integer_, k = NA_real_, n = NA_integer_, discount = 4,
                     methods = "calm,wide10,boss"),
                usage = paste("Rscript inst/bench/bench_search_at_discount.R out.rds graphs",
                              "first_seed d k n [discount] [methods]"))
methods <- bench_list(a$methods)

fit_method <- function(m, x, discount) {
  switch(m,
    calm = calm(x, penalty_discount = discount, verbose = FALSE),
    wide10 = calm(x, penalty_discount = discount, search = search_control(order_wide_starts = 10),
                  verbose = FALSE),
    boss = boss(x, control = search_control(penalty_discount = discount)),
    stop("unknown method: ", m, call. = FALSE))
}

lam <- bic_lambda(a$n, a$discount)
rows <- list()
for (r in seq_len(a$graphs)) {
  seed <- a$first_seed + r - 1L
  set.seed(seed)
  sem <- simulate_sem(a$d, k = a$k, n = a$n)
  truth_score <- score_dag((sem$B != 0) * 1, sem$x, edge_penalty = lam)
  for (m in methods) {
    set.seed(seed + 100000L)
    sec <- system.time(fit <- fit_method(m, sem$x, a$discount))[["elapsed"]]
    gap <- a$n * (score_dag((fit$amat != 0) * 1, sem$x, edge_penalty = lam) - truth_score)
    row <- data.frame(d = a$d, k = a$k, n = a$n, seed = seed, method = m, discount = a$discount,
                      shd = shd_cpdag(fit, sem$B), gap = gap, seconds = sec)
    cat(sprintf("d %4d ER%g seed %d %-6s SHD %3d  gap to the truth %9.3f  %6.1f s\n",
                a$d, a$k, seed, m, row$shd, gap, sec))
    rows[[length(rows) + 1L]] <- row
  }
}
res <- do.call(rbind, rows)
bench_save(res, a$out)
print(aggregate(cbind(shd, seconds) ~ method, res, mean))
