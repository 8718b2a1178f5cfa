# What the power series of the acyclicity function buys in calm()'s
# continuous phase: calm_control(poly_series = TRUE) (the default) against
# FALSE (the binary powering of I + A / d on every block), paired on the
# same data and the same moral graph, one thread, the default's short
# schedule without the refinement. One row per data set and variant: CPU
# seconds of the continuous phase, Adam steps, milliseconds per step, the
# SHD of CPDAG of the thresholded graph, and whether the two variants
# returned the same graph.
#
#   Rscript inst/bench/bench_poly_series.R cells reps out.rds [variants] [first_seed]
# cells: comma-separated d:n of ER1 graphs (simulate_sem(d, k = 1, n));
# variants: series,powering (default both); first_seed (default 9001): the
# seed of replicate r is first_seed + r - 1, as in bench_scaling.R.
# Run it with OPENBLAS_NUM_THREADS=1 so that the CPU time is one core's.
suppressPackageStartupMessages(library(calm))
source(system.file("bench", "bench_args.R", package = "calm", mustWork = TRUE))
a <- bench_args(list(cells = NA_character_, reps = NA_integer_, out = NA_character_,
                     variants = "series,powering", first_seed = 9001L),
                usage = "bench_poly_series.R cells reps out.rds [variants] [first_seed]")
variants <- bench_list(a$variants)
reps <- a$reps
first_seed <- a$first_seed
cpu <- function() sum(proc.time()[c("user.self", "sys.self")])
rows <- list()
for (cell in bench_list(a$cells)) {
  dn <- as.integer(strsplit(cell, ":")[[1]])
  for (r in seq_len(reps)) {
    seed <- first_seed + r - 1L
    set.seed(seed)
    sem <- simulate_sem(dn[1], k = 1, n = dn[2])
    moral <- estimate_moral_graph(sem$x)
    graphs <- list()
    for (v in variants) {
      ctrl <- calm_control(schedule = "short", threads = 1, poly_series = v == "series")
      t0 <- cpu()
      fit <- suppressWarnings(calm(sem$x, moral = moral, refine = "none", control = ctrl))
      secs <- cpu() - t0
      graphs[[v]] <- as_amat(fit, graph = "dag")
      steps <- sum(fit$trace$steps)
      rows[[length(rows) + 1]] <- data.frame(
        d = dn[1], n = dn[2], seed = seed, variant = v, cpu = secs, steps = steps,
        ms_per_step = 1000 * secs / steps, shd = shd_cpdag(fit, sem$B),
        same_graph = identical(graphs[[v]], graphs[[1]]))
      cat(sprintf("d %d n %d seed %d %-9s CPU %7.1f s, %5d steps, %6.1f ms/step, SHD %d\n",
                  dn[1], dn[2], seed, v, secs, steps, 1000 * secs / steps,
                  as.integer(rows[[length(rows)]]$shd)))
    }
  }
}
res <- do.call(rbind, rows)
bench_save(res, a$out)
