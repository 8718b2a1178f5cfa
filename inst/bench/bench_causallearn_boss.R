# boss() side by side with causal-learn's Python BOSS, on the same data and
# the same score (BIC with penalty discount 2), one start at a time: time
# per start, SHD of CPDAG and the score of each graph (per sample, lower is
# better). causal-learn is not an R package: give the folder that holds its
# source (the folder with `causallearn/` in it, e.g. a clone of
# py-why/causal-learn) and a Python 3 with numpy, scipy, pandas and
# networkx (Debian: python3-numpy python3-scipy python3-pandas
# python3-networkx; its plotting module imports pydot, which BOSS does not
# use: an empty pydot.py on the path is enough).
#   Rscript inst/bench/bench_causallearn_boss.R <causal-learn dir> [python3] [lambda_value]
# Data: the README's accuracy sets, 50-node ER1 seeds 6001-6010 and 20-node
# ER4 seeds 2001-2010, n = 1000, standardized. causal-learn's BIC was
# rewritten in March 2026; in that code lambda_value = 1 is penalty
# discount 2 (in older code lambda_value = 2 is): the printed scores show
# whether the two searches optimise the same score (they must agree
# wherever they return the same graph).
suppressMessages(library(calm))
source(system.file("bench", "bench_args.R", package = "calm", mustWork = TRUE))
bench_dir <- bench_script_dir()
source(file.path(bench_dir, "accuracy_data.R"))
a <- bench_args(list(cl_dir = NA_character_, python = "python3", lambda_value = "1"),
                usage = "Rscript inst/bench/bench_causallearn_boss.R <causal-learn dir> [python3] [lambda_value]")
cl_dir <- normalizePath(a$cl_dir)
python <- a$python
lambda_value <- a$lambda_value
n <- 1000
lam <- bic_lambda(n, 2)
sets <- rbind(data.frame(d = 50, k = 1, seed = 6001:6010), data.frame(d = 20, k = 4, seed = 2001:2010))
work <- tempfile("clboss")
dir.create(work)
score_of <- function(amat, x) as.numeric(score_dag(amat, cov = cov2cor(cov(x)), edge_penalty = lam))
rows <- list()
files <- character()
truth <- list()
for (i in seq_len(nrow(sets))) {
  s <- sets[i, ]
  dat <- accuracy_data(s$d, s$k, n, s$seed)
  x <- unname(scale(dat$sem$x))
  f <- file.path(work, sprintf("d%d_k%g_s%d.csv", s$d, s$k, s$seed))
  utils::write.table(x, f, sep = ",", row.names = FALSE, col.names = FALSE)
  files[i] <- f
  truth[[f]] <- list(B = unname(dat$sem$B), x = x)
  for (starts in c(1L, 10L)) {
    set.seed(s$seed + 100000L)
    t0 <- proc.time()[["elapsed"]]
    fit <- boss(x, starts = starts, control = search_control(penalty_discount = 2))
    secs <- proc.time()[["elapsed"]] - t0
    rows[[length(rows) + 1L]] <- data.frame(d = s$d, k = s$k, seed = s$seed,
      method = sprintf("boss(), %d start%s", starts, if (starts > 1) "s" else ""), run = 1L,
      secs = secs, shd = shd_cpdag(fit, truth[[f]]$B), score = score_of(fit$cpdag_amat, x))
  }
}
out <- system2(python, c(file.path(bench_dir, "bench_causallearn_boss.py"), shQuote(cl_dir), lambda_value,
                         shQuote(files)), stdout = TRUE)
for (line in out) {
  p <- strsplit(line, " ")[[1]]
  if (length(p) != 3L || !p[1] %in% files) next
  f <- p[1]
  run <- as.integer(p[2])
  cpdag <- unname(as.matrix(utils::read.table(sub("\\.csv$", sprintf("_cl%d.txt", run), f))))
  s <- sets[match(f, files), ]
  rows[[length(rows) + 1L]] <- data.frame(d = s$d, k = s$k, seed = s$seed, method = "causal-learn BOSS",
    run = run + 1L, secs = as.numeric(p[3]), shd = shd_cpdag(cpdag, truth[[f]]$B),
    score = score_of(cpdag, x = truth[[f]]$x))
}
res <- do.call(rbind, rows)
print(res, row.names = FALSE, digits = 6)
cat("\nSeconds per start (boss(), 10 starts: per fit) and SHD, by setting:\n")
agg <- aggregate(cbind(secs, shd) ~ d + k + method, res, function(v) c(median = median(v), min = min(v), max = max(v)))
print(agg, digits = 3)
se <- function(v) sd(v) / sqrt(length(v))
cat("\nMean +/- se over the graphs of each setting (causal-learn: its 3 runs averaged per graph first):\n")
per_graph <- aggregate(cbind(secs, shd) ~ d + k + seed + method, res, mean)
for (g in split(per_graph, paste(per_graph$d, per_graph$k, per_graph$method))) {
  cat(sprintf("  %d-node ER%g, %-18s seconds %.3f +/- %.3f, SHD %.1f +/- %.1f (%d graphs)\n", g$d[1], g$k[1],
              g$method[1], mean(g$secs), se(g$secs), mean(g$shd), se(g$shd), nrow(g)))
}
best_cl <- aggregate(score ~ seed, res[res$method == "causal-learn BOSS", ], min)
b10 <- res[res$method == "boss(), 10 starts", c("seed", "score")]
m <- merge(b10, best_cl, by = "seed", suffixes = c("_boss10", "_best_cl"))
cat(sprintf("\nboss() with 10 starts scores at or below the best of causal-learn's 3 runs on %d of %d data sets (below on %d).\n",
            sum(m$score_boss10 <= m$score_best_cl + 1e-9), nrow(m), sum(m$score_boss10 < m$score_best_cl - 1e-9)))
