# Does early stopping (calm_control(early_stop = TRUE), the default: rounds
# end once they stop making progress, and the schedule ends once the learned
# graph has settled) change what CALM learns, and how much time does it save?
#
# The paper's Table 2 setting: 50-node ER graphs, population covariance,
# true moral graph, one core. Graph g is simulate_sem(50, k) after
# set.seed(2025 + g), and each of its two fits starts from set.seed(7000 + g)
# (the seeds of inst/bench/paper/table2_er1_infinite.R). Every graph is fitted
# twice: with the paper's schedule (every round 40,000 steps) and with the
# default early stopping. Prints, per graph and over the graphs, the SHD of
# the CPDAG, skeleton precision and recall, rounds, Adam steps and wall time
# of both fits; the paired SHD difference; the saving in steps and time; and
# how many times faster the default fit is than a PyTorch run of the paper's
# schedule on the same problem would be (its steps times PyTorch's float64
# time of one step on this machine kind: 0.24, 0.44 and 1.56 ms at d = 20,
# 50 and 100, issue 6; not shown for other d).
#
# Usage (from the package source directory, on an otherwise idle machine):
#   Rscript inst/bench/bench_early_stop.R [k] [standardize] [n_graphs] [out.rds] [d] [paper.rds]
# k = 1, standardize = TRUE, n_graphs = 10, d = 50 by default: about 6
# minutes (10 x 25 s + 10 x 9 s; 50-node ER4 graphs take about 20 minutes).
# out.rds ("-" for none) receives the per-graph table and the summary; an
# interrupted run with the same out.rds resumes. paper.rds: an earlier
# out.rds of the same setting whose paper-schedule rows are reused instead of
# refitted (that schedule does not depend on the early-stopping options; the
# fits are reproducible on the same kernel build, but their times come from
# the earlier run).

suppressPackageStartupMessages(library(calm))
source(system.file("bench", "bench_args.R", package = "calm", mustWork = TRUE))
a <- bench_args(list(k = 1, standardize = TRUE, n_graphs = 10L, out = "-", d = 50L, paper = ""),
                usage = "Rscript inst/bench/bench_early_stop.R [k] [standardize] [n_graphs] [out.rds] [d] [paper.rds]")
k <- a$k
std <- a$standardize
n_graphs <- a$n_graphs
out <- if (a$out != "-") a$out else NA_character_
d <- a$d
paper_from <- if (nzchar(a$paper)) readRDS(a$paper)$per_graph else NULL
if (!is.null(paper_from)) paper_from <- paper_from[paper_from$schedule == "paper", ]
stopifnot(k > 0, !is.na(std), n_graphs >= 2L, d >= 2L)
# PyTorch float64 ms per step on this machine kind (issue 6), where known
pytorch_ms_per_step <- c(`20` = 0.24, `50` = 0.44, `100` = 1.56)[as.character(d)]

fit_one <- function(sem, g, early_stop) {
  set.seed(7000 + g)
  fit <- suppressWarnings(calm(cov = sem$sigma, moral = moral_graph(sem$dag),
                               standardize = std, early_stop = early_stop,
                               verbose = FALSE))
  cmp <- compare_graphs(fit, sem$B)
  data.frame(graph = g, schedule = if (early_stop) "early_stop" else "paper",
             shd = cmp$shd, precision = cmp$precision, recall = cmp$recall,
             rounds = nrow(fit$trace), steps = sum(fit$trace$steps),
             seconds = fit$time, converged = fit$converged,
             repaired = nrow(fit$removed))
}

