# How often calm() reaches the exact optimum of its own score: random 8-12
# node problems (ER1-ER2, population covariances with the true moral graph and
# n = 1000 data with the estimated one), calm()'s default (CALM + refinement;
# no exact step) against exact_search() on the same score (penalty and search graph
# graph as calm's refinement used them).
#   Rscript inst/bench/bench_optimum.R [problems] [first_seed]
suppressMessages(library(calm))
source(system.file("bench", "bench_args.R", package = "calm", mustWork = TRUE))
a <- bench_args(list(problems = 60L, first_seed = 1L),
                usage = "Rscript inst/bench/bench_optimum.R [problems] [first_seed]")
reps <- a$problems
first <- a$first_seed
rows <- list()
for (r in seq_len(reps)) {
  seed <- first + r - 1L
  set.seed(seed)
  d <- sample(8:12, 1)
  k <- sample(c(1, 1.5, 2), 1)
  pop <- r %% 2 == 0
  sem <- simulate_sem(d, k = k, n = if (pop) Inf else 1000)
  fit <- if (pop) {
    calm(cov = sem$sigma, moral = moral_graph(sem$dag), verbose = FALSE, search = search_control(order_starts = as.integer(Sys.getenv("STARTS", "10"))))
  } else {
    calm(sem$x, verbose = FALSE, search = search_control(order_starts = as.integer(Sys.getenv("STARTS", "10"))))
  }
  lam <- fit$refine$lambda
  ex <- if (pop) exact_search(cov = sem$sigma, edge_penalty = lam, moral = fit$refine$mask) else
    exact_search(sem$x, edge_penalty = lam, moral = fit$refine$mask)
  s_calm <- fit$refine$score_after
  s_exact <- as.numeric(score_dag(ex, cov = if (pop) cov2cor(sem$sigma) else cov2cor(cov(sem$x)),
                                  edge_penalty = lam))
  rows[[r]] <- data.frame(seed = seed, d = d, k = k, n = if (pop) Inf else 1000,
                          gap = s_calm - s_exact, reached = s_calm - s_exact < 1e-9,
                          shd_calm = shd_cpdag(fit, sem$B), shd_exact = shd_cpdag(ex, sem$B),
                          shd_paper = shd_cpdag(fit$refine$dag_before, sem$B))
}
res <- do.call(rbind, rows)
for (pp in c(Inf, 1000)) {
  b <- res[res$n == pp, ]
  cat(sprintf("n = %s: %d problems, exact optimum reached in %d (%.0f%%); mean gap %.2g; mean SHD calm %.2f, exact %.2f, CALM before refinement %.2f\n",
              format(pp), nrow(b), sum(b$reached), 100 * mean(b$reached), mean(b$gap),
              mean(b$shd_calm), mean(b$shd_exact), mean(b$shd_paper)))
}
cat(sprintf("all: %d of %d (%.0f%%)\n", sum(res$reached), nrow(res), 100 * mean(res$reached)))
invisible(res)
