# Edge stability by the nonparametric bootstrap: refit a learner on
# resampled rows, count how often each pair is an edge and in which
# direction, average the graphs, plot, and hand the result to bnlearn.

#' Edge stability by bootstrap
#'
#' Resamples the rows of the data with replacement `R` times, refits a
#' learner on every resample, and reports for every pair of variables how
#' often it is an edge and how often it points each way, both in the learned
#' DAGs and in their CPDAGs (where an undirected edge counts half for each
#' direction, as bnlearn's `boot.strength()` does). Each replicate is one
#' future (so `future::plan()` decides where it runs) with progress
#' signalled through progressr; each replicate gets its own random-number
#' stream, so `set.seed()` reproduces the result whatever the plan. A
#' replicate whose learner fails, or whose worker dies, is left out with a
#' warning naming it; the others are kept (a dead worker is replaced).
#'
#' @param x Data: a numeric matrix or data frame, one column per variable
#'   (fewer rows than columns work with [calm()] and [boss()]).
#' @param R Number of bootstrap replicates (default 100).
#' @param learner A function that takes the data as its first argument and
#'   returns a graph [as_amat()] accepts: [calm()] (default), [boss()],
#'   [exact_search()], [golem_nv()], [notears_linear()], [pc_pcalg()] or
#'   [ges_pcalg()], a learner of bnlearn such as `bnlearn::hc` or
#'   `bnlearn::tabu` (which get the data as a data frame, as they require),
#'   or a function of your own (given a matrix; given a data frame instead
#'   when it fails with an error that asks for one).
#' @param ... Further arguments to `learner` (e.g. `knowledge`). With
#'   interventional data (`targets` and `target_index`, see
#'   [intervention_targets()]) the rows are resampled within each condition
#'   and `target_index` follows them.
#' @param threshold Strength at or above which a pair enters the averaged
#'   graph (see [average_graph()]); stored with the result.
#' @return An object of class `calm_bootstrap`: a list with `dag` and
#'   `cpdag`, data frames with one row per ordered pair (`from`, `to`):
#'   `strength` (share of replicates with an edge between the two),
#'   `direction` (share of those in which it points `from -> to`; in the
#'   CPDAG an undirected edge counts one half), `directed` (share of
#'   replicates with `from -> to`) and, for the CPDAG, `undirected` (share
#'   with an undirected edge); further `R`, `nodes`, `threshold`, `seconds`
#'   and `failed` (the number of replicates whose fit failed or whose worker
#'   died, left out), `errors` (a data frame of those: `replicate`, `error`),
#'   and for each kept replicate `graphs` (the positions of the nonzero
#'   cells of its CPDAG matrix) and `rows` (the rows it resampled), which
#'   [causal_effects()] uses.
#' @seealso [average_graph()], [as_bn_strength()],
#'   [plot.calm_bootstrap()]
#' @examples
#' set.seed(1)
#' sem <- simulate_sem(5, k = 1, n = 300)
#' bs <- bootstrap_edges(sem$x, R = 5)
#' bs
#' average_graph(bs)
#' @export
bootstrap_edges <- function(x, R = 100, learner = calm, ..., threshold = 0.5) {
  call <- environment()
  x <- check_data(x, "x", call = call)
  R <- check_count(R, "R", min = 1, max = 1e6, call = call)
  if (!is.function(learner)) {
    abort_arg("learner", "must be a function that learns a graph from data, such as {.fn calm}, not {.obj_type_friendly {learner}}.",
              call = call)
  }
  threshold <- check_number(threshold, "threshold", lower = 0, upper = 1, call = call)
  nm <- colnames(x)
  d <- length(nm)
  n <- nrow(x)
  args <- list(...)
  check_dots_for(args, learner, learner_name(learner), call)
  if (identical(learner, calm) && is.null(args$verbose)) args$verbose <- FALSE
  as_frame <- wants_data_frame(learner)
  t0 <- proc.time()[["elapsed"]]
  p <- progressr::progressor(steps = R)
  strata <- bootstrap_strata(args$target_index, n, call)
  targets <- bootstrap_targets(args, nm, n)
  one_replicate <- function(r) {
    rows <- if (is.null(strata)) sample.int(n, n, replace = TRUE) else resample_within(strata)
    out <- tryCatch({
      a <- args
      if (!is.null(strata)) a$target_index <- a$target_index[rows]
      fit <- fit_learner(learner, x[rows, , drop = FALSE], a, as_frame)
      c(bootstrap_graphs(fit, nm), list(rows = rows))
    }, error = function(e) conditionMessage(e))
    p(sprintf("replicate %d", r))
    out
  }
  # one future per replicate: a worker that dies loses only its replicate
  run <- run_tasks(R, one_replicate, seeds = rng_streams(R))
  reps <- run$values
  died <- !is.na(run$failed)
  reps[died] <- run$failed[died]
  failed <- vapply(reps, is.character, logical(1))
  if (all(failed)) {
    cli::cli_abort(c("Every bootstrap replicate failed.", x = "First error: {reps[[1]]}"),
                   class = c("calm_error_fit", "calm_error"), call = call)
  }
  if (any(failed)) {
    cli::cli_warn(c("{sum(failed)} of {R} bootstrap replicate{?s} failed and {?was/were} left out (replicate{?s} {which(failed)}); the strengths are over the other {R - sum(failed)}.",
                    i = "First error: {reps[failed][[1]]}"),
                  class = c("calm_warning_failed", "calm_warning"))
  }
  ok <- reps[!failed]
  k <- length(ok)
  mean_of <- function(what) Reduce(`+`, lapply(ok, function(r) r[[what]])) / k
  structure(list(dag = strength_frame(mean_of("dag"), 0 * mean_of("dag")),
                 cpdag = strength_frame(mean_of("cpdag_directed"), mean_of("cpdag_undirected"),
                                        cpdag = TRUE),
                 R = k, nodes = nm, threshold = threshold, failed = sum(failed),
                 # what causal_effects() needs to redo each replicate's
                 # regressions: its CPDAG (the nonzero cells) and its rows
                 graphs = lapply(ok, function(r) which(r$cpdag_directed + r$cpdag_undirected != 0)),
                 rows = lapply(ok, function(r) r$rows),
                 # and the conditions of the rows, for interventional data
                 targets = targets,
                 errors = data.frame(replicate = which(failed),
                                     error = unlist(reps[failed], use.names = FALSE)),
                 seconds = proc.time()[["elapsed"]] - t0),
            class = "calm_bootstrap")
}

