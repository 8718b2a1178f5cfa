# Tables of the runs of bench_large.R stored in inst/extdata/large.rds, for
# the README and the vignette *What each stage of calm() buys, and what it
# costs*. Sourced, not run.

# mean +/- standard error, as text
large_msd <- function(v, digits = 1) {
  v <- v[!is.na(v)]
  if (length(v) < 2L) return(format(round(mean(v), digits), nsmall = digits))
  sprintf(paste0("%.", digits, "f +/- %.", digits, "f"), mean(v), stats::sd(v) / sqrt(length(v)))
}

# The rows of `large` without calm's default fits of a (d, n, kind) cell
# that a run stored later fitted again (runs are stored in the order they
# were made, each with a newer build): each cell shows the newest fits.
# A run whose provenance names runs in `extends` adds data sets to them
# with the same package code (fresh seeds, drawn before the runs): a cell
# then shows the newest run's fits and those of the runs it extends, on
# the seeds the newest did not fit.
# A run whose provenance gives `default_method` was made by a build before
# the default changed, with a method that computes what the default
# computes now at the run's sizes (search_control(scan_kicks = 150) where
# "auto" now gives 150): its rows of that method stand for the default, and
# its own "default" rows are renamed "default_before".
large_latest <- function(large) {
  prov <- attr(large, "provenance")
  for (r in names(prov)) {
    alias <- prov[[r]]$default_method
    if (is.null(alias)) next
    in_run <- large$run == r
    large$method[in_run & large$method == "default"] <- "default_before"
    large$method[in_run & large$method == alias] <- "default"
  }
  stored <- match(large$run, names(prov))
  cell <- paste(large$d, large$n, large$kind)
  is_def <- large$method == "default"
  newest <- tapply(stored[is_def], cell[is_def], max)
  keep <- !is_def | stored == newest[cell]
  for (cl in names(newest)) {
    ext <- prov[[newest[[cl]]]]$extends
    if (!length(ext)) next
    seeds <- large$seed[keep & is_def & cell == cl]
    add <- is_def & cell == cl & large$run %in% ext & !(large$seed %in% seeds)
    keep <- keep | add
  }
  out <- large[keep, ]
  attr(out, "provenance") <- prov
  out
}

# The runs of calm's fits `calm_runs` and the runs that extend one of them
# (a run of peers only, on more of the same settings' data sets, names the
# run of calm's fits it extends).
large_related_runs <- function(prov, calm_runs) {
  ext <- vapply(prov, function(p) any(p$extends %in% calm_runs), logical(1))
  union(calm_runs, names(prov)[ext])
}

