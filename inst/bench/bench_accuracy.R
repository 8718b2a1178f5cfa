# Accuracy of calm's default against the paper's CALM, GES at penalty
# discounts 1, 2 and 4, PC at alpha 0.01 and 0.05, and (d <= 20) the exact
# optimum of the score, on random ER graphs with seeds fixed in advance.
# Paired: every method sees the same data. Prints mean SHD of CPDAG +/- se,
# the score of each method's graph (per sample, lower is better) and the
# time per fit, and stores the per-graph rows. Two scores: `score`, the BIC
# with penalty discount 2 (BOSS's and GES's usual score), and `score_ebic`,
# the extended BIC that calm's refinement optimises by default
# (ebic_lambda(n, d)); the printed gap is on `score_ebic`.
#   Rscript inst/bench/bench_accuracy.R d k n graphs first_seed out.rds [methods]
# n = Inf runs the population covariance with the true moral graph (the
# paper's Table 2 setting). methods: comma-separated subset of
# default,paper,ges1,ges2,ges4,pc01,pc05,exact,boss,boss_ebic,exact_bic2
# (default: all that apply). boss: 10 random starts at penalty discount 2;
# boss_ebic: the same at calm's score; exact: the optimum of calm's score
# (d <= 20); exact_bic2: the optimum at penalty discount 2.
suppressMessages(library(calm))
source(system.file("bench", "bench_args.R", package = "calm", mustWork = TRUE))
bench_dir <- bench_script_dir()
source(file.path(bench_dir, "accuracy_data.R"))
accuracy_args("bench_accuracy.R", list(methods = ""))
methods <- if (nzchar(methods)) bench_list(methods) else
  c("default", "paper", "ges1", "ges2", "ges4", "pc01", "pc05", "boss", "boss_ebic",
    if (d <= 20) "exact")
have_pcalg <- requireNamespace("pcalg", quietly = TRUE)
rows <- list()
for (r in seq_len(reps)) {
  seed <- first + r - 1L
  dat <- accuracy_data(d, k, n, seed)
  sem <- dat$sem
  pop <- dat$pop
  data_args <- dat$data_args
  sigma <- dat$sigma
  lam <- dat$lam_bic2
  lam_ebic <- dat$lam_ebic
  moral <- dat$moral
  for (m in methods) {
    if (grepl("^(ges|pc)", m) && (!have_pcalg || pop)) next
    set.seed(seed + 100000L)
    t0 <- proc.time()[["elapsed"]]
    fit <- switch(m,
      default = do.call(calm, c(data_args, list(moral = moral, verbose = FALSE))),
      paper = do.call(calm, c(data_args, list(moral = moral, refine = "none", verbose = FALSE))),
      ges1 = do.call(ges_pcalg, c(data_args, list(penalty_discount = 1))),
      ges2 = do.call(ges_pcalg, c(data_args, list(penalty_discount = 2))),
      ges4 = do.call(ges_pcalg, c(data_args, list(penalty_discount = 4))),
      pc01 = do.call(pc_pcalg, c(data_args, list(alpha = 0.01))),
      pc05 = do.call(pc_pcalg, c(data_args, list(alpha = 0.05))),
      exact = do.call(exact_search, c(data_args, list(edge_penalty = lam_ebic, moral = "none"))),
      exact_bic2 = do.call(exact_search, c(data_args, list(edge_penalty = lam, moral = "none"))),
      boss = do.call(boss, c(data_args, list(edge_penalty = lam, starts = 10))),
      boss_ebic = do.call(boss, c(data_args, list(edge_penalty = lam_ebic, starts = 10))))
    secs <- proc.time()[["elapsed"]] - t0
    score_at <- function(l) tryCatch(as.numeric(score_dag(fit$cpdag_amat, cov = sigma, edge_penalty = l)),
                                     error = function(e) NA_real_)
    sc <- score_at(lam)
    rows[[length(rows) + 1]] <- data.frame(d = d, k = k, n = n, seed = seed, method = m,
                                           shd = shd_cpdag(fit, sem$B), score = sc,
                                           score_ebic = score_at(lam_ebic), seconds = secs)
    cat(sprintf("seed %d %-8s SHD %3d score %.5f %.1fs\n", seed, m,
                as.integer(rows[[length(rows)]]$shd), sc, secs))
  }
  saveRDS(do.call(rbind, rows), out)
}
res <- do.call(rbind, rows)
res$gap <- res$score_ebic - ave(res$score_ebic, res$seed, FUN = function(v) min(v, na.rm = TRUE))
msd <- function(v) sprintf("%.1f +/- %.1f", mean(v), sd(v) / sqrt(length(v)))
tab <- do.call(rbind, lapply(split(res, factor(res$method, unique(res$method))), function(b)
  data.frame(method = b$method[1], graphs = nrow(b), shd = msd(b$shd),
             score_gap = sprintf("%.4f", mean(b$gap)), seconds = sprintf("%.2f", mean(b$seconds)))))
cat(sprintf("\n%d-node ER%g, n = %s, %d graphs (seeds %d-%d)\n", d, k, format(n), reps, first,
            first + reps - 1))
print(tab, row.names = FALSE)
if ("default" %in% res$method) {
  for (m in setdiff(unique(res$method), "default")) {
    a1 <- res[res$method == "default", ]; b1 <- res[res$method == m, ]
    b1 <- b1[match(a1$seed, b1$seed), ]
    dlt <- a1$shd - b1$shd
    cat(sprintf("paired SHD default - %s: %.2f +/- %.2f\n", m, mean(dlt, na.rm = TRUE),
                sd(dlt, na.rm = TRUE) / sqrt(sum(!is.na(dlt)))))
  }
}
bench_save(res, out)