# Does the learner take its data as a data frame? bnlearn's learners do
# (they refuse a matrix); the package's and pcalg's take a matrix.
wants_data_frame <- function(learner) {
  identical(environmentName(environment(learner)), "bnlearn")
}

# One fit of the learner on resampled data: as a data frame when the
# learner wants one, else as a matrix, retried as a data frame when the
# learner's error asks for one (a user's function around bnlearn).
fit_learner <- function(learner, xr, args, as_frame) {
  if (as_frame) return(do.call(learner, c(list(as.data.frame(xr)), args)))
  tryCatch(do.call(learner, c(list(xr), args)), error = function(e) {
    if (!grepl("data[ .]frame", conditionMessage(e))) stop(e)
    do.call(learner, c(list(as.data.frame(xr)), args))
  })
}

# The DAG (when the learner gives one) and CPDAG of one fit, as 0/1
# matrices over `nm`. A learner that returns a CPDAG only (pc_pcalg,
# ges_pcalg) counts its directed edges in the DAG table and its undirected
# ones half each way.
bootstrap_graphs <- function(fit, nm) {
  # graph = NULL: a fit's DAG (its CPDAG when it has none)
  m <- as_amat(fit, weighted = FALSE, graph = NULL)
  m <- (m != 0) * 1
  if (!is.null(colnames(m))) m <- m[nm, nm, drop = FALSE]
  cp <- if (inherits(fit, "calm_fit")) {
    fit_cpdag(fit)
  } else if (cpp_is_dag(m)) {
    cpp_dag_to_cpdag(m)
  } else {
    m
  }
  cp <- (cp != 0) * 1
  dimnames(cp) <- dimnames(m) <- list(nm, nm)
  und <- m * t(m)
  dag <- m - und + und / 2
  cp_und <- cp * t(cp)
  list(dag = dag, cpdag_directed = cp - cp_und, cpdag_undirected = cp_und)
}