# One row per (d, n, kind): data sets, calm's mean seconds, SHD and peak
# memory, and those of each peer that ran (in calm's run, or a run that
# extends it, where it ran there), with calm minus the peer's SHD paired
# over the same data sets.
large_table <- function(large, peers = c("ges4", "ges2", "ges1d", "ges2d", "ges4d", "ges8d")) {
  large <- large_latest(large)
  prov <- attr(large, "provenance")
  # the cells where calm's default ran (ablation runs have other methods)
  cells <- unique(large[large$method == "default", c("d", "n", "kind")])
  cells <- cells[order(cells$d, -cells$n, cells$kind), ]
  rows <- lapply(seq_len(nrow(cells)), function(i) {
    b <- merge(cells[i, ], large, by = c("d", "n", "kind"))
    calm <- b[b$method == "default", ]
    out <- data.frame(d = cells$d[i], n = cells$n[i], kind = cells$kind[i],
                      data_sets = nrow(calm), edges = round(mean(calm$true)),
                      calm_seconds = large_msd(calm$seconds, 0), calm_shd = large_msd(calm$shd),
                      calm_peak_gb = sprintf("%.1f", max(calm$peak_mb) / 1024),
                      stringsAsFactors = FALSE)
    peer_runs <- character()
    same_peers <- character()
    related <- large_related_runs(prov, unique(calm$run))
    for (p in peers) {
      r <- b[b$method == p, ]
      # a peer that ran in the same run as calm's fits (or in a run that
      # extends it) is compared there only (same build, machine and load)
      same <- r[r$run %in% related, ]
      if (nrow(same)) {
        r <- same
        same_peers <- c(same_peers, p)
      }
      if (!nrow(r)) next
      pair <- merge(calm[c("seed", "shd")], r[c("seed", "shd")], by = "seed")
      out[[paste0(p, "_graphs")]] <- nrow(r)
      out[[paste0(p, "_seconds")]] <- large_msd(r$seconds, 0)
      out[[paste0(p, "_shd")]] <- large_msd(r$shd)
      out[[paste0("calm_minus_", p)]] <- large_msd(pair$shd.x - pair$shd.y)
      peer_runs <- c(peer_runs, unique(r$run))
    }
    # where the peers' rows come from: calm's own run, or earlier runs
    # (another build and perhaps another machine: their seconds are not
    # comparable with calm's)
    if (length(peer_runs)) {
      out$peers_from <- if (all(peer_runs %in% related)) "same run" else
        paste(unique(setdiff(peer_runs, related)), collapse = ", ")
      # the peers that ran on calm's own data sets, in its run
      out$peers_same <- if (length(same_peers)) paste(same_peers, collapse = ", ") else NA
    }
    out
  })
  cols <- unique(unlist(lapply(rows, names)))
  tail_cols <- c("peers_from", "peers_same")
  cols <- c(setdiff(cols, tail_cols), intersect(tail_cols, cols))
  do.call(rbind, lapply(rows, function(r) {
    r[setdiff(cols, names(r))] <- NA
    r[cols]
  }))
}

# calm's stages: mean seconds at each size (d, n) (both kinds of graph
# pooled), and the slope of log(seconds) against log(d) over the sizes with
# n = 2d (NA where a size's newest run did not record the stage). The steps of the refinement are averaged over the fits without a
# second refinement (the stored runs recorded the second one's steps where
# it ran).
large_stage_table <- function(large) {
  large <- large_latest(large)
  calm <- large[large$method == "default", ]
  stages <- c(covariance = "s_covariance", moral = "s_moral", continuous = "s_continuous",
              penalty = "s_penalty", "GES moves from the start" = "s_refine_ges_start",
              "GES from the empty graph" = "s_refine_ges_empty",
              "BOSS inside the moral graph" = "s_refine_boss",
              "BOSS beyond the moral graph" = "s_refine_boss_wide",
              "scan beyond the pairs" = "s_refine_scan",
              "kicks after the scan" = "s_refine_kicks",
              "second refinement" = "s_refine_again", "whole fit" = "seconds")
  stages <- stages[stages %in% names(calm)]
  sizes <- unique(calm[c("d", "n")])
  sizes <- sizes[order(sizes$d, sizes$n), ]
  label <- sprintf("d %d, n %d", sizes$d, sizes$n)
  scaled <- sizes$n == 2 * sizes$d
  do.call(rbind, lapply(names(stages), function(s) {
    v <- calm[[stages[[s]]]]
    # a stage that did not run took 0 s; the kicks' own clock is NA in runs
    # of builds before it had one (their seconds are in the scan's)
    if (stages[[s]] != "s_refine_kicks") v[is.na(v)] <- 0
    use <- rep(TRUE, nrow(calm))
    if (grepl("^s_refine_", stages[[s]]) && stages[[s]] != "s_refine_again" &&
        "s_refine_again" %in% names(calm)) use <- is.na(calm$s_refine_again)
    means <- vapply(seq_len(nrow(sizes)), function(k) {
      mean(v[calm$d == sizes$d[k] & calm$n == sizes$n[k] & use])
    }, numeric(1))
    m <- means[scaled]
    dd <- sizes$d[scaled]
    slope <- if (length(m) >= 2 && all(is.finite(m) & m > 0)) {
      unname(stats::coef(stats::lm(log(m) ~ log(dd)))[2])
    } else {
      NA
    }
    data.frame(stage = s, t(stats::setNames(sprintf("%.1f", means), label)),
               "slope (n = 2d)" = sprintf("%.2f", slope), check.names = FALSE,
               stringsAsFactors = FALSE)
  }))
}
