# calm()'s refinement stage: each restart's graph refined by refine_dag()
# (R/search-refine.R) with the chosen penalty.

# The refinement of every restart's graph (refine_dag(), with the moral
# graph `mo` and penalty `lambda`): each run's graph, raw weights and record
# replaced, and the refined score kept to compare the restarts by.
refine_runs <- function(runs, sigma, mo, lambda, ctrl, n, kn, verbose, phase = no_phase) {
  lapply(runs, function(r) {
    if (verbose) inform_refine(NULL, ncol(sigma), ctrl)
    ref <- refine_dag(r[["amat"]], sigma, mo[["mask"]], lambda, ctrl, n = n,
                      extend = mo[["source"]] == "iamb", kn = kn, phase = phase)
    if (has_targets(sigma)) ref <- polish_refined(ref, sigma, lambda, n, kn, ctrl)
    r$refine <- ref[["record"]]
    if (verbose) inform_refine(ref[["record"]])
    # the run's refit is of its own graph: kept only if the refinement
    # left the graph as it was
    if (any(ref[["dag"]] != r[["amat"]])) r["refit"] <- list(NULL)
    r$amat <- ref[["dag"]]
    if (!is.null(r[["B_raw"]])) r$B_raw <- r[["B_raw"]] * ref[["dag"]]
    # restarts are compared by the best score the refinement found
    r$select_score <- ref[["record"]][["score_best"]]
    r
  })
}

# verbose = TRUE: say that the refinement starts (record NULL) and what it
# did.
inform_refine <- function(record, d = NULL, ctrl = NULL) {
  if (is.null(record)) {
    exact <- !is.null(ctrl[["search"]][["exact_max_d"]]) && d <= ctrl[["search"]][["exact_max_d"]]
    cli::cli_inform("Refining the graph: GES moves, BOSS{if (exact) ', the exact search if the starts of BOSS disagree' else ''}.",
                    class = "calm_message_refine")
  } else {
    cli::cli_inform(c(v = "{refine_line(record)} ({signif(record[['seconds']] %||% NA, 3)} s)"),
                    class = "calm_message_refine")
  }
  invisible()
}

# The penalty of the refinement and the refined runs: the penalty chosen by
# refine_penalty_record() before the refinement, or, where that was only
# provisional (resolve_penalty()), chosen in the order of the refined graph after a
# first refinement at the extended BIC (R/search-penalty-in-order.R). When that
# choice differs, the runs are refined again at it from their refined
# graphs (refine_again()). Returns the runs and the penalty record.
refine_at_penalty <- function(p, runs, verbose, call, phase = no_phase) {
  t0 <- proc.time()[["elapsed"]]
  phase("penalty")
  pen <- refine_penalty_record(p$ctrl, p$n, ncol(p$sigma), p$x_used,
                               selection_mask(p$mask, p$mo, p$kn, p$ctrl), call = call)
  t1 <- proc.time()[["elapsed"]]
  runs <- refine_runs(runs, p$sigma, p$mo, pen[["lambda"]], p$ctrl, p$n, p$kn, verbose, phase)
  t2 <- proc.time()[["elapsed"]]
  seconds <- c(penalty = t1 - t0, refine = t2 - t1)
  if (!isTRUE(pen[["provisional"]])) return(list(runs = runs, penalty = pen, seconds = seconds))
  phase("penalty: the choice in the first fit's order")
  best <- runs[[which.min(vapply(runs, `[[`, numeric(1), "select_score"))]]
  order <- cpp_topological_order(best[["amat"]])
  sc <- p$ctrl$search
  folds <- min(sc$penalty_folds, floor(p$n / 2))
  # the parents of the selection's graphs come from the pairs the
  # refinement may join beyond the moral graph
  pairs <- wide_pairs(p$mask, extend = TRUE, p$ctrl$search$all_pairs_max_d,
                      moral_threads(p$ctrl, ncol(p$mask)))
  chosen <- select_discount_in_order(p$x_used, sc$penalty_grid, folds, order,
                                     pen[["discount"]], pairs = pairs,
                                     splits = sc$selection_splits, tie_se = sc$selection_tie_se,
                                     keep_se = sc$order_selection_keep_se, call = call)
  t3 <- proc.time()[["elapsed"]]
  seconds[["penalty"]] <- seconds[["penalty"]] + t3 - t2
  if (chosen[["discount"]] == pen[["discount"]]) {
    # the first fit's penalty stays, exactly as it was
    chosen[["lambda"]] <- pen[["lambda"]]
    return(list(runs = runs, penalty = chosen, seconds = seconds))
  }
  runs <- refine_again(runs, p, chosen[["lambda"]], verbose, phase)
  seconds[["refine_again"]] <- proc.time()[["elapsed"]] - t3
  list(runs = runs, penalty = chosen, seconds = seconds)
}

# The refinement once more, at the penalty `lambda`, from each run's refined
# graph: GES moves, then BOSS from that graph's order (no random starts, no
# kicks, no GES from the empty graph: the start is already a good graph at a
# nearby penalty), with its search beyond the moral graph. The record keeps
# the first refinement's start, moves and time.
refine_again <- function(runs, p, lambda, verbose, phase = no_phase) {
  ctrl <- p$ctrl
  ctrl$search$empty_start <- FALSE
  ctrl$search$order_starts <- 1L
  ctrl$search$kicks <- 0L
  first <- lapply(runs, `[[`, "refine")
  runs <- refine_runs(runs, p$sigma, p$mo, lambda, ctrl, p$n, p$kn, verbose, phase)
  Map(function(r, f) {
    second <- r$refine
    r$refine$dag_before <- f$dag_before
    r$refine$score_before <- cpp_dag_local_scores(p$sigma, f$dag_before * 1, lambda,
                                                  max_parents_for(p$n))$total
    r$refine$moves <- rbind(f$moves, second$moves)
    r$refine$first <- list(lambda = f$lambda, score_after = f$score_after, seconds = f$seconds)
    r$refine$seconds <- f$seconds + second$seconds
    r$refine$stage_seconds <- add_by_name(f$stage_seconds, second$stage_seconds)
    r
  }, runs, first)
}

# The sum of two named numeric vectors, name by name (a name missing from
# one counts as 0 there).
add_by_name <- function(a, b) {
  nm <- union(names(a), names(b))
  stats::setNames(vapply(nm, function(k) sum(a[k], b[k], na.rm = TRUE), numeric(1)), nm)
}