# Ordered pairs with their shares, from the share `p[i, j]` of replicates
# with i -> j and the (symmetric) share `und` with an undirected edge.
strength_frame <- function(p, und, cpdag = FALSE) {
  nm <- colnames(p)
  d <- length(nm)
  idx <- which(diag(d) == 0, arr.ind = TRUE)
  idx <- idx[order(idx[, 1], idx[, 2]), , drop = FALSE]
  i <- idx[, 1]
  j <- idx[, 2]
  if (cpdag) {
    strength <- p[idx] + t(p)[idx] + und[idx]
    share <- p[idx] + und[idx] / 2
    out <- data.frame(from = nm[i], to = nm[j], strength = strength,
                      direction = ifelse(strength > 0, share / pmax(strength, 1e-300), 0),
                      directed = p[idx], undirected = und[idx], stringsAsFactors = FALSE)
  } else {
    strength <- p[idx] + t(p)[idx]
    out <- data.frame(from = nm[i], to = nm[j], strength = strength,
                      direction = ifelse(strength > 0, p[idx] / pmax(strength, 1e-300), 0),
                      directed = p[idx], stringsAsFactors = FALSE)
  }
  out$strength <- pmin(out$strength, 1)
  out
}

#' @export
print.calm_bootstrap <- function(x, ...) {
  s <- x$cpdag
  top <- s[s$strength > 0 & s$from < s$to, , drop = FALSE]
  top <- top[order(-top$strength), , drop = FALSE]
  cat(sprintf("<calm_bootstrap> %d replicates, %d nodes; %d pairs seen as an edge, %d at strength >= %g\n",
              x$R, length(x$nodes), nrow(top), sum(top$strength >= x$threshold), x$threshold))
  if (x$failed > 0) cat(sprintf("  %d replicate(s) failed and were left out\n", x$failed))
  if (nrow(top)) {
    shown <- oriented_pairs(x$cpdag, 10)
    cat("strongest pairs (CPDAG; each named as most replicates have it):\n")
    print(data.frame(pair = shown$pair, strength = round(shown$strength, 3),
                     `as named` = round(shown$first, 3), reversed = round(shown$second, 3),
                     undirected = round(shown$undirected, 3), check.names = FALSE),
          row.names = FALSE)
  }
  invisible(x)
}

#' The averaged graph of a bootstrap
#'
#' Keeps the pairs whose bootstrap strength is at least `threshold` and
#' orients each as most replicates did: from the CPDAG counts, undirected
#' when more replicates leave the pair undirected than point it either way;
#' otherwise (and always for `graph = "dag"`) as bnlearn's
#' `averaged.network()`, `from -> to` when its direction share is above one
#' half, undirected when the two directions tie. (bnlearn counts an
#' undirected edge half each way, so a pair undirected in 90% of the
#' replicates and `from -> to` in the rest has direction share 0.55 and
#' would be drawn as an arrow.) Cycles that the orientation creates are broken by
#' making their weakest edges undirected, so the result is a partially
#' directed acyclic graph.
#'
#' @param x A `calm_bootstrap` from [bootstrap_edges()].
#' @param threshold Strength at or above which a pair is an edge (default the
#'   one stored in `x`).
#' @param graph Which counts to average: `"cpdag"` (default) or `"dag"`.
#' @return A 0/1 adjacency matrix (`[i, j] = 1` for `i -> j`; both entries
#'   for an undirected edge), with the strengths in attribute `strength`.
#' @examples
#' set.seed(1)
#' sem <- simulate_sem(5, k = 1, n = 300)
#' bs <- bootstrap_edges(sem$x, R = 5, learner = boss, starts = 2)
#' avg <- average_graph(bs)
#' avg
#' round(attr(avg, "strength"), 2)
#' average_graph(bs, threshold = 0.9, graph = "dag")
#' @export
average_graph <- function(x, threshold = NULL, graph = c("cpdag", "dag")) {
  call <- environment()
  if (!inherits(x, "calm_bootstrap")) {
    abort_arg("x", "must be the result of {.fn bootstrap_edges}, not {.obj_type_friendly {x}}.",
              call = call)
  }
  graph <- match_choice(graph, c("cpdag", "dag"), "graph", call)
  threshold <- if (is.null(threshold)) x$threshold else
    check_number(threshold, "threshold", lower = 0, upper = 1, call = call)
  s <- x[[graph]]
  nm <- x$nodes
  d <- length(nm)
  out <- matrix(0, d, d, dimnames = list(nm, nm))
  st <- out
  st[cbind(s$from, s$to)] <- s$strength
  pointed <- s$direction >= 0.5
  if (graph == "cpdag") {
    back <- s$strength - s$directed - s$undirected
    pointed <- pointed | s$undirected >= pmax(s$directed, back)
  }
  keep <- s[s$strength >= threshold & s$strength > 0 & pointed, , drop = FALSE]
  out[cbind(keep$from, keep$to)] <- 1
  # a directed cycle: make the weakest of its directed edges undirected
  repeat {
    directed <- out * (1 - t(out))
    if (cpp_is_dag(directed)) break
    w <- directed * st
    w[directed != 0 & w == 0] <- .Machine$double.xmin
    fix <- make_acyclic(w)
    e <- fix$removed[1, ]
    out[e$to, e$from] <- 1
  }
  attr(out, "strength") <- st
  out
}

