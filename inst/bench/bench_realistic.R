# The realistic benchmark: calm's default against the strongest peers at
# their best settings on networks like those fitted to real measurements
# (realistic_data.R: scale-free hubs and ER graphs with weak effects, noise
# variances over a 100-fold range, raw scales; and the semi-synthetic Sachs
# network). Every method sees the same data set (paired). One row per data
# set and method: SHD of CPDAG, skeleton precision and recall, edges, time;
# for calm also the chosen discount and whether its graph scores better
# than the true DAG under the chosen penalty (the limit of the score).
#
#   Rscript inst/bench/bench_realistic.R cells reps out.rds [methods] [base] [first_rep]
# cells: comma-separated kind:n (kind sf, er, sachs, hub or mixed; e.g.
# sf:1000,er:200; see all_cells); d is drawn by realistic_d(): 100 to 150 for
# hub, 40 to 150 for the others. The seed of replicate r of a cell
# is base + 10000 * (cell number in all_cells) + r, fixed before any run
# (base 350000 by default; 650000 for the run with the two-split selection,
# 750000 for the run with the minimum-risk step). first_rep (default 1)
# starts at a later replicate, to finish a run that was stopped.
# methods (default all but paper and calm_best): calm, calm_best (calm
# without the minimum-risk step, search_control(risk_starts = 0)),
# calm_ebic, paper, boss, boss_cv, ges, pc, bnlearn, bnlearn_bic (bnlearn
# without "pred-loglik-g"). boss runs at discounts 1, 1.5, 2, 2.5, 3 and 4; ges at 1, 2, 3 and
# 4; pc at alpha 0.001, 0.01 and 0.05; bnlearn: hc and tabu at BIC, hc at
# "ebic-g" and at "pred-loglik-g" (learned on 80% of the rows, scored on
# the rest).
suppressPackageStartupMessages(library(calm))
source(system.file("bench", "bench_args.R", package = "calm", mustWork = TRUE))
bench_dir <- bench_script_dir()
source(file.path(bench_dir, "realistic_data.R"))
# new cells go at the end, so that the seeds of the others stay as they were
all_cells <- c(c(outer(c("sf", "er", "sachs"), c(200, 1000, 5000), paste, sep = ":")),
               "hub:1000", "mixed:1000", "hub:5000", "mixed:200")
default_methods <- "calm,calm_ebic,boss,boss_cv,ges,pc,bnlearn"
a <- bench_args(list(cells = NA_character_, reps = NA_integer_, out = NA_character_,
                     methods = default_methods, base = 350000L, first_rep = 1L),
                usage = "Rscript inst/bench/bench_realistic.R cells reps out.rds [methods] [base] [first_rep]")
cells <- bench_list(a$cells)
stopifnot(all(cells %in% all_cells))
reps <- a$reps
out <- a$out
# an empty methods argument ("") means the default, as it did before bench_args()
methods <- bench_list(if (nzchar(a$methods)) a$methods else default_methods)
base <- a$base

# A fit and its time; bnlearn's searches and PC get `limit` seconds (hc() at
# "pred-loglik-g" has no penalty and runs for many minutes on hub networks;
# PC at n = 5000 on hub networks took over 13 minutes for one fit), after
# which the row is stored with SHD NA.
timed <- function(expr, limit = Inf) {
  t0 <- proc.time()[["elapsed"]]
  setTimeLimit(elapsed = limit, transient = TRUE)
  on.exit(setTimeLimit(elapsed = Inf))
  fit <- tryCatch(expr, error = function(e) e)
  list(fit = fit, seconds = proc.time()[["elapsed"]] - t0)
}
bn_limit <- 30
pc_limit <- 120

