# Tables of the realistic benchmark from its stored rows
# (inst/extdata/realistic.rds, written by bench_realistic.R), for the README
# and the vignette: one row per cell (kind of network, n).
# realistic_table(res): mean SHD of CPDAG +/- standard error over the cell's
# data sets for calm's default, calm without the last step of its refinement
# (calm_best: the best-scoring graph it found), calm with the extended BIC
# (the default before the selection), the paper's CALM (refine = "none"; run on the Sachs
# network only), boss() at discount 2, the oracle fixed discounts of
# boss(), GES and PC (best mean per cell, named), bnlearn's hc() and tabu(),
# and the difference calm minus the oracle (paired, +/- se).

# The kinds of network in the tables' order, and their names there.
network_names <- c(sf = "scale-free", er = "ER", sachs = "Sachs", hub = "hub, weak effects",
                   mixed = "mixed in-degrees")
network_label <- function(kind) network_names[[kind]]
cell_keys <- function(res) {
  keys <- unique(res[c("kind", "n")])
  keys[order(match(keys$kind, names(network_names)), keys$n), ]
}

mean_se <- function(v) {
  v <- v[!is.na(v)]
  if (!length(v)) return("-")
  if (length(v) == 1L) return(sprintf("%.1f", v))
  sprintf("%.1f +/- %.1f", mean(v), stats::sd(v) / sqrt(length(v)))
}

# The best fixed setting of a family (rows whose method matches `pattern`):
# the method with the smallest mean SHD in the cell (runs stopped at their
# time limit, SHD NA, left out), and its per-seed SHDs.
oracle_of <- function(cell, pattern) {
  fam <- cell[grepl(pattern, cell$method), ]
  if (!nrow(fam)) return(NULL)
  m <- tapply(fam$shd, fam$method, mean, na.rm = TRUE)
  best <- names(m)[which.min(m)]
  fam[fam$method == best, c("seed", "shd")]
}

paired <- function(cell, a, b) {
  x <- merge(a, b, by = "seed")
  if (!nrow(x)) return("-")
  mean_se(x$shd.x - x$shd.y)
}

method_shd <- function(cell, m) cell[cell$method == m, c("seed", "shd")]

realistic_table <- function(res) {
  keys <- cell_keys(res)
  rows <- lapply(seq_len(nrow(keys)), function(i) {
    cell <- res[res$kind == keys$kind[i] & res$n == keys$n[i], ]
    boss_o <- oracle_of(cell, "^boss[0-9]")
    ges_o <- oracle_of(cell, "^ges")
    pc_o <- oracle_of(cell, "^pc")
    label <- function(pattern) {
      fam <- cell[grepl(pattern, cell$method), ]
      if (!nrow(fam)) return("")
      m <- tapply(fam$shd, fam$method, mean, na.rm = TRUE)
      sub("^(boss|ges|pc)", "", names(m)[which.min(m)])
    }
    calm <- method_shd(cell, "calm")
    data.frame(
      network = network_label(keys$kind[i]),
      n = keys$n[i],
      d = if (keys$kind[i] == "sachs") "11" else paste(range(cell$d), collapse = "-"),
      graphs = length(unique(cell$seed)),
      calm = mean_se(calm$shd),
      calm_before = mean_se(method_shd(cell, "calm_before")$shd),
      calm_best = mean_se(method_shd(cell, "calm_best")$shd),
      calm_ebic = mean_se(method_shd(cell, "calm_ebic")$shd),
      paper = mean_se(method_shd(cell, "paper")$shd),
      boss_2 = mean_se(method_shd(cell, "boss2")$shd),
      boss_oracle = if (is.null(boss_o)) "-" else sprintf("%s (%s)", mean_se(boss_o$shd), label("^boss[0-9]")),
      ges_best = if (is.null(ges_o)) "-" else sprintf("%s (%s)", mean_se(ges_o$shd), label("^ges")),
      pc_best = if (is.null(pc_o)) "-" else sprintf("%s (%s)", mean_se(pc_o$shd), label("^pc")),
      hc = mean_se(method_shd(cell, "hc")$shd),
      tabu = mean_se(method_shd(cell, "tabu")$shd),
      hc_ebic = mean_se(method_shd(cell, "hc_ebic")$shd),
      hc_predloglik = mean_se(method_shd(cell, "hc_predloglik")$shd),
      calm_minus_oracle = if (is.null(boss_o)) "-" else paired(cell, calm, boss_o),
      stringsAsFactors = FALSE)
  })
  do.call(rbind, rows)
}

