# calm()'s continuous phase: the seeded restarts, each one run of the C++
# optimizer (src/calm_optimizer.cpp) thresholded, repaired and scored, and
# the table of and warnings about the runs. run_restarts() (R/calm.R) runs
# them whole or split by components (R/calm-components.R): both call this
# file, which calls neither, so the call graph has no loop.

# Evaluates `expr` under progressr::with_progress() with the user's
# handlers, or a text bar when none are set.
with_user_progress <- function(expr) {
  handlers <- if (length(progressr::handlers())) progressr::handlers() else progressr::handler_txtprogressbar()
  progressr::with_progress(expr, handlers = handlers, enable = TRUE)
}

# One seeded fit: the C++ optimizer, then the edge set, acyclic repair and
# the final objective (score of the least-squares refit + lambda1 * edges).
calm_run_one <- function(seed, sigma, mask, ctrl, gate, score, constraint, verbose) {
  nm <- colnames(sigma)
  progress <- NULL
  if (verbose) {
    # One bar per round (rounds can end early, so no estimate of the time
    # left for the whole schedule is honest): round, rho, h after the last
    # round, and the steps of this round.
    total <- if (constraint == "hard") ctrl[["iter_per_round"]] else ctrl[["soft_iter"]]
    cur_round <- 1L
    cur_h <- NA_real_
    cur_rho <- ctrl[["rho_init"]]
    # auto_terminate = FALSE: the bar is reused by every round (a full round
    # reaches its total) and closed by cli_progress_done() after the fit
    pb <- cli::cli_progress_bar(
      total = total, clear = TRUE, auto_terminate = FALSE,
      format = paste0("round {cur_round}, rho {signif(cur_rho, 2)}, ",
                      "h {if (is.finite(cur_h)) signif(cur_h, 2) else '-'} ",
                      "{cli::pb_bar} {cli::pb_percent} of the round")
    )
    progress <- function(round, iter, iter_total, rho, h) {
      cur_round <<- round
      cur_h <<- h
      cur_rho <<- rho
      cli::cli_progress_update(id = pb, set = iter)
    }
  }
  t0 <- proc.time()[["elapsed"]]
  r <- cpp_calm_fit(sigma, mask, optimizer_control(ctrl), gate, score, constraint, seed, progress)
  if (verbose) cli::cli_progress_done(id = pb)
  seconds <- proc.time()[["elapsed"]] - t0

  named <- function(m) if (is.null(m)) NULL else set_node_names(m, nm)
  edges <- named(r[["edges"]])
  B_raw <- named(r[["B_raw"]])
  removed <- data.frame(from = character(), to = character(), weight = numeric())
  if (!cpp_is_dag(edges)) {
    w <- B_raw * edges
    # an edge with a learned weight of exactly zero is still an edge
    w[edges != 0 & w == 0] <- .Machine$double.xmin
    # required edges (background knowledge, mask value 2) are never removed
    w[edges != 0 & mask > 1.5] <- .Machine$double.xmax
    fix <- make_acyclic(w)
    removed <- fix[["removed"]]
    edges[] <- as.double(fix[["B"]] != 0)
  }
  refit <- refit_weights(edges, sigma)
  tr <- r[["trace"]]
  list(
    seed = seed, amat = edges, B_raw = B_raw * edges, gate_values = named(r[["gate_values"]]),
    trace = data.frame(component = rep(1L, length(tr[["round"]])),
                       round = tr[["round"]], rho = tr[["rho"]], h = tr[["h"]],
                       objective = tr[["objective"]], edges = tr[["edges"]],
                       dag = tr[["dag"]], changed = tr[["changed"]],
                       steps = tr[["steps"]], skipped = tr[["skipped"]],
                       seconds = tr[["seconds"]]),
    converged = r[["converged"]], stop = run_stop(r, constraint), h = r[["h"]], removed = removed,
    skipped = r[["skipped"]],
    final_objective = run_objective(refit, edges, mask, ctrl, score), isa = r[["isa"]],
    seconds = seconds, refit = refit
  )
}

# The run that stands for a skipped continuous phase (continuous_skip()):
# the empty graph, or the required edges under knowledge (mask value 2),
# with its least-squares refit; the refinement starts from it.
skipped_run <- function(seed, sigma, mask, ctrl, score) {
  d <- ncol(sigma)
  edges <- matrix(0, d, d, dimnames = dimnames(sigma))
  required <- required_pairs(mask)
  if (nrow(required)) edges[required] <- 1
  # no edge: the refit's weights are `edges` itself, not another d x d matrix
  refit <- if (nrow(required)) {
    refit_weights(edges, sigma)
  } else {
    list(B = edges, omega = stats::setNames(diag(sigma), colnames(sigma)))
  }
  list(
    seed = seed, amat = edges, B_raw = NULL, gate_values = NULL,
    trace = data.frame(component = integer(), round = integer(), rho = numeric(), h = numeric(),
                       objective = numeric(), edges = integer(), dag = logical(),
                       changed = logical(), steps = numeric(), skipped = numeric(),
                       seconds = numeric()),
    converged = TRUE, stop = "skipped", h = 0,
    removed = data.frame(from = character(), to = character(), weight = numeric()),
    skipped = 0, final_objective = run_objective(refit, edges, mask, ctrl, score),
    isa = NA_character_, seconds = 0, refit = refit
  )
}

