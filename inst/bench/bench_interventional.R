# Learning from interventional data: calm(), boss() and exact_search() with
# targets against pcalg's gies().
#
#   Rscript inst/bench/bench_interventional.R out.rds [part] [reps] [budget_min] [cells] [n] [k]
#
# part "search" (issue 62, "Search against gies()"): at d = 20 and 50, `reps`
# (default 20) data sets each with 2-5 single-variable experiments on 10-30%
# of the n = 1000 rows; calm(), boss() and gies() at the same penalty (BIC
# discount 2: pcalg's lambda = log(n)), exact_search() at d = 20; the
# graphs' interventional score (score_dag() with the targets, n times it,
# relative to the truth: lower is better) and seconds.
# part "accuracy": at d = 20, 50, 100 with 0, 1 and 5 intervened variables
# (observation only; 800 + 200 rows; 500 + 5 x 100 rows), `reps` (default
# 10) data sets per cell; calm() and boss() at their defaults and gies() at
# discounts 1, 2 and 3 (its best discount per cell is picked afterwards,
# with the truth); SHD of the interventional CPDAG against the truth's,
# undirected edges, seconds.
# part "selection": the data sets of the accuracy part with 1 and 5
# intervened variables at d = 20 and 50, calm() and boss() at their
# defaults twice, paired: with the penalty's selection scoring each
# variable on its non-intervened rows with the interventional score (the
# default) and with it scoring every row as observation
# (options(calm.interventional_selection = FALSE), as before); the chosen
# discount and the SHD of the interventional CPDAG.
# Graphs: simulate_sem(d, k = 2) (ER2), experiments from
# simulate_interventions() (the variable drawn at its observational scale).
# Seeds: 62000 + 1000 * cell + r, fixed before any result was seen; in the
# accuracy part the graph of data set r at d comes from seed 61000 + 100 d +
# r, shared by the three numbers of targets (paired), whose target sets are
# nested (one experiment is the first of the five). Cells
# run smallest first and the result is saved after each, so a run stopped by
# `budget_min` (minutes, default Inf) keeps what it finished; `cells`
# (comma-separated cell numbers) runs only those; `n` (default 1000) and `k`
# (the graphs' ER degree, default 2) set a harder setting (the row counts of
# the accuracy part then scale with n). One fit at a time.
suppressPackageStartupMessages({library(calm); library(pcalg)})
source(system.file("bench", "bench_args.R", package = "calm", mustWork = TRUE))
a <- bench_args(list(out = NA_character_, part = "search", reps = 0L, budget_min = Inf,
                     cells = "", n = 1000L, k = 2),
                usage = "Rscript inst/bench/bench_interventional.R out.rds [part] [reps] [budget_min] [cells] [n] [k]")
n <- as.integer(a$n)
t_start <- proc.time()[["elapsed"]]

# A data set: the SEM, and the experiments on `n_targets` variables drawn at
# random, `rows` rows in all split evenly between them. With `vars` the
# experiments are on vars[1:n_targets] and the SEM is drawn from `graph_seed`,
# so that the cells of one data set share its graph and their target sets
# are nested (the accuracy part).
draw_data <- function(d, n_targets, rows, graph_seed = NULL) {
  if (!is.null(graph_seed)) {
    data_seed <- sample.int(.Machine$integer.max, 1)
    set.seed(graph_seed)
  }
  sem <- simulate_sem(d, k = a$k)
  vars <- sample.int(d, if (is.null(graph_seed)) n_targets else 5L)[seq_len(n_targets)]
  if (!is.null(graph_seed)) set.seed(data_seed)
  if (n_targets == 0L) {
    return(list(sem = sem, x = simulate_interventions(sem, list(integer(0)), n)$x,
                targets = list(integer(0)), index = rep(1L, n)))
  }
  each <- rep(rows %/% n_targets, n_targets)
  tg <- c(list(integer(0)), as.list(vars))
  sim <- simulate_interventions(sem, tg, c(n - sum(each), each))
  list(sem = sem, x = sim$x, targets = tg, index = sim$target_index)
}

gies_fit <- function(x, tg, idx, discount) {
  sc <- new("GaussL0penIntScore", data = x, targets = tg, target.index = idx,
            lambda = discount * log(nrow(x)) / 2)
  g <- gies(sc)
  dag <- as(g$repr, "matrix") * 1
  ess <- as(g$essgraph, "matrix") * 1
  dimnames(dag) <- dimnames(ess) <- list(colnames(x), colnames(x))
  list(dag = dag, cpdag = ess)
}