# learners: name -> function(x); each returns something compare_graphs() takes
learners <- function(methods, n) {
  L <- list()
  if ("calm" %in% methods) L$calm <- function(x) calm(x, verbose = FALSE)
  # calm without the last step of its refinement (the minimum-risk choice
  # among local optima): the best-scoring graph it found
  if ("calm_best" %in% methods) {
    L$calm_best <- function(x) calm(x, verbose = FALSE, search = search_control(risk_starts = 0))
  }
  if ("calm_ebic" %in% methods) {
    L$calm_ebic <- function(x) calm(x, verbose = FALSE, search = search_control(penalty = "ebic"))
  }
  if ("paper" %in% methods) L$paper <- function(x) calm(x, verbose = FALSE, refine = "none")
  if ("boss" %in% methods) for (k in c(1, 1.5, 2, 2.5, 3, 4)) {
    L[[paste0("boss", k)]] <- local({ kk <- k; function(x) boss(x, control = search_control(penalty_discount = kk)) })
  }
  if ("boss_cv" %in% methods) L$boss_cv <- function(x) boss(x, control = search_control(penalty_discount = "cv"))
  if ("ges" %in% methods) for (k in c(1, 2, 3, 4)) {
    L[[paste0("ges", k)]] <- local({ kk <- k; function(x) ges_pcalg(x, penalty_discount = kk) })
  }
  if ("pc" %in% methods) for (al in c(0.001, 0.01, 0.05)) {
    L[[paste0("pc", al)]] <- local({ aa <- al; function(x) pc_pcalg(x, alpha = aa) })
  }
  if (any(c("bnlearn", "bnlearn_bic") %in% methods)) {
    df <- function(x) as.data.frame(scale(x))
    bn_amat <- function(b) {
      m <- bnlearn::amat(b)
      m
    }
    L$hc <- function(x) bn_amat(bnlearn::hc(df(x)))
    L$tabu <- function(x) bn_amat(bnlearn::tabu(df(x)))
    L$hc_ebic <- function(x) bn_amat(bnlearn::hc(df(x), score = "ebic-g"))
    if ("bnlearn" %in% methods) L$hc_predloglik <- function(x) {
      z <- df(x)
      test <- seq_len(nrow(z)) %in% sample.int(nrow(z), round(nrow(z) / 5))
      bn_amat(bnlearn::hc(z[!test, ], score = "pred-loglik-g", newdata = z[test, ]))
    }
  }
  L
}

rows <- list()
for (cell in cells) {
  kind <- sub(":.*", "", cell)
  n <- as.numeric(sub(".*:", "", cell))
  ci <- match(cell, all_cells)
  for (r in seq(a$first_rep, reps)) {
    seed <- base + 10000L * ci + r
    set.seed(seed)
    d <- realistic_d(kind)
    dat <- realistic_data(kind, d, n, seed)
    L <- learners(methods, n)
    for (m in names(L)) {
      set.seed(seed + 1L)
      limit <- if (grepl("^(hc|tabu)", m)) bn_limit else if (grepl("^pc", m)) pc_limit else Inf
      tf <- timed(L[[m]](dat$x), limit)
      fit <- tf$fit
      if (inherits(fit, "error")) {
        message(sprintf("%s seed %d %s: %s", cell, seed, m, conditionMessage(fit)))
        cg <- data.frame(shd = NA, precision = NA, recall = NA, n_est = NA)
      } else {
        cg <- compare_graphs(fit, dat$truth)
      }
      extra <- data.frame(discount = NA_real_, score_fit = NA_real_, score_truth = NA_real_)
      if (inherits(fit, "calm_fit") && !is.null(fit$penalty)) {
        lam <- fit$penalty$lambda
        extra$discount <- fit$penalty$discount
        extra$score_fit <- as.numeric(score_dag(fit, dat$x, edge_penalty = lam))
        extra$score_truth <- as.numeric(score_dag(dat$truth, dat$x, edge_penalty = lam))
      }
      row <- data.frame(kind = kind, n = n, d = ncol(dat$x), seed = seed, edges = sum(dat$truth),
                        method = m, shd = cg$shd, precision = cg$precision, recall = cg$recall,
                        est_edges = cg$n_est, seconds = tf$seconds, extra)
      rows[[length(rows) + 1L]] <- row
      message(sprintf("%-9s seed %d d %3d %-14s SHD %4d  %6.1f s", cell, seed, ncol(dat$x), m,
                      row$shd, row$seconds))
    }
    res <- do.call(rbind, rows)
    attr(res, "provenance") <- bench_provenance()
    saveRDS(res, out)
  }
}