#' Bootstrap strengths as bnlearn's `bn.strength`
#'
#' Converts a [bootstrap_edges()] result into the data frame of class
#' `bn.strength` that bnlearn's `averaged.network()`, `strength.plot()` and
#' `inclusion.threshold()` accept (columns `from`, `to`, `strength`,
#' `direction`; attributes `method = "bootstrap"`, `threshold`, `nodes`).
#'
#' @param x A `calm_bootstrap`.
#' @param graph `"cpdag"` (default, as bnlearn's `boot.strength(cpdag = TRUE)`)
#'   or `"dag"`.
#' @return A `bn.strength` data frame.
#' @examplesIf requireNamespace("bnlearn", quietly = TRUE)
#' set.seed(1)
#' sem <- simulate_sem(5, k = 1, n = 300)
#' bs <- bootstrap_edges(sem$x, R = 5)
#' bnlearn::averaged.network(as_bn_strength(bs))
#' @export
as_bn_strength <- function(x, graph = c("cpdag", "dag")) {
  call <- environment()
  if (!inherits(x, "calm_bootstrap")) {
    abort_arg("x", "must be the result of {.fn bootstrap_edges}, not {.obj_type_friendly {x}}.",
              call = call)
  }
  graph <- match_choice(graph, c("cpdag", "dag"), "graph", call)
  s <- x[[graph]][, c("from", "to", "strength", "direction")]
  rownames(s) <- NULL
  structure(s, class = c("bn.strength", "data.frame"), method = "bootstrap",
            threshold = x$threshold, nodes = x$nodes)
}

# The `top` strongest pairs of the CPDAG counts, each named as print() and
# plot() name it: "from -> to" in its more frequent direction, "a -- b"
# (in the order of the names) when undirected is the most frequent; with
# the shares of replicates pointing it as named (`first`), the other way
# (`second`) and undirected.
oriented_pairs <- function(s, top) {
  s <- s[s$from < s$to & s$strength > 0, , drop = FALSE]
  s <- utils::head(s[order(-s$strength), , drop = FALSE], top)
  back <- s$strength - s$directed - s$undirected
  flip <- back > s$directed
  first <- ifelse(flip, back, s$directed)
  second <- ifelse(flip, s$directed, back)
  pair <- ifelse(s$undirected >= first, paste(s$from, "--", s$to),
                 ifelse(flip, paste(s$to, "->", s$from), paste(s$from, "->", s$to)))
  data.frame(pair = pair, strength = s$strength, first = first, second = second,
             undirected = s$undirected, stringsAsFactors = FALSE)
}

# The bars of the strength plot: for the `top` strongest pairs, the shares
# of replicates with the pair as named, the other way and undirected (rows).
strength_shares <- function(s, top) {
  p <- oriented_pairs(s, top)
  shares <- rbind(first = p$first, second = p$second, undirected = p$undirected)
  colnames(shares) <- p$pair
  shares
}