timed <- function(expr) {
  t0 <- proc.time()[["elapsed"]]
  v <- expr
  list(value = v, seconds = proc.time()[["elapsed"]] - t0)
}

undirected <- function(cp) sum(cp != 0 & t(cp) != 0) / 2

search_cell <- function(cell, d, reps) {
  lam <- bic_lambda(n, 2)
  rows <- list()
  for (r in seq_len(reps)) {
    seed <- 62000L + 1000L * cell + r
    set.seed(seed)
    k <- sample(2:5, 1)
    frac <- stats::runif(1, 0.1, 0.3)
    dat <- draw_data(d, k, round(frac * n))
    sc <- function(g) n * score_dag((g != 0) * 1, dat$x, edge_penalty = lam, targets = dat$targets,
                                    target_index = dat$index)
    truth <- sc(dat$sem$B)
    fits <- list()
    set.seed(seed + 100000L)
    fits$calm <- timed(calm(dat$x, penalty_discount = 2, verbose = FALSE,
                            targets = dat$targets, target_index = dat$index)$amat)
    set.seed(seed + 100000L)
    fits$boss <- timed(boss(dat$x, control = search_control(penalty_discount = 2), targets = dat$targets,
                            target_index = dat$index)$amat)
    fits$gies <- timed(gies_fit(dat$x, dat$targets, dat$index, 2)$dag)
    if (d <= 20) {
      fits$exact <- timed(exact_search(dat$x, edge_penalty = lam, moral = "none", targets = dat$targets,
                                       target_index = dat$index)$amat)
    }
    for (m in names(fits)) {
      g <- fits[[m]]$value
      rows[[length(rows) + 1L]] <- data.frame(
        part = "search", d = d, n = n, k = a$k, seed = seed, n_targets = k, frac = frac, method = m,
        discount = 2, score_vs_truth = sc(g) - truth,
        shd = shd_cpdag(g, dat$sem$B, targets = dat$targets), seconds = fits[[m]]$seconds)
    }
    s <- do.call(rbind, rows[(length(rows) - length(fits) + 1L):length(rows)])
    cat(sprintf("search d %3d seed %d targets %d: %s\n", d, seed, k,
                paste(sprintf("%s %.2f (%.1f s)", s$method, s$score_vs_truth, s$seconds),
                      collapse = ", ")))
  }
  do.call(rbind, rows)
}

# Data set r of an accuracy cell, with its seed and the truth's class: the
# same graph (and the first experiments) for every number of targets.
accuracy_data <- function(cell, d, n_targets, r) {
  seed <- 62000L + 1000L * cell + r
  set.seed(seed)
  dat <- draw_data(d, n_targets, round(n * c(0, 0.2, 0, 0, 0, 0.5)[n_targets + 1L]),
                   graph_seed = 61000L + 100L * d + r)
  c(dat, list(seed = seed, true_cp = dag_to_cpdag(dat$sem$B, "matrix", targets = dat$targets)))
}

accuracy_cell <- function(cell, d, n_targets, reps) {
  rows <- list()
  for (r in seq_len(reps)) {
    dat <- accuracy_data(cell, d, n_targets, r)
    seed <- dat$seed
    true_cp <- dat$true_cp
    tg <- if (n_targets == 0L) NULL else dat$targets
    ix <- if (n_targets == 0L) NULL else dat$index
    add <- function(m, discount, cp, seconds) {
      rows[[length(rows) + 1L]] <<- data.frame(
        part = "accuracy", d = d, n = n, k = a$k, seed = seed, n_targets = n_targets, method = m,
        discount = discount, shd = shd_cpdag(cp, true_cp), undirected = undirected(cp),
        undirected_truth = undirected(true_cp), graph_seed = 61000L + 100L * d + r,
        seconds = seconds)
    }
    set.seed(seed + 100000L)
    f <- timed(calm(dat$x, verbose = FALSE, targets = tg, target_index = ix))
    add("calm", f$value$penalty$discount %||% NA_real_, f$value$cpdag_amat, f$seconds)
    set.seed(seed + 100000L)
    f <- timed(boss(dat$x, targets = tg, target_index = ix))
    add("boss", f$value$penalty$discount %||% NA_real_, f$value$cpdag_amat, f$seconds)
    for (k in c(1, 2, 3)) {
      f <- timed(gies_fit(dat$x, dat$targets, dat$index, k))
      add("gies", k, f$value$cpdag, f$seconds)
    }
    s <- do.call(rbind, rows[(length(rows) - 4L):length(rows)])
    cat(sprintf("accuracy d %3d targets %d seed %d: %s\n", d, n_targets, seed,
                paste(sprintf("%s/%g SHD %d (%.1f s)", s$method, s$discount, s$shd, s$seconds),
                      collapse = ", ")))
  }
  do.call(rbind, rows)
}

