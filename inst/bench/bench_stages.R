# The stage ablation of calm()'s default: each stage of the default turned
# off on its own (or cut short), paired on the same data set, with the CPU
# time of each fit beside its accuracy. One row per data set and variant:
# SHD of CPDAG, skeleton precision and recall, edges, CPU and elapsed
# seconds, the chosen discount and the graph's score at it.
#
#   Rscript inst/bench/bench_stages.R cells reps out.rds [variants] [base]
# cells: comma-separated kind:d:n, kind one of er1, er2, er4 (simulate_sem()
#   with k = 1, 2, 4, the paper's weights), sf, er, sachs, hub, mixed (realistic_data.R:
#   hubs, weak effects, raw scales; d is drawn by realistic_d() there and
#   the given d is ignored, write 0). Example: er1:20:1000,sf:0:1000.
# variants (default: all of stage_variants() but the fixed discounts of
#   boss()): names of stage_variants().
# base (default 1100000): the seed of replicate r of a cell is
#   base + 10000 * cell_key(cell) + r, a number made from the cell's text
#   alone (so cells can run in separate processes), fixed before any run.
# Run it with OPENBLAS_NUM_THREADS=1 so that the CPU time is one core's.
suppressPackageStartupMessages(library(calm))
source(system.file("bench", "bench_args.R", package = "calm", mustWork = TRUE))
source(file.path(bench_script_dir(), "realistic_data.R"))

# The variants: the default, one stage off at a time, and the fast peer.
# "cont_off" cuts the continuous phase to one Adam step, so the refinement
# starts from an (almost) empty graph; "splits1" pools one split of the
# penalty selection's folds instead of two; "fixed2" skips the selection
# (discount 2, the median choice of the selection on the realistic rows).
stage_variants <- function() {
  rc <- function(...) search_control(...)
  list(
    default = list(),
    cont_off = list(control = calm_control(max_rounds = 1, iter_per_round = 1)),
    no_empty_start = list(refine = rc(empty_start = FALSE)),
    starts2 = list(refine = rc(order_starts = 2)),
    grow_ratio1 = list(refine = rc(grow_ratio = 1)),
    # the second grow ratio with any n (the default before grow_ratio = "auto")
    grow_ratio05 = list(refine = rc(grow_ratio = 0.5)),
    no_kicks = list(refine = rc(kicks = 0)),
    no_exact = list(refine = rc(exact_max_d = 0)),
    no_risk = list(refine = rc(risk_starts = 0)),
    splits1 = list(splits = 1L),
    fixed2 = list(control = calm_control(penalty_discount = 2)),
    # the stages that bought nothing above their noise in the ablation
    # (seeds from base 1100000) removed together: the candidate default,
    # checked on fresh seeds (base 1200000)
    lean = list(refine = rc(empty_start = FALSE, grow_ratio = 1, kicks = 0, exact_max_d = 14)),
    # what the default became: one grow ratio, the exact search up to 14
    # variables (the other stages of "lean" kept, see the vignette)
    new = list(refine = rc(grow_ratio = 1, exact_max_d = 14)),
    # the continuous phase in full before the refinement, which the default
    # cuts to one step with n > d since the ablation (fresh seeds: base 1400000)
    full = list(control = calm_control(continuous = "always")),
    # BOSS's starts, the minimum-risk step's candidates, at the count of the
    # step's own searches before they were shared (40, against the default 20)
    risk40 = list(refine = rc(risk_starts = 40)),
    # the peer: boss() at the selected discount and at fixed ones
    boss_cv = NULL,
    boss1.5 = 1.5, boss2 = 2, boss2.5 = 2.5, boss3 = 3, boss4 = 4
  )
}

fit_variant <- function(name, v, x) {
  if (is.null(v)) return(boss(x, control = search_control(penalty_discount = "cv")))
  if (is.numeric(v)) return(boss(x, control = search_control(penalty_discount = v)))
  if (!is.null(v$splits)) {
    v$search <- search_control(selection_splits = v$splits)
    v$splits <- NULL
  }
  # cont_off stops the continuous phase before h is small, which warns
  withCallingHandlers(do.call(calm, c(list(x, verbose = FALSE), v)),
                      warning = function(w) if (name == "cont_off") invokeRestart("muffleWarning"))
}

cell_key <- function(cell) {
  u <- utf8ToInt(cell)
  sum(u * seq_along(u)) %% 997L
}

stage_data <- function(kind, d, n, seed) {
  if (kind %in% c("sf", "er", "sachs", "hub", "mixed")) {
    set.seed(seed)
    d <- realistic_d(kind)
    dat <- realistic_data(kind, d, n, seed)
    return(list(x = dat$x, truth = dat$truth))
  }
  set.seed(seed)
  k <- as.numeric(sub("er", "", kind))
  sem <- simulate_sem(d, k = k, n = n)
  list(x = sem$x, truth = (sem$B != 0) * 1)
}

a <- bench_args(list(cells = NA_character_, reps = NA_integer_, out = NA_character_,
                     variants = "", base = 1100000L),
                usage = "Rscript inst/bench/bench_stages.R cells reps out.rds [variants] [base]")
all_v <- stage_variants()
vnames <- bench_list(a$variants)
if (!length(vnames)) vnames <- grep("^boss[0-9]", names(all_v), value = TRUE, invert = TRUE)
stopifnot(all(vnames %in% names(all_v)))
cells <- bench_list(a$cells)

rows <- list()
for (ci in seq_along(cells)) {
  parts <- strsplit(cells[ci], ":")[[1]]
  kind <- parts[1]
  for (r in seq_len(a$reps)) {
    seed <- a$base + 10000L * cell_key(cells[ci]) + r
    dat <- stage_data(kind, as.integer(parts[2]), as.numeric(parts[3]), seed)
    for (m in vnames) {
      # the exact search runs up to 20 variables: without it nothing changes above
      if (m == "no_exact" && ncol(dat$x) > 20L) next
      set.seed(seed + 1L)
      t0 <- proc.time()
      fit <- fit_variant(m, all_v[[m]], dat$x)
      t1 <- proc.time() - t0
      cg <- compare_graphs(fit, dat$truth)
      lam <- fit$penalty$lambda
      row <- data.frame(
        cell = cells[ci], kind = kind, d = ncol(dat$x), n = nrow(dat$x), seed = seed,
        variant = m, shd = cg$shd, precision = cg$precision, recall = cg$recall,
        est_edges = cg$n_est, cpu = t1[["user.self"]] + t1[["sys.self"]],
        elapsed = t1[["elapsed"]], discount = fit$penalty$discount,
        score = if (is.null(lam)) NA_real_ else as.numeric(score_dag(fit, dat$x, edge_penalty = lam)),
        stringsAsFactors = FALSE)
      rows[[length(rows) + 1L]] <- row
      message(sprintf("%-14s seed %d d %3d %-15s SHD %4d  %7.2f s cpu", cells[ci], seed,
                      row$d, m, row$shd, row$cpu))
    }
    res <- do.call(rbind, rows)
    attr(res, "provenance") <- bench_provenance()
    saveRDS(res, a$out)
  }
}
