# The time of the order search (BOSS's grow-shrink trees), which every
# stage of calm()'s refinement and boss() spend most of their time in on
# dense graphs, and whether a change to it changes any result. Run it once
# with each build of the package (R_LIBS pointing at each) on the same
# seeds; the rows of the two runs are paired by (cell, seed, method), and
# `graph` (the CPDAG's nonzero entries) and `score` say whether the two
# builds returned the same graph. One row per data set and method: CPU and
# elapsed seconds, SHD of CPDAG, the score (boss() methods) and the graph.
#
#   Rscript inst/bench/bench_search_speed.R cells reps out.rds [methods] [first_seed]
# cells: comma-separated k:d:n of ER graphs (simulate_sem(d, k, n)),
#   e.g. 4:100:1000,1:200:1000;
# methods: comma-separated of boss2 (boss() at discount 2, 10 starts),
#   boss_cv (boss(penalty_discount = "cv")) and calm (calm()'s default);
#   default boss2;
# first_seed (default 9401): replicate r of every cell has seed
#   first_seed + r - 1.
# Run it with OPENBLAS_NUM_THREADS=1 so that the CPU time is one core's.
suppressPackageStartupMessages(library(calm))
source(system.file("bench", "bench_args.R", package = "calm", mustWork = TRUE))
a <- bench_args(list(cells = NA_character_, reps = NA_integer_, out = NA_character_,
                     methods = "boss2", first_seed = 9401L),
                usage = "Rscript inst/bench/bench_search_speed.R cells reps out.rds [methods] [first_seed]")
methods <- bench_list(a$methods)
stopifnot(all(methods %in% c("boss2", "boss_cv", "calm")))

run_method <- function(m, x) {
  switch(m,
         boss2 = boss(x, control = search_control(penalty_discount = 2)),
         boss_cv = boss(x, control = search_control(penalty_discount = "cv")),
         calm = calm(x, verbose = FALSE, control = calm_control(threads = 1)))
}

# The CPDAG as one string: the linear indices of its nonzero entries.
graph_key <- function(fit) paste(which(as_amat(fit) != 0), collapse = " ")

rows <- list()
for (cell in bench_list(a$cells)) {
  kdn <- as.numeric(strsplit(cell, ":")[[1]])
  for (r in seq_len(a$reps)) {
    seed <- a$first_seed + r - 1L
    set.seed(seed)
    sem <- simulate_sem(kdn[2], k = kdn[1], n = kdn[3])
    for (m in methods) {
      set.seed(seed + 1L)
      t0 <- proc.time()
      fit <- run_method(m, sem$x)
      t1 <- proc.time() - t0
      cpu <- t1[["user.self"]] + t1[["sys.self"]]
      score <- if (is.null(fit$score)) NA_real_ else fit$score
      rows[[length(rows) + 1L]] <- data.frame(
        cell = cell, k = kdn[1], d = kdn[2], n = kdn[3], seed = seed, method = m, cpu = cpu,
        elapsed = t1[["elapsed"]], shd = shd_cpdag(fit, sem$B), score = score,
        graph = graph_key(fit), stringsAsFactors = FALSE)
      cat(sprintf("%-12s seed %d %-8s CPU %7.1f s  SHD %3d\n", cell, seed, m, cpu,
                  as.integer(rows[[length(rows)]]$shd)))
    }
  }
}
res <- do.call(rbind, rows)
bench_save(res, a$out)
