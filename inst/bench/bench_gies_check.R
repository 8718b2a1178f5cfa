# Is pcalg's gies() used at its best in bench_interventional.R? On `reps`
# data sets per number of intervened variables (0, 1, 5) at d variables
# (the accuracy part's setting: simulate_sem(d, k) graphs from seeds
# 61000 + 100 d + r, n rows, 20% or 50% of them in experiments), gies() is
# run as there (GaussL0penIntScore with the targets and target.index, lambda
# = discount * log(n) / 2) and its DAG compared with the true DAG and with
# boss()'s at the same penalty, in pcalg's score (higher is better) and in
# calm's (score_dag() times n, lower is better): the two must differ by a
# constant per data set. Without targets, pcalg's ges() with
# GaussL0penObsScore must return the same graph as gies(). Prints one row
# per data set and stores them.
#
#   Rscript inst/bench/bench_gies_check.R [reps] [d] [n] [k] [discount] [out]
# Defaults: 5 replicates, d = 20, n = 1000, k = 2, discount 2, out =
# inst/extdata/gies_check.rds. Seeds fixed as above before any run.
suppressPackageStartupMessages({library(calm); library(pcalg)})
options(width = 160)
source(system.file("bench", "bench_args.R", package = "calm", mustWork = TRUE))
a <- bench_args(list(reps = 5L, d = 20L, n = 1000L, k = 2, discount = 2,
                     out = "inst/extdata/gies_check.rds"),
                usage = "Rscript inst/bench/bench_gies_check.R [reps] [d] [n] [k] [discount] [out]")
n <- a$n
lam_pcalg <- a$discount * log(n) / 2
lam_calm <- bic_lambda(n, a$discount)

rows <- list()
for (n_targets in c(0L, 1L, 5L)) for (r in seq_len(a$reps)) {
  set.seed(61000L + 100L * a$d + r)
  sem <- simulate_sem(a$d, k = a$k)
  vars <- sample.int(a$d, 5L)[seq_len(n_targets)]
  tg <- c(list(integer(0)), as.list(vars))
  rows_int <- round(n * c(0, 0.2, 0, 0, 0, 0.5)[n_targets + 1L])
  each <- if (n_targets) rep(rows_int %/% n_targets, n_targets) else integer(0)
  sim <- simulate_interventions(sem, tg[seq_len(n_targets + 1L)], c(n - sum(each), each))
  tg <- tg[seq_len(n_targets + 1L)]
  sc <- new("GaussL0penIntScore", data = sim$x, targets = tg, target.index = sim$target_index,
            lambda = lam_pcalg)
  g <- gies(sc)
  dag_gies <- as(g$repr, "matrix") * 1
  dag_true <- (sem$B != 0) * 1
  dag_boss <- boss(sim$x, control = search_control(penalty_discount = a$discount), targets = tg,
                   target_index = sim$target_index)$amat
  pcalg_score <- function(m) sc$global.score.int(lapply(seq_len(a$d), function(j) which(m[, j] != 0)))
  calm_score <- function(m) n * score_dag(m, sim$x, edge_penalty = lam_calm, targets = tg,
                                          target_index = sim$target_index)
  same_as_ges <- NA
  if (n_targets == 0L) {
    ges_fit <- ges(new("GaussL0penObsScore", data = sim$x, lambda = lam_pcalg))
    same_as_ges <- identical(as(ges_fit$repr, "matrix") * 1, dag_gies)
  }
  rows[[length(rows) + 1L]] <- data.frame(
    d = a$d, n = n, k = a$k, n_targets = n_targets, graph_seed = 61000L + 100L * a$d + r,
    edges_true = sum(dag_true), edges_gies = sum(dag_gies), edges_boss = sum(dag_boss),
    shd_gies = shd_cpdag(dag_gies, sem$B, targets = tg),
    shd_boss = shd_cpdag(dag_boss, sem$B, targets = tg),
    calm_gies_minus_true = calm_score(dag_gies) - calm_score(dag_true),
    calm_boss_minus_true = calm_score(dag_boss) - calm_score(dag_true),
    pcalg_gies_minus_true = pcalg_score(dag_gies) - pcalg_score(dag_true),
    pcalg_gies_reported = sc$global.score(g$repr) - pcalg_score(dag_gies),
    same_as_ges = same_as_ges)
  print(rows[[length(rows)]], row.names = FALSE)
}
res <- do.call(rbind, rows)
# pcalg's score is minus calm's (times n) up to a constant of the data:
# the differences to the truth must cancel
res$pcalg_plus_calm <- res$pcalg_gies_minus_true + res$calm_gies_minus_true
print(res, digits = 6, row.names = FALSE)
attr(res, "info") <- list(reps = a$reps, d = a$d, n = n, k = a$k, discount = a$discount)
bench_save(res, a$out, note = "gies() baseline check (issue 62)")
