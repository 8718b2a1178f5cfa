# Possible causal effects over the graphs of a bootstrap: each replicate's
# CPDAG with coefficients refitted on the rows it resampled, summarised by
# the bounds of the multiset with percentile intervals.

bootstrap_effects <- function(bs, x, y, data, method, level, call, targets = NULL,
                              target_index = NULL) {
  nm <- bs$nodes
  if (is.null(bs$graphs) || is.null(bs$rows)) {
    abort_arg("fit", "is a bootstrap result without its graphs; rerun {.fn bootstrap_edges} with this version of calm.",
              call = call)
  }
  data <- sem_data(data, nm, "data", call)
  if (!all(vapply(bs$rows, function(r) max(r) <= nrow(data), logical(1)))) {
    abort_arg("data", "has fewer rows than the data the bootstrap resampled.", call = call)
  }
  xs <- node_arg(x, nm, "x", call)
  ys <- if (is.null(y)) setdiff(seq_along(nm), xs) else node_arg(y, nm, "y", call)
  check_disjoint(xs, ys, nm, call)
  tg <- effects_targets(bs, targets, target_index, data, NULL, nm, call)
  d <- length(nm)
  one <- function(r) {
    g <- matrix(0, d, d, dimnames = list(nm, nm))
    g[bs$graphs[[r]]] <- 1
    tryCatch({
      g <- meek_closure(g)
      rows <- bs$rows[[r]]
      st <- list(sigma = stats::cov(data[rows, , drop = FALSE]), n = nrow(data), sd = NULL)
      if (!is.null(tg)) {
        st$conds <- condition_statistics(data[rows, , drop = FALSE],
                                         list(targets = tg$targets, index = tg$index[rows]))
      }
      effect_bounds(possible_effects(g, st, xs, ys, method), r)
    }, error = function(e) conditionMessage(e))
  }
  run <- run_tasks(length(bs$graphs), one)
  vals <- run$values
  bad <- vapply(vals, function(v) !is.data.frame(v), logical(1))
  if (all(bad)) {
    cli::cli_abort(c("No bootstrap replicate gave effects.", x = "First error: {vals[[1]]}"),
                   class = c("calm_error_fit", "calm_error"), call = call)
  }
  if (any(bad)) {
    cli::cli_warn("{sum(bad)} replicate{?s} gave no effects and {?was/were} left out.",
                  class = c("calm_warning_failed", "calm_warning"))
  }
  summarise_bounds(do.call(rbind, vals[!bad]), level)
}

# Per (x, y) of one replicate: the smallest and largest possible effect,
# and whether all are zero.
effect_bounds <- function(eff, r) {
  key <- paste(eff$x, eff$y, sep = "\r")
  bound <- function(f) function(e) if (all(is.na(e))) NA_real_ else f(e, na.rm = TRUE)
  lo <- tapply(eff$effect, key, bound(min))
  hi <- tapply(eff$effect, key, bound(max))
  zero <- tapply(eff$effect, key, function(e) all(!is.na(e) & e == 0))
  parts <- strsplit(names(lo), "\r", fixed = TRUE)
  data.frame(x = vapply(parts, `[`, "", 1), y = vapply(parts, `[`, "", 2),
             min = as.vector(lo), max = as.vector(hi), zero = as.vector(zero), replicate = r)
}

summarise_bounds <- function(b, level) {
  probs <- c((1 - level) / 2, (1 + level) / 2)
  q <- function(v) stats::quantile(v, probs, names = FALSE, na.rm = TRUE)
  groups <- split(b, list(b$x, b$y), drop = TRUE)
  out <- do.call(rbind, lapply(groups, function(s) {
    data.frame(x = s$x[1], y = s$y[1], min = stats::median(s$min), max = stats::median(s$max),
               min_lower = q(s$min)[1], min_upper = q(s$min)[2],
               max_lower = q(s$max)[1], max_upper = q(s$max)[2],
               zero_share = mean(s$zero), replicates = nrow(s))
  }))
  out <- out[order(out$x, out$y), , drop = FALSE]
  rownames(out) <- NULL
  attr(out, "level") <- level
  out
}