selection_cell <- function(cell, d, n_targets, reps) {
  rows <- list()
  for (r in seq_len(reps)) {
    dat <- accuracy_data(cell, d, n_targets, r)
    seed <- dat$seed
    true_cp <- dat$true_cp
    for (arm in c("interventional", "pooled")) {
      old <- options(calm.interventional_selection = arm == "interventional")
      for (m in c("calm", "boss")) {
        set.seed(seed + 100000L)
        f <- timed(if (m == "calm") {
          calm(dat$x, verbose = FALSE, targets = dat$targets, target_index = dat$index)
        } else {
          boss(dat$x, targets = dat$targets, target_index = dat$index)
        })
        rows[[length(rows) + 1L]] <- data.frame(
          part = "selection", d = d, n = n, k = a$k, seed = seed, n_targets = n_targets,
          method = m, selection = arm, discount = f$value$penalty$discount,
          shd = shd_cpdag(f$value$cpdag_amat, true_cp), undirected = undirected(f$value$cpdag_amat),
          undirected_truth = undirected(true_cp), graph_seed = 61000L + 100L * d + r,
          seconds = f$seconds)
      }
      options(old)
    }
    s <- do.call(rbind, rows[(length(rows) - 3L):length(rows)])
    cat(sprintf("selection d %3d targets %d seed %d: %s\n", d, n_targets, seed,
                paste(sprintf("%s/%s k %g SHD %d", s$method, s$selection, s$discount, s$shd),
                      collapse = ", ")))
  }
  do.call(rbind, rows)
}

`%||%` <- function(a, b) if (is.null(a)) b else a

cells <- if (a$part == "search") {
  data.frame(cell = 1:2, d = c(20L, 50L), n_targets = NA_integer_)
} else if (a$part == "selection") {
  # the accuracy part's cells with targets at d = 20 and 50 (same seeds)
  data.frame(cell = c(12L, 13L, 15L, 16L), d = c(20L, 20L, 50L, 50L), n_targets = c(1L, 5L, 1L, 5L))
} else {
  g <- expand.grid(n_targets = c(0L, 1L, 5L), d = c(20L, 50L, 100L))
  data.frame(cell = 10L + seq_len(nrow(g)), d = g$d, n_targets = g$n_targets)
}
only <- as.integer(bench_list(a$cells))
if (length(only)) cells <- cells[cells$cell %in% only, ]
reps <- if (a$reps > 0) a$reps else if (a$part == "search") 20L else 10L
res <- NULL
not_run <- integer(0)
for (i in seq_len(nrow(cells))) {
  if ((proc.time()[["elapsed"]] - t_start) / 60 > a$budget_min) {
    not_run <- c(not_run, cells$cell[i])
    next
  }
  cl <- cells[i, ]
  part <- if (a$part == "search") search_cell(cl$cell, cl$d, reps)
          else if (a$part == "selection") selection_cell(cl$cell, cl$d, cl$n_targets, reps)
          else accuracy_cell(cl$cell, cl$d, cl$n_targets, reps)
  res <- rbind(res, part)
  attr(res, "info") <- list(not_run = not_run, reps = reps, n = n, k = a$k)
  bench_save(res, a$out, note = sprintf("cells not run (budget): %s",
                                        paste(not_run, collapse = ",")))
}
attr(res, "info") <- list(not_run = not_run, reps = reps, n = n, k = a$k)
bench_save(res, a$out, note = sprintf("cells not run (budget): %s", paste(not_run, collapse = ",")))
if (a$part == "search") {
  print(aggregate(cbind(score_vs_truth, shd, seconds) ~ d + method, res, mean))
} else if (a$part == "selection") {
  print(aggregate(cbind(discount, shd, seconds) ~ d + n_targets + method + selection, res, mean))
  # paired: pooled minus interventional selection, per data set
  w <- reshape(res[, c("d", "n_targets", "method", "seed", "selection", "shd")],
               idvar = c("d", "n_targets", "method", "seed"), timevar = "selection",
               direction = "wide")
  w$diff <- w$shd.pooled - w$shd.interventional
  print(aggregate(diff ~ d + n_targets + method, w,
                  function(v) c(mean = mean(v), se = stats::sd(v) / sqrt(length(v)))))
} else {
  print(aggregate(cbind(shd, undirected, seconds) ~ d + n_targets + method + discount, res, mean))
}
if (length(not_run)) cat("cells not run (budget):", not_run, "\n")
