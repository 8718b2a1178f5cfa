# Tables of the stage ablation from its stored rows (inst/extdata/stages.rds,
# written by bench_stages.R), for the vignette and the README.
# stage_table(res, baseline): per cell, for each variant, the mean SHD and the
# paired mean difference to `baseline` on the same data sets (+/- standard
# error), and the mean CPU seconds per fit with their ratio to the baseline's.

paired_diff <- function(a, b) {
  x <- merge(a, b, by = "seed")
  v <- x$shd.x - x$shd.y
  if (length(v) < 2L) return(c(mean = NA_real_, se = NA_real_))
  c(mean = mean(v), se = stats::sd(v) / sqrt(length(v)))
}

stage_cells <- function(res) unique(res$cell)

stage_cell_table <- function(res, cell, baseline = "default") {
  rc <- res[res$cell == cell, ]
  base <- rc[rc$variant == baseline, c("seed", "shd")]
  base_cpu <- mean(rc$cpu[rc$variant == baseline])
  do.call(rbind, lapply(unique(rc$variant), function(v) {
    rv <- rc[rc$variant == v, ]
    pd <- paired_diff(rv[c("seed", "shd")], base)
    data.frame(cell = cell, variant = v, graphs = nrow(rv), d = paste(unique(range(rv$d)), collapse = "-"),
               shd = mean(rv$shd), diff = pd[["mean"]], se = pd[["se"]],
               cpu = mean(rv$cpu), cpu_ratio = mean(rv$cpu) / base_cpu,
               stringsAsFactors = FALSE)
  }))
}

stage_table <- function(res, baseline = "default") {
  out <- do.call(rbind, lapply(stage_cells(res), stage_cell_table, res = res, baseline = baseline))
  rownames(out) <- NULL
  out
}

# One line per variant over all cells: the summed mean SHD, the summed paired
# difference (+/- the root of the summed squared standard errors), and the
# summed mean CPU time.
stage_totals <- function(tab) {
  do.call(rbind, lapply(unique(tab$variant), function(v) {
    t <- tab[tab$variant == v, ]
    data.frame(variant = v, cells = nrow(t), shd_sum = sum(t$shd),
               diff_sum = sum(t$diff), diff_se = sqrt(sum(t$se^2, na.rm = TRUE)),
               cpu_sum = sum(t$cpu), stringsAsFactors = FALSE)
  }))
}

# The table printed: the difference as "mean +/- se", times rounded.
format_stage_table <- function(tab) {
  data.frame(cell = tab$cell, variant = tab$variant, d = tab$d, graphs = tab$graphs,
             shd = sprintf("%.1f", tab$shd),
             vs_default = ifelse(is.na(tab$diff), "-", sprintf("%+.2f +/- %.2f", tab$diff, tab$se)),
             cpu_s = sprintf("%.2f", tab$cpu), cpu_ratio = sprintf("%.2f", tab$cpu_ratio),
             stringsAsFactors = FALSE)
}

# How many data sets a variant changed: the number whose SHD differs from the
# baseline's on the same data set, out of all the variant was run on.
stage_changed <- function(res, variant, baseline = "default") {
  a <- res[res$variant == variant, c("cell", "seed", "shd")]
  b <- res[res$variant == baseline, c("cell", "seed", "shd")]
  x <- merge(a, b, by = c("cell", "seed"))
  c(changed = sum(x$shd.x != x$shd.y), of = nrow(x))
}

# The share of the baseline's CPU time that a variant saves: the median over
# the cells of `tab` ("15%"; the times were taken with other jobs running,
# so single cells are noisy).
stage_saving <- function(tab, variant) {
  sprintf("%.0f%%", 100 * stats::median(1 - tab$cpu_ratio[tab$variant == variant]))
}

# The cells with more rows than variables.
large_n <- function(tab) tab[!tab$cell %in% c("er1:60:40", "er2:50:50"), ]
