# calm()'s refinement stage: each restart's graph refined by refine_dag()
# (R/refine.R) with the chosen penalty.

# The refinement of every restart's graph (refine_dag(), with the moral
# graph `mo` and penalty `lambda`): each run's graph, raw weights and record
# replaced, and the refined score kept to compare the restarts by.
refine_runs <- function(runs, sigma, mo, lambda, ctrl, n, kn, verbose) {
  lapply(runs, function(r) {
    if (verbose) inform_refine(NULL, ncol(sigma), ctrl)
    ref <- refine_dag(r[["amat"]], sigma, mo[["mask"]], lambda, ctrl, n = n,
                      extend = mo[["source"]] == "iamb", kn = kn)
    r$refine <- ref[["record"]]
    if (verbose) inform_refine(ref[["record"]])
    # the run's refit is of its own graph: kept only if the refinement
    # left the graph as it was
    if (any(ref[["dag"]] != r[["amat"]])) r["refit"] <- list(NULL)
    r$amat <- ref[["dag"]]
    r$B_raw <- r[["B_raw"]] * ref[["dag"]]
    # restarts are compared by the best score the refinement found
    r$select_score <- ref[["record"]][["score_best"]]
    r
  })
}

# verbose = TRUE: say that the refinement starts (record NULL) and what it
# did.
inform_refine <- function(record, d = NULL, ctrl = NULL) {
  if (is.null(record)) {
    exact <- !is.null(ctrl[["refine"]][["exact_max_d"]]) && d <= ctrl[["refine"]][["exact_max_d"]]
    cli::cli_inform("Refining the graph: GES moves, BOSS{if (exact) ', the exact search if the starts of BOSS disagree' else ''}.",
                    class = "calm_message_refine")
  } else {
    cli::cli_inform(c(v = "{refine_line(record)} ({signif(record[['seconds']] %||% NA, 3)} s)"),
                    class = "calm_message_refine")
  }
  invisible()
}