# Labels of the averaged graph's edges: the pair's strength and, for an
# edge drawn directed, the share of replicates (with the pair) that point
# it as drawn ("0.80 / 0.75"); for an undirected edge the strength alone.
edge_strength_labels <- function(s, from, to, mark) {
  k <- match(paste(from, to), paste(s$from, s$to))
  lab <- formatC(s$strength[k], format = "f", digits = 2)
  dirn <- mark == "->"
  lab[dirn] <- paste(lab[dirn], "/", formatC(s$direction[k][dirn], format = "f", digits = 2))
  lab
}

# Edges at least this sure (strength and, drawn directed, direction) go
# unlabelled in the bootstrap plot.
sure_strength <- 0.95

# Edge labels of the averaged graph, the least certain edges first, each at
# a spot clear of nodes and of the labels placed before it (place_labels());
# edges seen in nearly every replicate, pointing as drawn, get none.
# Returns how many labels were left out for room.
draw_strength_labels <- function(s, from, to, mark, geo, idx) {
  if (length(from) == 0L) return(0L)
  label <- edge_strength_labels(s, from, to, mark)
  k <- match(paste(from, to), paste(s$from, s$to))
  certainty <- pmin(s$strength[k], ifelse(mark == "->", s$direction[k], 1))
  # a label that would say "1.00 / 1.00" is left to the edge's width
  ord <- order(certainty)
  ord <- ord[certainty[ord] < sure_strength]
  if (length(ord) == 0L) return(0L)
  cex <- 0.7
  paths <- lapply(ord, function(e) edge_path(geo$xy[idx[e, 1], ], geo$xy[idx[e, 2], ], geo$curved[e], geo$r))
  w <- graphics::strwidth(label[ord], cex = cex) * 1.1
  h <- rep(graphics::strheight("0/", cex = cex) * 1.6, length(ord))
  pl <- place_labels(geo$xy, geo$r, paths, w, h)
  keep <- pl$kept
  graphics::rect(pl$x[keep] - w[keep] / 2, pl$y[keep] - h[keep] / 2, pl$x[keep] + w[keep] / 2,
                 pl$y[keep] + h[keep] / 2, col = "white", border = NA)
  graphics::text(pl$x[keep], pl$y[keep], label[ord][keep], cex = cex)
  sum(!keep)
}

