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
# with the truth); SHD of the interventional CPDAG against the truth's
# (`shd`) and against the true DAG (`shd_dag`: an undirected edge counts),
# undirected edges, seconds.
# part "selection": the data sets of the accuracy part with 1 and 5
# intervened variables at d = 20 and 50, calm() and boss() at their
# defaults twice, paired: with the penalty's selection scoring each
# variable on its non-intervened rows with the interventional score (the
# default) and with it scoring every row as observation
# (options(calm.interventional_selection = FALSE), as before); the chosen
# discount and the SHD of the interventional CPDAG.
# part "rise": why calm's SHD rose with five experiments on some data sets
# of the stored run `accuracy` (ER2, n = 1000). Cell 1 rebuilds, from their
# seeds, the data sets with five experiments where calm's SHD exceeds its
# SHD with none or with one, fits calm as the accuracy part did, and records
# the score of calm's DAG minus the true DAG's (n times score_dag() with the
# targets; negative: calm's graph scores better) at the chosen penalty and at
# each discount of the grid, and calm's fit with the old selection
# (options(calm.interventional_selection = FALSE)). Cell 2 draws `reps`
# (default 2) fresh data sets for each of the ten d = 100 graphs of the
# accuracy part (data seeds 64000 + 10 r + j, fixed before the run), with 0
# and 5 experiments, and records calm's SHD and score gap.
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

# SHD of a graph against the true DAG itself (not its class): a pair counts
# once when its marks differ, so an edge the class leaves undirected counts.
shd_to_dag <- function(g, dag) {
  diff <- (g != 0) != (dag != 0)
  sum((diff | t(diff))[upper.tri(diff)])
}

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
        discount = discount, shd = shd_cpdag(cp, true_cp), shd_dag = shd_to_dag(cp, dat$sem$B),
        undirected = undirected(cp), undirected_truth = undirected(true_cp), graph_seed = 61000L + 100L * d + r,
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

# n times the score of `g` minus the true DAG's, with the data's targets,
# at BIC discount `discount` (lower is better).
score_gap <- function(dat, g, discount) {
  tg <- if (length(dat$targets) > 1L) dat$targets
  ix <- if (length(dat$targets) > 1L) dat$index
  s <- function(h) score_dag((h != 0) * 1, dat$x, edge_penalty = bic_lambda(n, discount),
                             targets = tg, target_index = ix)
  n * (s(g) - s(dat$sem$B))
}

# calm at its defaults on `dat` (seeded as the accuracy part), with the
# penalty's selection as `interventional` says.
rise_fit <- function(dat, seed, interventional = TRUE) {
  old <- options(calm.interventional_selection = interventional)
  on.exit(options(old))
  set.seed(seed + 100000L)
  tg <- if (length(dat$targets) > 1L) dat$targets
  calm(dat$x, verbose = FALSE, targets = tg, target_index = if (!is.null(tg)) dat$index)
}

# The data sets of the stored accuracy run where calm's SHD with five
# experiments exceeds its SHD with none or one: d and r.
rise_cases <- function() {
  acc <- stored_result("interventional", "accuracy")
  acc <- acc[acc$method == "calm", ]
  shd <- function(t) acc$shd[acc$n_targets == t][match(acc$graph_seed[acc$n_targets == 5L],
                                                       acc$graph_seed[acc$n_targets == t])]
  five <- acc[acc$n_targets == 5L, ]
  up <- five$shd > pmin(shd(0L), shd(1L))
  data.frame(d = five$d[up], r = five$graph_seed[up] - 61000L - 100L * five$d[up])
}

rise_case <- function(d, r) {
  cell <- 10L + 3L * match(d, c(20L, 50L, 100L))
  dat <- accuracy_data(cell, d, 5L, r)
  f <- rise_fit(dat, dat$seed)
  old <- rise_fit(dat, dat$seed, interventional = FALSE)
  grid <- search_control()$penalty_grid
  skel <- function(g) (g + t(g)) != 0
  one <- data.frame(
    part = "rise", kind = "case", d = d, n = n, k = a$k, seed = dat$seed, n_targets = 5L,
    method = "calm", graph_seed = 61000L + 100L * d + r, discount = f$penalty$discount,
    shd = shd_cpdag(f$cpdag_amat, dat$true_cp), score_gap = score_gap(dat, f$amat, f$penalty$discount),
    edges = sum(f$amat != 0), edges_truth = sum(dat$sem$B != 0),
    skeleton_diff = sum(skel(f$amat != 0) != skel(dat$sem$B != 0)) / 2,
    pooled_discount = old$penalty$discount, pooled_shd = shd_cpdag(old$cpdag_amat, dat$true_cp))
  gaps <- data.frame(part = "rise", kind = "case_gap", d = d, n = n, k = a$k, seed = dat$seed,
                     n_targets = 5L, method = "calm", graph_seed = one$graph_seed,
                     discount = grid, score_gap = vapply(grid, score_gap, 0, dat = dat, g = f$amat))
  cat(sprintf("rise d %3d r %d: discount %g SHD %d, score gap %.2f (truth better at discounts %s); old selection: discount %g SHD %d\n",
              d, r, one$discount, one$shd, one$score_gap,
              paste(grid[gaps$score_gap > 1e-6], collapse = ","), one$pooled_discount, one$pooled_shd))
  merge_rows(one, gaps)
}