# Totals over the cells: the sum of the cells' mean SHDs for calm, the
# oracle fixed discount of boss() (chosen per cell) and boss() at 2.
realistic_totals <- function(res) {
  cells <- split(res, list(res$kind, res$n), drop = TRUE)
  sum_of <- function(f) sum(vapply(cells, f, numeric(1)))
  c(calm = sum_of(function(cl) mean(cl$shd[cl$method == "calm"])),
    calm_best = sum_of(function(cl) mean(cl$shd[cl$method == "calm_best"])),
    calm_ebic = sum_of(function(cl) mean(cl$shd[cl$method == "calm_ebic"])),
    boss_oracle = sum_of(function(cl) mean(oracle_of(cl, "^boss[0-9]")$shd)),
    boss_2 = sum_of(function(cl) mean(cl$shd[cl$method == "boss2"])),
    boss_cv = sum_of(function(cl) mean(cl$shd[cl$method == "boss_cv"])))
}

# Time per fit (seconds, mean over the cell) and the limit of the score:
# the share of data sets where calm's graph scores at least as well as the
# true DAG under the penalty calm chose, and the discounts it chose.
realistic_time_limit <- function(res) {
  keys <- cell_keys(res)
  rows <- lapply(seq_len(nrow(keys)), function(i) {
    cell <- res[res$kind == keys$kind[i] & res$n == keys$n[i], ]
    cm <- cell[cell$method == "calm", ]
    secs <- function(m) {
      v <- cell$seconds[cell$method == m]
      if (length(v)) sprintf("%.1f", mean(v)) else "-"
    }
    ratio_to <- function(cell, other) {
      r <- time_ratios(cell, other)
      if (is.na(r)) "-" else sprintf("%.2f", r)
    }
    data.frame(
      network = network_label(keys$kind[i]),
      n = keys$n[i],
      calm_s = secs("calm"), calm_before_s = secs("calm_before"), calm_best_s = secs("calm_best"),
      calm_ebic_s = secs("calm_ebic"), boss2_s = secs("boss2"), boss_cv_s = secs("boss_cv"),
      calm_to_boss_cv = ratio_to(cell, "boss_cv"),
      ges2_s = secs("ges2"), pc_s = secs("pc0.01"),
      discounts = paste(sort(unique(cm$discount)), collapse = ", "),
      calm_beats_truth = sprintf("%d of %d", sum(cm$score_fit <= cm$score_truth + 1e-12),
                                 nrow(cm)),
      stringsAsFactors = FALSE)
  })
  do.call(rbind, rows)
}

# The cells where calm's mean SHD is above that of boss() at the cell's
# best discount, as "network, n = N: X against Y".
realistic_losses <- function(res) {
  tab <- realistic_table(res)
  cells <- split(res, list(res$kind, res$n), drop = TRUE)
  out <- character()
  for (cl in cells) {
    a <- mean(cl$shd[cl$method == "calm"])
    b <- mean(oracle_of(cl, "^boss[0-9]")$shd)
    if (a > b) {
      net <- network_label(cl$kind[1])
      out <- c(out, sprintf("%s, n = %g: %.1f against %.1f", net, cl$n[1], a, b))
    }
  }
  out
}

# calm's mean time per cell divided by that of `other` (a method name), over
# the data sets where both ran (paired), as a named vector over the cells.
time_ratios <- function(res, other) {
  cells <- split(res, list(res$kind, res$n), drop = TRUE)
  vapply(cells, function(cl) {
    both <- intersect(cl$seed[cl$method == "calm"], cl$seed[cl$method == other])
    if (!length(both)) return(NA_real_)
    secs <- function(m) mean(cl$seconds[cl$method == m & cl$seed %in% both])
    secs("calm") / secs(other)
  }, numeric(1))
}

# The selection rules compared on the tuning seeds (bench_penalty_splits.R):
# `splits`: held-out log-likelihoods per split, fold and discount; `tuning`:
# penalty_select.rds, with boss()'s SHD at each fixed discount. A rule pools
# 1, 2 or 4 splits and takes the largest discount within `tol` standard
# errors of the best mean; with fewer splits than 4 its SHD is the mean over
# the disjoint groups of splits. Returns the mean SHD per cell and rule, with
# the oracle (best fixed discount of the cell).
split_rule_table <- function(splits, tuning) {
  grid <- sort(unique(splits$discount), decreasing = TRUE)
  pick <- function(ll, tol) {
    m <- rowMeans(ll)
    b <- which.max(m)
    se <- apply(ll, 1L, function(v) stats::sd(v - ll[b, ])) / sqrt(ncol(ll))
    grid[min(which(m >= m[b] - tol * se))]
  }
  groups <- list(`1` = list(1, 2, 3, 4), `2` = list(1:2, 3:4), `4` = list(1:4))
  rules <- expand.grid(tol = c(0, 0.5, 1), n_splits = names(groups), stringsAsFactors = FALSE)
  per_set <- lapply(split(splits, splits$row), function(z) {
    i <- z$row[1]
    shd <- function(k) tuning[[paste0("boss", k)]][i]
    ll_of <- function(s) {
      w <- z[z$split %in% s, ]
      matrix(w$heldout_loglik[order(w$split, w$fold, -w$discount)], nrow = length(grid))
    }
    v <- mapply(function(tol, ns) {
      mean(vapply(groups[[ns]], function(s) shd(pick(ll_of(s), tol)), numeric(1)))
    }, rules$tol, rules$n_splits)
    stats::setNames(c(v, vapply(grid, shd, numeric(1))),
                    c(sprintf("%s split%s, %g se", rules$n_splits,
                              ifelse(rules$n_splits == "1", "", "s"), rules$tol),
                      paste0("boss", grid)))
  })
  rows <- as.integer(names(per_set))
  tab <- aggregate(do.call(rbind, per_set), tuning[rows, c("kind", "n")], mean)
  fixed <- grep("^boss", names(tab), value = TRUE)
  tab$oracle <- apply(tab[fixed], 1L, min)
  tab[setdiff(names(tab), fixed)]
}