rows <- if (!is.na(out) && file.exists(out)) readRDS(out)$per_graph else NULL
for (g in seq_len(n_graphs)) {
  if (!is.null(rows) && sum(rows$graph == g) == 2L) next
  set.seed(2025 + g)
  sem <- simulate_sem(d, k = k)
  paper_row <- if (!is.null(paper_from)) paper_from[paper_from$graph == g, ] else NULL
  if (is.null(paper_row) || nrow(paper_row) != 1L) paper_row <- fit_one(sem, g, FALSE)
  pair <- rbind(paper_row, fit_one(sem, g, TRUE))
  if (!is.null(rows)) rows <- rows[rows$graph != g, , drop = FALSE]
  rows <- rbind(rows, pair)
  cat(sprintf(paste0("graph %2d  paper: SHD %2d, %2d rounds, %6d steps, %5.1f s",
                     " | early stop: SHD %2d, %2d rounds, %6d steps, %5.1f s\n"),
              g, pair$shd[1], pair$rounds[1], pair$steps[1], pair$seconds[1],
              pair$shd[2], pair$rounds[2], pair$steps[2], pair$seconds[2]))
  if (!is.na(out)) saveRDS(list(per_graph = rows), out)
}

paper <- rows[rows$schedule == "paper", ]
early <- rows[rows$schedule == "early_stop", ]
paper <- paper[order(paper$graph), ]
early <- early[order(early$graph), ]
se <- function(v) stats::sd(v) / sqrt(length(v))
ms <- function(v, digits = 1) sprintf(paste0("%.", digits, "f +/- %.", digits, "f"), mean(v), se(v))
summary <- data.frame(
  schedule = c("paper (40,000 steps a round)", "early stop (default)"),
  shd = c(ms(paper$shd), ms(early$shd)),
  precision = c(ms(paper$precision, 3), ms(early$precision, 3)),
  recall = c(ms(paper$recall, 3), ms(early$recall, 3)),
  rounds = c(ms(paper$rounds), ms(early$rounds)),
  steps = c(sprintf("%.0f", mean(paper$steps)), sprintf("%.0f", mean(early$steps))),
  seconds = c(ms(paper$seconds), ms(early$seconds)),
  converged = c(sum(paper$converged), sum(early$converged))
)
pytorch_s <- paper$steps * pytorch_ms_per_step / 1000
cat(sprintf("\n%d-node ER%g, population covariance, %s, true moral graph, %d graphs, one core\n",
            d, k, if (std) "standardized" else "not standardized", nrow(paper)))
cat(sprintf("%s, %s, R %s.%s\n\n", format(Sys.time(), "%Y-%m-%d %H:%M"),
            if (calm:::cpp_calm_simd_available()) "avx2 kernel" else "generic kernel",
            R.version$major, R.version$minor))
print(summary, row.names = FALSE)
diff <- early$shd - paper$shd
cat(sprintf("\nSHD, early stop minus paper: mean %.2f +/- %.2f; same SHD on %d of %d graphs\n",
            mean(diff), se(diff), sum(diff == 0), length(diff)))
cat(sprintf("steps saved: %.2f times fewer (range %.2f to %.2f)\n",
            mean(paper$steps) / mean(early$steps), min(paper$steps / early$steps),
            max(paper$steps / early$steps)))
cat(sprintf("wall time saved: %.2f times faster (%.1f s against %.1f s a fit)\n",
            mean(paper$seconds) / mean(early$seconds), mean(early$seconds),
            mean(paper$seconds)))
if (!is.na(pytorch_ms_per_step)) {
  cat(sprintf(paste0("against PyTorch on the paper's schedule (%.2f ms a step): paper schedule",
                     " %.1f times faster, default fit %.1f times faster (per graph %.1f to %.1f)\n"),
              pytorch_ms_per_step, sum(pytorch_s) / sum(paper$seconds),
              sum(pytorch_s) / sum(early$seconds), min(pytorch_s / early$seconds),
              max(pytorch_s / early$seconds)))
}
if (!is.na(out)) {
  saveRDS(list(per_graph = rows, summary = summary,
               info = list(d = d, k = k, standardize = std, n_graphs = nrow(paper),
                           date = format(Sys.time(), "%Y-%m-%d %H:%M:%S %Z"),
                           calm_version = as.character(utils::packageVersion("calm")),
                           pytorch_ms_per_step = unname(pytorch_ms_per_step),
                           paper_rows_from = if (nzchar(a$paper)) basename(a$paper))),
          out)
  cat("results written to", out, "\n")
}