#' Plot bootstrap edge strengths
#'
#' Draws the averaged graph ([average_graph()]) with each edge's width
#' giving its bootstrap strength and its label the strength and, for a
#' directed edge, the share of replicates pointing it as drawn (`"0.90 /
#' 0.67"`: an edge in 90% of the replicates, drawn this way in two thirds of
#' them). An edge whose strength and direction share are both at least
#' 0.95 has no label (its width says it). Labels go where they cover no node
#' and no other label, the least certain edges first; on a crowded graph
#' the labels with no room left are left out (the caption says how many),
#' and `type = "strength"` lists them all. With `type = "strength"`, a chart of
#' the strongest pairs instead, split into the shares of each direction and
#' of undirected edges, with the threshold marked.
#'
#' @param x A `calm_bootstrap`.
#' @param type `"graph"` (default) or `"strength"`.
#' @param threshold Strength for the averaged graph (default the stored one).
#' @param top For `type = "strength"`: how many pairs to show.
#' @param ... Passed to [graphics::barplot()] (`"strength"`) or igraph's plot.
#' @return `x`, invisibly.
#' @examples
#' set.seed(1)
#' sem <- simulate_sem(6, k = 1, n = 300)
#' bs <- bootstrap_edges(sem$x, R = 5, learner = boss, starts = 2)
#' plot(bs)
#' plot(bs, type = "strength", top = 8)
#' @export
plot.calm_bootstrap <- function(x, type = c("graph", "strength"), threshold = NULL, top = 20,
                                ...) {
  call <- environment()
  type <- match_choice(type, c("graph", "strength"), "type", call)
  top <- check_count(top, "top", min = 1, call = call)
  threshold <- if (is.null(threshold)) x$threshold else
    check_number(threshold, "threshold", lower = 0, upper = 1, call = call)
  if (type == "strength") {
    shares <- strength_shares(x$cpdag, top)
    old <- graphics::par(mar = c(4, 1 + 0.6 * max(nchar(colnames(shares)), 4), 1, 1))
    on.exit(graphics::par(old), add = TRUE)
    graphics::barplot(shares[, rev(seq_len(ncol(shares))), drop = FALSE], horiz = TRUE,
                      las = 1, xlim = c(0, 1.5), col = c("grey25", "grey60", "grey90"),
                      xlab = "share of replicates", cex.names = 0.8, axes = FALSE, ...)
    graphics::axis(1, at = seq(0, 1, 0.25))
    graphics::abline(v = threshold, lty = 2)
    graphics::legend("topright", fill = c("grey25", "grey60", "grey90"), bty = "n",
                     legend = c("as labelled (from -> to)", "reversed (to -> from)", "undirected"),
                     cex = 0.8)
    return(invisible(x))
  }
  avg <- average_graph(x, threshold = threshold)
  st <- attr(avg, "strength")
  idx <- which((avg != 0 & t(avg) == 0) | (avg != 0 & upper.tri(avg)), arr.ind = TRUE)
  w <- pmin(st[idx], 1)
  mark <- ifelse(t(avg)[idx] != 0, "--", "->")
  from <- rownames(avg)[idx[, 1]]
  to <- rownames(avg)[idx[, 2]]
  xy <- dag_layout(igraph::graph_from_adjacency_matrix(avg))
  old <- graphics::par(mar = c(0.5, 0.5, 2, 0.5))
  on.exit(graphics::par(old), add = TRUE)
  geo <- draw_edges(x$nodes, idx[, 1], idx[, 2], mark, colour = grDevices::grey(0.75 * (1 - w)),
                    lty = 1, layout = xy, edge.width = 1 + 2 * w, arrow_size = 0.8,
                    aspect = plot_aspect(),
                    main = sprintf("averaged graph, strength >= %g (%d replicates)", threshold, x$R), ...)
  left_out <- draw_strength_labels(x$cpdag, from, to, mark, geo, idx)
  graphics::mtext(paste0("label: strength (share of replicates with the pair) / share pointing as drawn; none when both >= ",
                         sure_strength,
                         if (left_out > 0) sprintf("; %d label%s left out for room (see type = \"strength\")",
                                                   left_out, if (left_out == 1) "" else "s")),
                  side = 1, line = -1, cex = 0.75)
  invisible(x)
}

# bootstrap_edges() with interventional data: the condition of each row,
# which the resampling keeps (NULL without target_index).
bootstrap_strata <- function(target_index, n, call) {
  if (is.null(target_index)) return(NULL)
  if (length(target_index) != n) {
    abort_targets("target_index", "has {length(target_index)} entr{?y/ies}, but the data have {n} rows: give one per row.",
                  call = call)
  }
  as.integer(factor(target_index))
}

# The checked targets of interventional data (NULL without), kept with
# the result so that causal_effects() can regress within conditions.
bootstrap_targets <- function(args, nm, n) {
  if (is.null(args$targets)) return(NULL)
  intervention_targets(args$targets, args$target_index, nm, n)
}

# Row indices resampled with replacement within each stratum, each stratum
# keeping its size.
resample_within <- function(strata) {
  rows <- seq_along(strata)
  unlist(lapply(split(rows, strata), function(i) i[sample.int(length(i), length(i), replace = TRUE)]),
         use.names = FALSE)
}

#' @rdname as.data.frame.calm_fit
#' @order 2
#' @export
as.data.frame.calm_bootstrap <- function(x, row.names = NULL, optional = FALSE, ...,
                                         graph = c("cpdag", "dag"), threshold = NULL) {
  check_frame_dots(list(...), "as.data.frame.calm_bootstrap", environment())
  graph <- match_choice(graph, c("cpdag", "dag"), "graph", environment())
  avg <- average_graph(x, threshold = threshold, graph = graph)
  e <- edge_rows(avg != 0)
  s <- x[[graph]]
  key <- match(paste(e$from, e$to, sep = "\r"), paste(s$from, s$to, sep = "\r"))
  e$strength <- s$strength[key]
  e$direction <- s$direction[key]
  attr(e, "nodes") <- x$nodes
  e
}