# The pairs (i, j) where `mask` is above 1.5 (required edges), as a
# two-column matrix: from the mask's nonzero pairs, without the d x d
# logical matrix of which(mask > 1.5).
required_pairs <- function(mask) {
  at <- nonzero_pairs(mask)
  at[mask[at] > 1.5, , drop = FALSE]
}

# The final objective of a run: the score of the least-squares refit on its
# graph plus lambda1 per edge; required edges (mask value 2) are outside the
# sparsity penalty.
run_objective <- function(refit, amat, mask, ctrl, score) {
  omega <- refit[["omega"]]
  fit_score <- if (score == "likelihood") 0.5 * sum(log(omega)) else sum(sqrt(omega))
  fit_score + ctrl[["lambda1"]] * sum(masked_entries(amat, mask))
}

# The entries of `amat` that are nonzero where `mask` is below 1.5 (not a
# required edge): from amat's nonzero pairs (amat[mask < 1.5] made two
# d x d temporaries, 0.8 s at 5000 variables, on one thread).
masked_entries <- function(amat, mask) {
  at <- nonzero_pairs(amat)
  at <- at[order(at[, 2], at[, 1]), , drop = FALSE]  # column-major, as amat[mask < 1.5]
  amat[at][mask[at] < 1.5]
}

# Why the optimizer stopped: "h_tol" (the constraint was met), "settled"
# (the graph settled before, see calm_control()), "max_rounds" (the cap),
# or "steps" (the single run of the soft constraint).
run_stop <- function(r, constraint) {
  if (constraint == "soft") return("steps")
  if (isTRUE(r[["settled"]])) return("settled")
  if (isTRUE(r[["converged"]])) "h_tol" else "max_rounds"
}

# One row per restart: its seed, final objective, rounds, h, convergence,
# why it stopped and its time (fit$restarts).
restart_table <- function(runs, seeds) {
  data.frame(
    restart = seq_along(runs), seed = seeds,
    objective = vapply(runs, `[[`, numeric(1), "final_objective"),
    rounds = vapply(runs, function(r) trace_rounds(r[["trace"]]), integer(1)),
    h = vapply(runs, `[[`, numeric(1), "h"),
    converged = vapply(runs, `[[`, logical(1), "converged"),
    stop = vapply(runs, `[[`, character(1), "stop"),
    seconds = vapply(runs, `[[`, numeric(1), "seconds")
  )
}

# Warnings about the returned run: never silent about a cap, a repair or
# skipped steps.
# With gate = "tanh" the graph is |B| > weight_threshold: a threshold above
# every weight empties it, and an empty graph ends the schedule as if the
# constraint were met. Say so rather than return the refinement's graph as
# if the optimizer had found nothing.
warn_threshold_empty <- function(runs, ctrl, gate) {
  if (gate != "tanh") return(FALSE)
  empty <- all(vapply(runs, function(r) all(r[["amat"]] == 0), logical(1)))
  h <- min(vapply(runs, `[[`, numeric(1), "h"))
  if (empty && h > ctrl[["h_tol"]]) {
    cli::cli_warn(c(
      "{.arg weight_threshold} = {format(ctrl[['weight_threshold']])} is above every weight of the optimizer (gate {.val tanh}): its graph is empty although the weights are still cyclic (h = {signif(h, 3)} > {.arg h_tol} = {ctrl[['h_tol']]}).",
      i = "Use a threshold on the scale of the weights (default 0.1); the fit is marked {.code converged = FALSE}."
    ), class = c("calm_warning_threshold", "calm_warning"))
  }
  empty && h > ctrl[["h_tol"]]
}

warn_run <- function(run, ctrl, constraint) {
  if (constraint == "hard" && !run[["converged"]]) {
    cli::cli_warn(c(
      "CALM hit {.arg max_rounds} = {ctrl[['max_rounds']]} before the acyclicity constraint was met (h = {signif(run[['h']], 3)} > {.arg h_tol} = {ctrl[['h_tol']]}).",
      i = "Increase {.arg max_rounds} or {.arg iter_per_round} in {.fn calm_control}; the fit is marked {.code converged = FALSE}."
    ), class = "calm_warning_not_converged")
  }
  if (nrow(run[["removed"]]) > 0L) {
    cli::cli_warn(c(
      "The thresholded graph had a directed cycle; {nrow(run[['removed']])} edge{?s} with the smallest weights {?was/were} removed to make it acyclic.",
      i = "See {.code fit$removed}."
    ), class = "calm_warning_repaired")
  }
  if (run[["skipped"]] > 0) {
    cli::cli_warn("{run[['skipped']]} optimizer step{?s} {?was/were} skipped because the objective was not finite.",
                  class = "calm_warning_skipped")
  }
  invisible(NULL)
}