# Rows of two data frames, each with the other's columns as NA.
merge_rows <- function(x, y) {
  for (cl in setdiff(names(x), names(y))) y[[cl]] <- NA
  for (cl in setdiff(names(y), names(x))) x[[cl]] <- NA
  rbind(x, y[names(x)])
}

rise_redraw <- function(reps) {
  rows <- list()
  for (r in 1:10) for (j in seq_len(reps)) for (t in c(0L, 5L)) {
    s <- 64000L + 10L * r + j
    set.seed(s)
    dat <- draw_data(100L, t, round(n * c(0, 0.5)[1L + (t > 0)]), graph_seed = 61000L + 10000L + r)
    f <- rise_fit(dat, s)
    true_cp <- dag_to_cpdag(dat$sem$B, "matrix", targets = dat$targets)
    rows[[length(rows) + 1L]] <- data.frame(
      part = "rise", kind = "redraw", d = 100L, n = n, k = a$k, seed = s, n_targets = t,
      method = "calm", graph_seed = 61000L + 10000L + r, discount = f$penalty$discount,
      shd = shd_cpdag(f$cpdag_amat, true_cp), score_gap = score_gap(dat, f$amat, f$penalty$discount),
      undirected = undirected(f$cpdag_amat), undirected_truth = undirected(true_cp))
    z <- rows[[length(rows)]]
    cat(sprintf("redraw d 100 graph %d seed %d targets %d: discount %g SHD %d score gap %.2f\n",
                z$graph_seed, s, t, z$discount, z$shd, z$score_gap))
  }
  do.call(rbind, rows)
}

rise_cell <- function(cell, reps) {
  if (cell == 2L) return(rise_redraw(reps))
  cs <- rise_cases()
  do.call(rbind, Map(rise_case, cs$d, cs$r))
}

`%||%` <- function(a, b) if (is.null(a)) b else a

cells <- if (a$part == "search") {
  data.frame(cell = 1:2, d = c(20L, 50L), n_targets = NA_integer_)
} else if (a$part == "rise") {
  data.frame(cell = 1:2, d = NA_integer_, n_targets = NA_integer_)
} else if (a$part == "selection") {
  # the accuracy part's cells with targets at d = 20 and 50 (same seeds)
  data.frame(cell = c(12L, 13L, 15L, 16L), d = c(20L, 20L, 50L, 50L), n_targets = c(1L, 5L, 1L, 5L))
} else {
  g <- expand.grid(n_targets = c(0L, 1L, 5L), d = c(20L, 50L, 100L))
  data.frame(cell = 10L + seq_len(nrow(g)), d = g$d, n_targets = g$n_targets)
}
only <- as.integer(bench_list(a$cells))
if (length(only)) cells <- cells[cells$cell %in% only, ]
reps <- if (a$reps > 0) a$reps else if (a$part == "search") 20L else if (a$part == "rise") 2L else 10L
res <- NULL
not_run <- integer(0)
for (i in seq_len(nrow(cells))) {
  if ((proc.time()[["elapsed"]] - t_start) / 60 > a$budget_min) {
    not_run <- c(not_run, cells$cell[i])
    next
  }
  cl <- cells[i, ]
  part <- if (a$part == "search") search_cell(cl$cell, cl$d, reps)
          else if (a$part == "rise") rise_cell(cl$cell, reps)
          else if (a$part == "selection") selection_cell(cl$cell, cl$d, cl$n_targets, reps)
          else accuracy_cell(cl$cell, cl$d, cl$n_targets, reps)
  res <- if (is.null(res)) part else merge_rows(res, part)
  attr(res, "info") <- list(not_run = not_run, reps = reps, n = n, k = a$k)
  bench_save(res, a$out, note = sprintf("cells not run (budget): %s",
                                        paste(not_run, collapse = ",")))
}
attr(res, "info") <- list(not_run = not_run, reps = reps, n = n, k = a$k)
bench_save(res, a$out, note = sprintf("cells not run (budget): %s", paste(not_run, collapse = ",")))
if (a$part == "search") {
  print(aggregate(cbind(score_vs_truth, shd, seconds) ~ d + method, res, mean))
} else if (a$part == "rise") {
  rd <- res[res$kind == "redraw", ]
  if (nrow(rd)) print(aggregate(cbind(shd, score_gap, undirected) ~ n_targets, rd, mean))
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
