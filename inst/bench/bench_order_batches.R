# The refinement's order search with and without its extra batches of
# random starts (calm_control(refine_order_max_starts =); without: set to
# refine_order_starts), paired on the same data, with BOSS (10 random
# starts, at calm's score, unrestricted) beside them at finite n. Settings:
# 50-node ER4, 50-node ER1 and 100-node ER1 at n = 1000 (standardized,
# moral graph by IAMB) and 50-node ER4 at the population correlation with
# the true moral graph given. For each graph it records SHD of CPDAG, the
# score calm's refinement optimises (per sample, lower is better: ebic at
# n = 1000, lambda1 = 0.005 at the population) and the time per fit, prints
# means +/- standard errors and the paired differences, and stores the rows.
#
#   Rscript inst/bench/bench_order_batches.R out.rds [graphs] [first_seed]
#
# graphs: graphs per setting (default 10); first_seed (default 31001):
# graph r of setting s uses set.seed(first_seed + 1000 (s - 1) + r - 1).
suppressPackageStartupMessages(library(calm))
a <- commandArgs(TRUE)
out <- a[1]
reps <- if (length(a) >= 2) as.integer(a[2]) else 10L
first <- if (length(a) >= 3) as.integer(a[3]) else 31001L
settings <- data.frame(d = c(50, 50, 100, 50), k = c(4, 1, 1, 4), n = c(1000, 1000, 1000, Inf))
t_all <- proc.time()[["elapsed"]]
rows <- list()
for (s in seq_len(nrow(settings))) {
  d <- settings$d[s]; k <- settings$k[s]; n <- settings$n[s]
  pop <- !is.finite(n)
  for (r in seq_len(reps)) {
    seed <- first + 1000L * (s - 1L) + r - 1L
    set.seed(seed)
    sem <- simulate_sem(d, k = k, n = n)
    data_args <- if (pop) list(cov = sem$sigma) else list(x = sem$x)
    sigma <- if (pop) cov2cor(sem$sigma) else cov2cor(stats::cov(sem$x))
    lam <- if (pop) 0.005 else as.numeric(ebic_lambda(n, d))
    moral <- if (pop) moral_graph(sem$dag) else NULL
    ctrl <- calm_control()
    fits <- list(
      batches = function() do.call(calm, c(data_args, list(moral = moral, verbose = FALSE))),
      no_batches = function() do.call(calm, c(data_args, list(
        moral = moral, verbose = FALSE,
        control = calm_control(refine_order_max_starts = ctrl$refine_order_starts)))),
      boss = if (!pop) function() do.call(boss, c(data_args, list(lambda1 = lam, starts = 10))))
    for (m in names(fits)) {
      if (is.null(fits[[m]])) next
      set.seed(seed + 100000L)
      t0 <- proc.time()[["elapsed"]]
      fit <- fits[[m]]()
      secs <- proc.time()[["elapsed"]] - t0
      sc <- as.numeric(score_dag(fit$cpdag_amat, cov = sigma, lambda1 = lam))
      rows[[length(rows) + 1L]] <- data.frame(
        d = d, k = k, n = n, seed = seed, method = m, shd = shd_cpdag(fit, sem$B),
        score = sc, seconds = secs, stringsAsFactors = FALSE)
      cat(sprintf("d %d ER%g n %s seed %d %-10s SHD %3d score %.5f %.1f s\n", d, k, format(n),
                  seed, m, as.integer(rows[[length(rows)]]$shd), sc, secs))
    }
  }
}
res <- do.call(rbind, rows)
attr(res, "info") <- list(date = format(Sys.time(), tz = "UTC", usetz = TRUE),
                          command = paste("Rscript inst/bench/bench_order_batches.R out.rds", reps,
                                          first),
                          seconds = proc.time()[["elapsed"]] - t_all)
saveRDS(res, out)
msd <- function(v, digits = 1) {
  sprintf(paste0("%.", digits, "f +/- %.", digits, "f"), mean(v), stats::sd(v) / sqrt(length(v)))
}
for (b in split(res, list(res$d, res$k, res$n), drop = TRUE)) {
  cat(sprintf("\n%d-node ER%g, n = %s, %d graphs\n", b$d[1], b$k[1], format(b$n[1]),
              length(unique(b$seed))))
  tab <- do.call(rbind, lapply(split(b, factor(b$method, unique(b$method))), function(m)
    data.frame(method = m$method[1], shd = msd(m$shd), seconds = msd(m$seconds, 2))))
  print(tab, row.names = FALSE)
  base <- b[b$method == "batches", ]
  for (m in setdiff(unique(b$method), "batches")) {
    o <- b[b$method == m, ][match(base$seed, b$seed[b$method == m]), ]
    ds <- base$shd - o$shd
    dc <- base$score - o$score
    cat(sprintf("  batches - %s: SHD %s, score %s per sample; score worse on %d of %d graphs\n",
                m, msd(ds, 2), msd(dc, 4), sum(dc > 1e-9), length(dc)))
  }
}