# One row per cell of `m` (rows with kind, n), in the tables' order, then
# one for all cells: `row_of(rows, network, n)` makes each.
rows_per_cell <- function(m, row_of) {
  keys <- cell_keys(m)
  rows <- lapply(seq_len(nrow(keys)), function(i) {
    z <- m[m$kind == keys$kind[i] & m$n == keys$n[i], ]
    row_of(z, network_label(keys$kind[i]), keys$n[i])
  })
  rbind(do.call(rbind, rows), row_of(m, "all", NA))
}

# The search against the score: on the data sets where calm (`method`: by
# default calm_best, its best-scoring graph) and boss(penalty_discount =
# "cv") chose the same discount (so both optimise the same score), how often
# calm's graph scores better (lower), and the paired difference in SHD, calm
# minus boss(). One row per cell and a total.
search_vs_score <- function(res, method = "calm_best") {
  a <- res[res$method == method, c("kind", "n", "seed", "shd", "discount", "score_fit")]
  b <- res[res$method == "boss_cv", c("kind", "n", "seed", "shd", "discount", "score_fit")]
  m <- merge(a, b, by = c("kind", "n", "seed"))
  m <- m[!is.na(m$discount.x) & m$discount.x == m$discount.y, ]
  row_of <- function(z, network, n) {
    data.frame(network = network, n = n, data_sets = nrow(z),
               calm_scores_better = sum(z$score_fit.x < z$score_fit.y - 1e-9),
               same_score = sum(abs(z$score_fit.x - z$score_fit.y) <= 1e-9),
               shd_calm_minus_boss = mean_se(z$shd.x - z$shd.y), stringsAsFactors = FALSE)
  }
  rows_per_cell(m, row_of)
}

# The last step of calm's refinement (the minimum-risk choice among local
# optima) on the benchmark: per cell, calm against calm_best (the same fit
# without the step; the same data and seeds), paired: mean SHD of each, the
# difference with its standard error, on how many data sets the step chose
# another graph (calm's graph scores worse than calm_best's), and the time
# per fit of each. One row per cell and a total over the data sets.
risk_step_table <- function(res) {
  a <- res[res$method == "calm", c("kind", "n", "seed", "shd", "seconds", "score_fit")]
  b <- res[res$method == "calm_best", c("kind", "n", "seed", "shd", "seconds", "score_fit")]
  m <- merge(a, b, by = c("kind", "n", "seed"))
  row_of <- function(z, network, n) {
    data.frame(network = network, n = n, data_sets = nrow(z), calm = mean_se(z$shd.x),
               calm_best = mean_se(z$shd.y), difference = mean_se(z$shd.x - z$shd.y),
               changed = sum(z$score_fit.x > z$score_fit.y + 1e-12),
               calm_s = sprintf("%.1f", mean(z$seconds.x)),
               calm_best_s = sprintf("%.1f", mean(z$seconds.y)), stringsAsFactors = FALSE)
  }
  rows_per_cell(m, row_of)
}

# calm's default against the previous default (`calm_before`, stored from the
# run before the change, the same data sets): per cell where both ran, the
# mean SHD of each, the paired difference (+/- se), and calm's time against
# boss(penalty_discount = "cv") in the same run; then the sums over those
# cells.
before_after <- function(res) {
  have <- unique(res[res$method == "calm_before", c("kind", "n")])
  m <- merge(res, have)
  row_of <- function(z, network, n) {
    x <- merge(z[z$method == "calm", c("kind", "n", "seed", "shd")],
               z[z$method == "calm_before", c("kind", "n", "seed", "shd")],
               by = c("kind", "n", "seed"))
    cells <- split(z, list(z$kind, z$n), drop = TRUE)
    sum_of <- function(meth) sum(vapply(cells, function(cl) mean(cl$shd[cl$method == meth]), 1))
    data.frame(network = network, n = n, data_sets = nrow(x), calm = sum_of("calm"),
               calm_before = sum_of("calm_before"), boss_cv = sum_of("boss_cv"),
               calm_minus_before = mean_se(x$shd.x - x$shd.y),
               calm_to_boss_cv_time = if (is.na(n)) "-" else sprintf("%.2f", time_ratios(z, "boss_cv")),
               stringsAsFactors = FALSE)
  }
  rows_per_cell(m, row_of)
}
