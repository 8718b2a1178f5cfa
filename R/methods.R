# print, summary and coef methods for calm_fit (plot.calm_fit is in
# R/plot.R). They work for the fits of every learner, not only calm().

#' Print, summarise and extract weights of a fit
#'
#' `print()` describes the model: the variables, the data, the edges (the
#' counts of directed and undirected edges of the CPDAG, and its first
#' `max_edges` edges), the score the graph was chosen by, named (for an
#' l0 penalty the penalized log-likelihood: the Gaussian log-likelihood on
#' the data's scale minus the penalty per edge; else the log-likelihood),
#' the sparsity penalty the
#' graph was chosen with (from `fit$penalty` when the fit has it) and how it
#' was learned, in one line. The optimizer's account (rounds, `rho`, `h`,
#' Adam steps, objective, refinement moves) is shown by
#' `print(fit, details = TRUE)` and by `summary()`.
#'
#' `summary()` adds what `print()` does not show: the edge list of the DAG
#' with its weights and each edge's type in the CPDAG, the noise variances,
#' the optimizer's and refinement's account, its last rounds, the restarts
#' and the edges removed to make the graph acyclic.
#'
#' Scale: a learner that standardized the data (`standardize = TRUE`, the
#' default of [calm()] and [boss()]) fits the weights on the standardized
#' scale and stores them so in `fit$B`; `coef()`, `summary()` and
#' [logLik()] report them on the data's scale by default, where they agree
#' with the least-squares regressions of each variable on its parents in
#' the data (as `bnlearn::bn.fit(as_bn(fit), x)` gives). Ask for
#' `scale = "standardized"` to get them on the standardized scale:
#' `b_ij(data) = b_ij(std) * sd_j / sd_i`.
#'
#' @param x,object A fit returned by [calm()] or another learner of the
#'   package.
#' @param details For `print()`: also show the optimizer's and refinement's
#'   account.
#' @param type For `coef()`: `"refit"` (default), the least-squares weights
#'   of each node on its parents (`object$B`), or `"raw"`, the learner's own
#'   weights (`object$B_raw`; for CALM the gate times the weight, `A * P`,
#'   zero for edges the refinement added).
#' @param scale `"data"` (default): weights and noise variances on the scale
#'   of the data; `"standardized"`: on the scale of standardized variables.
#' @param max_edges Maximum number of edges listed by `print()` (followed by
#'   how many more there are) and by the summary's print method.
#' @param ... Unused; an argument given here is an error naming it.
#' @return `print()`: `x`, invisibly. `summary()`: an object of class
#'   `summary.calm_fit`, a list with the elements shown by its print method
#'   (`edges` is a data frame with columns `from`, `to`, `weight`, `type`;
#'   `omega` the noise variances; `scale` the scale of both; `trace` the
#'   optimizer trace). `coef()`: a square matrix, `[i, j]` the weight of
#'   `i -> j`.
#' @examples
#' set.seed(1)
#' sem <- simulate_sem(5, k = 1)
#' fit <- calm(cov = sem$sigma, moral = moral_graph(sem$dag),
#'             iter_per_round = 5000, max_rounds = 40, verbose = FALSE)
#' print(fit)
#' print(fit, details = TRUE)
#' summary(fit)
#' coef(fit)
#' coef(fit, scale = "standardized")
#' @name calm_fit-methods
NULL

#' @rdname calm_fit-methods
#' @export
print.calm_fit <- function(x, details = FALSE, max_edges = 15, ...) {
  check_fit_object(x, "x")
  call <- environment()
  check_dots_empty(..., fn = "print.calm_fit", call = call)
  check_flag(details, "details", call = call)
  max_edges <- floor(check_number(max_edges, "max_edges", lower = 0, allow_inf = TRUE, call = call))
  cat(fit_title(x), "\n", sep = "")
  for (line in model_lines(x, max_edges)) cat("  ", line, "\n", sep = "")
  if (details) {
    cat("Optimizer:\n")
    for (line in fit_lines(x)) cat("  ", line, "\n", sep = "")
  }
  invisible(x)
}

#' @rdname calm_fit-methods
#' @export
summary.calm_fit <- function(object, scale = c("data", "standardized"), ...) {
  check_fit_object(object, "object")
  check_dots_empty(..., fn = "summary.calm_fit", call = environment())
  scale <- match_choice(scale, c("data", "standardized"), "scale", call = environment())
  structure(list(
    title = fit_title(object), lines = fit_lines(object), edges = edge_table(object, scale),
    omega = noise_variances(object, scale), scale = scale_label(object, scale),
    trace = object[["trace"]], removed = object[["removed"]],
    restarts = object[["restarts"]], converged = object[["converged"]]
  ), class = "summary.calm_fit")
}

# The edges of a fit's DAG, one row each (from, to, weight on the requested
# scale, type in the CPDAG); a CPDAG-only fit lists its CPDAG's edges.
edge_table <- function(object, scale = "data") {
  amat <- object[["amat"]]
  nm <- rownames(amat)
  cp <- fit_cpdag(object)
  idx <- which(amat != 0, arr.ind = TRUE)
  idx <- idx[order(idx[, 1], idx[, 2]), , drop = FALSE]
  B <- fit_weights(object, "refit", scale)
  data.frame(
    from = nm[idx[, 1]], to = nm[idx[, 2]],
    weight = if (!is.null(B)) B[idx] else rep(NA_real_, nrow(idx)),
    type = ifelse(cp[idx] != 0 & cp[idx[, 2:1, drop = FALSE]] != 0, "undirected", "directed"),
    stringsAsFactors = FALSE
  )
}

#' @rdname calm_fit-methods
#' @export
print.summary.calm_fit <- function(x, max_edges = 30, ...) {
  check_dots_empty(..., fn = "print.summary.calm_fit", call = environment())
  max_edges <- floor(check_number(max_edges, "max_edges", lower = 0, allow_inf = TRUE,
                            call = environment()))
  cat(x[["title"]], "\n", sep = "")
  ne <- nrow(x[["edges"]])
  weighted <- any(!is.na(x[["edges"]][["weight"]]))
  if (!weighted) x[["edges"]][["weight"]] <- NULL
  cat(if (weighted) "Edges of the DAG (type in the CPDAG), weights " else "Edges of the CPDAG",
      if (weighted) x[["scale"]], if (ne > max_edges) paste0(", first ", max_edges, " of ", ne),
      ":\n", sep = "")
  if (ne == 0L) {
    cat("  (none)\n")
  } else {
    e <- utils::head(x[["edges"]], max_edges)
    if (weighted) e[["weight"]] <- vapply(e[["weight"]], function(w) format(signif(w, 4)), character(1))
    print(e, row.names = FALSE, right = TRUE)
  }
  if (!is.null(x[["omega"]])) {
    cat("\nNoise variances (", sub("^on ", "", x[["scale"]]), "):\n", sep = "")
    print(signif(x[["omega"]], 4))
  }
  if (length(x[["lines"]])) {
    cat("\nHow it was learned:\n")
    for (line in x[["lines"]]) cat("  ", line, "\n", sep = "")
  }
  print_trace(x[["trace"]])
  if (is.data.frame(x[["restarts"]]) && nrow(x[["restarts"]]) > 1L) {
    cat("\nRestarts:\n")
    rs <- x[["restarts"]]
    rs[] <- lapply(rs, function(v) if (is.double(v)) signif(v, 6) else v)
    print(rs, row.names = FALSE)
  }
  if (is.data.frame(x[["removed"]]) && nrow(x[["removed"]]) > 0L) {
    cat("\nEdges removed to make the graph acyclic:\n")
    print(x[["removed"]], row.names = FALSE)
  }
  invisible(x)
}

# The optimizer trace of summary(): the last rounds, or the last round of
# each component of a split fit (the first 10).
print_trace <- function(tr) {
  if (!is.data.frame(tr) || nrow(tr) == 0L) return(invisible())
  comp <- tr[["component"]]
  if (!is.null(comp) && length(unique(comp)) > 1L) {
    k <- length(unique(comp))
    cat("\nOptimizer trace (last round of each component", if (k > 10L) sprintf(", first 10 of %d", k),
        "):\n", sep = "")
    tr <- utils::head(tr[!duplicated(comp, fromLast = TRUE), , drop = FALSE], 10)
  } else {
    cat("\nOptimizer trace (last rounds):\n")
    tr[["component"]] <- NULL
    tr <- utils::tail(tr, 5)
  }
  # the columns fit in 80 characters: seconds to the millisecond, and no
  # column of skipped steps when none was skipped
  if (is.numeric(tr[["seconds"]])) tr[["seconds"]] <- round(tr[["seconds"]], 3)
  if (is.numeric(tr[["skipped"]]) && all(tr[["skipped"]] == 0)) tr[["skipped"]] <- NULL
  tr[] <- lapply(tr, function(v) if (is.double(v)) signif(v, 4) else v)
  print(tr, row.names = FALSE)
  invisible()
}

#' @rdname calm_fit-methods
#' @export
coef.calm_fit <- function(object, type = c("refit", "raw"), scale = c("data", "standardized"),
                          ...) {
  check_fit_object(object, "object")
  call <- environment()
  check_dots_empty(..., fn = "coef.calm_fit", call = call)
  type <- match_choice(type, c("refit", "raw"), "type", call = call)
  scale <- match_choice(scale, c("data", "standardized"), "scale", call = call)
  m <- fit_weights(object, type, scale, call = call)
  if (is.null(m)) {
    abort_arg("type", "is {.val {type}} but this {.val {object[['method']]}} fit has no such weights.",
              call = call)
  }
  m
}

# The weights of a fit (`type` "refit": fit$B, "raw": fit$B_raw) on the
# data's scale or the standardized one. A learner that standardized stores
# them standardized, with the data's variances in fit$data_var; one that
# did not stores them on the data's scale, with its covariance's variances
# in fit$data_sd. b_ij on the data's scale is b_ij(std) * sd_j / sd_i.
fit_weights <- function(object, type = "refit", scale = "data", call = parent.frame()) {
  m <- if (type == "refit") object[["B"]] else object[["B_raw"]]
  if (is.null(m)) return(NULL)
  sd <- fit_sd(object)
  stored <- fit_scale(object)
  if (scale == stored) return(m)
  if (is.null(sd)) {
    abort_arg("scale", "is {.val {scale}} but this fit does not hold the variances of its data; refit it.",
              call = call)
  }
  f <- if (scale == "data") outer(1 / sd, sd) else outer(sd, 1 / sd)
  m * f
}

# The scale a fit's weights are stored on: "standardized" when the learner
# standardized the data (fit$data_var holds their variances), else "data".
fit_scale <- function(object) {
  if (!is.null(object[["data_var"]]) || isTRUE(object[["settings"]][["standardize"]])) {
    "standardized"
  } else {
    "data"
  }
}

# Standard deviations of the data's variables (divisor n), when known.
fit_sd <- function(object) {
  v <- object[["data_var"]]
  if (is.null(v) && fit_scale(object) == "data") v <- object[["data_sd"]]^2
  if (is.null(v)) NULL else sqrt(v)
}

# The noise variances on the data's scale or the standardized one.
noise_variances <- function(object, scale = "data") {
  om <- object[["omega"]]
  if (is.null(om) || scale == fit_scale(object)) return(om)
  sd <- fit_sd(object)
  if (is.null(sd)) return(om)
  if (scale == "data") om * sd^2 else om / sd^2
}

# Words for the scale of summary()'s numbers.
scale_label <- function(object, scale) {
  if (scale == "data") "on the data's scale" else "on the standardized scale"
}

# The title names what produced the graph: for calm(), CALM's continuous
# phase (with its variant), and the refinement when it ran; a cut
# continuous phase only started the refinement, which then made the graph.
fit_title <- function(x) {
  s <- x[["settings"]]
  refined <- is.list(x[["refine"]])
  calm_what <- if (identical(x[["continuous"]], "start") && refined) {
    "calm: GES and order-search refinement from a one-step CALM start"
  } else if (identical(x[["continuous"]], "none") && refined) {
    "calm: GES and order-search refinement from the empty graph"
  } else {
    sprintf("CALM (%s gate, %s score, %s constraint)%s", s[["gate"]], s[["score"]],
            s[["constraint"]], if (refined) " + refinement" else "")
  }
  what <- switch(x[["method"]],
    calm = calm_what,
    golem_nv = "GOLEM-NV-l1", notears = "NOTEARS (linear)", pc = "PC", ges = "GES",
    exact = sprintf("Exact search (edge_penalty = %s)", format(edge_penalty_of(s))),
    boss = sprintf("BOSS (best of %d start%s, edge_penalty = %s)", s[["starts"]],
                   if (identical(s[["starts"]], 1L)) "" else "s",
                   format(signif(edge_penalty_of(s), 4))),
    x[["method"]]
  )
  paste0("<calm_fit> ", what)
}

# The optimizer's and the refinement's account of a fit, for summary() and
# print(details = TRUE).
fit_lines <- function(x) {
  lines <- character()
  if (inherits(x[["moral"]], "igraph")) {
    lines <- c(lines, sprintf("moral graph: %d edges (%s)", igraph::ecount(x[["moral"]]),
                              x[["settings"]][["moral"]] %||% "given"))
  }
  tr <- x[["trace"]]
  soft <- identical(x[["settings"]][["constraint"]], "soft")
  tt <- if (is.data.frame(tr) && nrow(tr) > 0L) trace_totals(tr) else NULL
  in_comps <- if (!is.null(tt) && tt$components > 1L) sprintf(" in %d components", tt$components) else ""
  if (soft && !is.null(tt)) {
    lines <- c(lines, sprintf("soft constraint: one run of %s steps%s (final h = %s, lambda2 = %s)",
                              format(x[["settings"]][["control"]][["soft_iter"]], big.mark = ","),
                              if (nzchar(in_comps)) paste0(" per component,", in_comps) else "",
                              format(signif(tt$h, 3)),
                              format(x[["settings"]][["control"]][["lambda2"]])))
  } else if (identical(x[["continuous"]], "none")) {
    why <- if (identical(x[["settings"]][["control"]][["continuous"]], "none")) {
      "calm_control(continuous = \"none\")"
    } else {
      sprintf("more than %d variables: see calm_control(continuous)", CONTINUOUS_MAX_D)
    }
    lines <- c(lines, sprintf("continuous phase skipped (%s); the refinement started from the empty graph",
                              why))
  } else if (identical(x[["continuous"]], "start")) {
    why <- if (isTRUE(x[["n"]] > nrow(x[["amat"]]))) "more rows than variables" else
      sprintf("more than %d variables", CONTINUOUS_MAX_D)
    lines <- c(lines, sprintf("continuous phase cut to one step (%s: see calm_control(continuous))",
                              why))
  } else if (!is.null(tt)) {
    status <- if (!isTRUE(x[["converged"]])) {
      "NOT converged"
    } else if (identical(x[["stop"]], "settled")) {
      "converged (graph settled)"
    } else {
      "converged"
    }
    steps <- if (is.numeric(tr[["steps"]])) {
      paste0(", ", format(sum(tr[["steps"]]), big.mark = ",", scientific = FALSE), " steps")
    } else ""
    # split by components: the longest component's rounds, the steps of all,
    # the sum of the components' final h and the largest final rho
    lines <- c(lines, sprintf("%s after %s%d round%s%s%s (final h = %s, rho = %s%s)", status,
                              if (nzchar(in_comps)) "up to " else "", tt$rounds,
                              if (tt$rounds == 1L) "" else "s", in_comps, steps,
                              format(signif(tt$h, 3)),
                              if (nzchar(in_comps)) "up to " else "",
                              format(signif(tt$rho, 3))))
  } else if (!isTRUE(x[["converged"]])) {
    lines <- c(lines, "NOT converged")
  }
  if (!is.null(x[["objective"]]) && is.numeric(x[["objective"]]) &&
      !isTRUE(x[["continuous"]] %in% c("start", "none"))) {
    rs <- x[["restarts"]]
    extra <- if (is.data.frame(rs) && nrow(rs) > 1L) sprintf(" (best of %d restarts)", nrow(rs)) else ""
    lines <- c(lines, sprintf("final objective %s%s", format(signif(x[["objective"]], 6)), extra))
  }
  if (is.list(x[["refine"]])) lines <- c(lines, refine_line(x[["refine"]], x))
  if (is.data.frame(x[["removed"]]) && nrow(x[["removed"]]) > 0L) {
    lines <- c(lines, sprintf("%d edge%s removed to make the graph acyclic", nrow(x[["removed"]]),
                              if (nrow(x[["removed"]]) == 1L) "" else "s"))
  }
  if (is.numeric(x[["time"]]) && is.finite(x[["time"]])) {
    lines <- c(lines, sprintf("time %s s%s", format(signif(x[["time"]], 3)),
                              if (!is.null(x[["seed"]])) sprintf(", seed %d", as.integer(x[["seed"]])) else ""))
  }
  lines
}

# Totals of an optimizer trace, which for a fit split by components (a
# `component` column with several values) holds the rounds of every
# component one after the other: the number of components, rounds (the
# most any component ran), the final h (summed over the components) and
# the final rho (the largest).
trace_totals <- function(tr) {
  comp <- if (is.null(tr[["component"]])) rep(1L, nrow(tr)) else tr[["component"]]
  last <- !duplicated(comp, fromLast = TRUE)
  list(components = length(unique(comp)), rounds = max(tabulate(match(comp, unique(comp)))),
       h = sum(tr[["h"]][last]), rho = max(tr[["rho"]][last]))
}

# The number of rounds a trace records (the most of any component).
trace_rounds <- function(tr) {
  if (!is.data.frame(tr) || nrow(tr) == 0L) return(0L)
  as.integer(trace_totals(tr)$rounds)
}

# One line on what the refinement did, its scores on print()'s scale.
refine_line <- function(r, x = NULL) {
  k <- nrow(r[["moves"]])
  head <- sprintf("refinement (GES and order moves, penalty %s):", format(signif(r[["lambda"]], 3)))
  if (k == 0L) return(paste(head, "no improving move"))
  counts <- table(factor(r[["moves"]][["type"]],
                         levels = c("insert", "delete", "turn", "order", "restart", "exact")))
  counts <- counts[counts > 0]
  sc <- printed_score(c(r[["score_before"]], r[["score_after"]]), x)
  sc <- if (is.null(attr(sc, "n"))) format(signif(sc, 6)) else format(round(sc, 2), nsmall = 2)
  sprintf("%s %d move%s (%s), score %s -> %s", head, k, if (k == 1L) "" else "s",
          paste(counts, names(counts), collapse = ", "), sc[1], sc[2])
}

# The refinement's per-sample score (sum_j 1/2 log(omega_j) + lambda |pa_j|,
# to minimise, on the scale it learned on) as print()'s score: the
# penalized log-likelihood on the data's scale, -n * score minus the
# Gaussian constants and, for standardized data, the scaling's Jacobian.
# As it is for a population covariance (n = Inf), where print() shows it so.
printed_score <- function(score, x) {
  n <- if (is.null(x)) Inf else x[["n"]]
  if (!is.numeric(n) || !is.finite(n)) return(score)
  d <- nrow(x[["amat"]])
  sd <- if (fit_scale(x) == "standardized") fit_sd(x) else NULL
  jac <- if (is.null(sd)) 0 else sum(log(sd^2))
  structure(-n * score - n / 2 * (d * (log(2 * pi) + 1) + jac), n = n)
}

`%||%` <- function(a, b) if (is.null(a)) b else a

# What print() says about the model: variables, data, edges, score,
# penalty and how it was learned, one line each.
model_lines <- function(x, max_edges = 15) {
  tl <- targets_lines(x)
  c(variables_line(x), data_line(x), tl, edges_lines(x, max_edges),
    if (is.null(tl)) score_line(x) else targets_score_line(x), penalty_line(x), learned_line(x),
    risk_notes(x))
}

# Notes on results to read with care: fewer rows than variables (the
# searches then add many false edges), and a penalty chosen at the edge of
# its grid (the best discount may lie beyond it).
risk_notes <- function(x) {
  notes <- character()
  n <- x[["n"]]
  d <- nrow(x[["amat"]])
  cp <- fit_cpdag(x) != 0
  edges <- sum(cp & !t(cp)) + sum(cp & t(cp)) / 2
  if (is.numeric(n) && is.finite(n) && n < d && edges > n) {
    notes <- c(notes, sprintf("note: %d edges from %s rows for %d variables: with fewer rows than variables expect many false edges (see bootstrap_edges())",
                              as.integer(edges), format(n), d))
  }
  pen <- x[["penalty"]]
  tab <- if (is.list(pen)) pen[["table"]] else NULL
  if (is.data.frame(tab) && nrow(tab) > 2L && is.numeric(pen[["discount"]])) {
    grid <- range(tab[["discount"]])
    side <- if (pen[["discount"]] <= grid[1]) "smallest" else if (pen[["discount"]] >= grid[2]) "largest"
    if (!is.null(side)) {
      notes <- c(notes, sprintf("note: the chosen discount %s is the %s of its grid: the best may lie beyond it (widen penalty_grid)",
                                format(pen[["discount"]]), side))
    }
  }
  unlist(lapply(notes, strwrap, width = 76, exdent = 2))
}

variables_line <- function(x) {
  nm <- rownames(x[["amat"]])
  shown <- utils::head(nm, 12)
  sprintf("variables (%d): %s%s", length(nm), paste(shown, collapse = ", "),
          if (length(nm) > 12L) ", ..." else "")
}

data_line <- function(x) {
  n <- x[["n"]]
  data <- if (is.numeric(n) && is.finite(n)) {
    sprintf("n = %s", format(n, big.mark = ","))
  } else {
    "population covariance (n = Inf)"
  }
  if (fit_scale(x) == "standardized") data <- paste0(data, ", standardized for learning")
  paste0("data: ", data)
}

# The edge counts of the CPDAG and its first `max_edges` edges ("A -> B",
# "A -- B" for undirected), then how many more there are.
edges_lines <- function(x, max_edges = 15) {
  cp <- fit_cpdag(x)
  nm <- rownames(cp)
  und <- (cp != 0) & (t(cp) != 0)
  dirn <- (cp != 0) & !und
  n_und <- sum(und) / 2
  n_dir <- sum(dirn)
  line <- sprintf("edges: %d (CPDAG: %d directed, %d undirected)", as.integer(n_dir + n_und),
                  as.integer(n_dir), as.integer(n_und))
  if (n_dir + n_und == 0) return(line)
  d_idx <- which(dirn, arr.ind = TRUE)
  u_idx <- which(und & upper.tri(und), arr.ind = TRUE)
  e <- c(sprintf("%s -> %s", nm[d_idx[, 1]], nm[d_idx[, 2]]),
         sprintf("%s -- %s", nm[u_idx[, 1]], nm[u_idx[, 2]]))
  if (length(e) > max_edges) {
    e <- c(e[seq_len(max_edges)], sprintf("... and %d more", length(e) - max_edges))
  }
  # wrapped between edges, never inside one
  wrapped <- strwrap(paste(gsub(" ", "\u00a0", e), collapse = ", "), width = 76, indent = 2,
                     exdent = 2)
  c(line, gsub("\u00a0", " ", wrapped))
}

# The score the graph was chosen by, named: for an l0 penalty the
# log-likelihood minus the penalty per edge (BIC's at discount 1), on the
# data's scale; for other learners the log-likelihood alone.
score_line <- function(x) {
  if (is.null(x[["B"]]) || is.null(x[["omega"]])) return(NULL)
  n <- x[["n"]]
  if (!is.numeric(n) || !is.finite(n)) {
    sc <- if (is.list(x[["refine"]])) x[["refine"]][["score_after"]] else x[["score"]]
    if (!is.numeric(sc) || length(sc) != 1L) return("score: none (population covariance, no likelihood)")
    return(sprintf("score: %s, penalized profiled likelihood (population covariance, no likelihood)",
                   format(signif(sc, 6))))
  }
  ll <- tryCatch(logLik(x), error = function(e) NULL)
  if (is.null(ll)) return(NULL)
  lam <- fit_lambda(x)
  edges <- sum(x[["amat"]] != 0)
  if (is.null(lam) || grepl("l1$", lam[["what"]]) || n <= 1) {
    return(sprintf("score: Gaussian log-likelihood %s (df %d, data's scale)",
                   format(round(as.numeric(ll), 2), nsmall = 2), as.integer(attr(ll, "df"))))
  }
  per_edge <- lam[["value"]] * n
  c(sprintf("score: %s, penalized log-likelihood (the score the graph was chosen by)",
            format(round(as.numeric(ll) - per_edge * edges, 2), nsmall = 2)),
    sprintf("  = log-likelihood %s - %s per edge x %d edges (BIC discount %s; data's scale)",
            format(round(as.numeric(ll), 2), nsmall = 2), format(signif(per_edge, 3)),
            as.integer(edges), format(signif(per_edge * 2 / log(n), 3))))
}

# One line on the sparsity penalty: fit$penalty's label when present, else
# built from its method and discount, else from what the fit records.
penalty_line <- function(x) {
  pen <- x[["penalty"]]
  if (is.list(pen)) {
    if (is.character(pen[["label"]]) && length(pen[["label"]]) == 1L) {
      return(paste0("penalty: ", pen[["label"]]))
    }
    if (is.numeric(pen[["discount"]])) {
      how <- if (identical(pen[["method"]], "fixed") || is.null(pen[["method"]])) {
        "fixed"
      } else {
        k <- if (is.data.frame(pen[["table"]])) sprintf(" from %d candidates", nrow(pen[["table"]])) else ""
        sprintf("chosen by %s%s", pen[["method"]], k)
      }
      return(sprintf("penalty: BIC discount %s (%s)", format(signif(pen[["discount"]], 3)), how))
    }
  }
  lam <- fit_lambda(x)
  if (is.null(lam)) return(NULL)
  n <- x[["n"]]
  # an l1 penalty has no BIC equivalent
  l0 <- !grepl("l1$", lam[["what"]])
  disc <- if (l0 && is.numeric(n) && is.finite(n) && n > 1) {
    sprintf(", BIC discount %s", format(signif(lam[["value"]] * 2 * n / log(n), 3)))
  } else ""
  sprintf("penalty: %s %s (%s%s)", format(signif(lam[["value"]], 3)),
          if (l0) "per edge" else "times the sum of |weights|", lam[["what"]], disc)
}

# The per-sample penalty per edge a fit's final graph was chosen with, and
# what it is, from the fields older fits have; NULL when none is known.
fit_lambda <- function(x) {
  s <- x[["settings"]]
  if (is.list(x[["refine"]]) && is.numeric(x[["refine"]][["lambda"]])) {
    p <- s[["control"]][["search"]][["penalty"]] %||% s[["control"]][["refine"]][["penalty"]]
    if (is.character(p) && !is.finite(x[["n"]] %||% Inf)) p <- "lambda1"
    what <- if (is.character(p)) sprintf("refinement, %s", if (p == "lambda1") p else toupper(p)) else "refinement"
    return(list(value = x[["refine"]][["lambda"]], what = what))
  }
  ctrl <- s[["control"]]
  lam <- edge_penalty_of(s) %||% ctrl[["l1_weight"]] %||% ctrl[["lambda1"]]
  if (!is.numeric(lam)) return(NULL)
  what <- switch(x[["method"]], calm = "lambda1, l0 gates", golem_nv = , notears = "l1_weight, l1",
                 "edge_penalty, l0")
  list(value = lam, what = what)
}

# The penalty per edge of a boss() or exact_search() fit's settings (named
# `lambda1` in fits made before it was renamed); NULL for other fits.
edge_penalty_of <- function(s) s[["edge_penalty"]] %||% s[["lambda1"]]

# How the fit was learned, in one line: the stages, whether it converged,
# the time and the seed.
learned_line <- function(x) {
  stages <- switch(x[["method"]],
    calm = "CALM's continuous optimization", boss = "best order score search",
    exact = "exact search", golem_nv = "continuous optimization (GOLEM-NV)",
    notears = "continuous optimization (NOTEARS)", pc = "PC (pcalg)", ges = "GES (pcalg)",
    sem = "least squares on a given graph", x[["method"]])
  if (identical(x[["continuous"]], "start")) stages <- "a one-step start"
  if (identical(x[["continuous"]], "none")) stages <- "an empty start"
  if (is.list(x[["refine"]])) {
    exact <- isTRUE(x[["refine"]][["exact_run"]])
    mv <- x[["refine"]][["moves"]]
    risk <- is.data.frame(mv) && any(mv$type == "risk")
    stages <- paste0(stages, " + refinement (GES, BOSS", if (exact) ", exact search",
                     if (risk) ", minimum expected SHD among local optima", ")")
  }
  status <- if (!isTRUE(x[["converged"]])) ", NOT converged" else ""
  removed <- if (is.data.frame(x[["removed"]]) && nrow(x[["removed"]]) > 0L) {
    sprintf(", %d edge%s removed to make it acyclic", nrow(x[["removed"]]),
            if (nrow(x[["removed"]]) == 1L) "" else "s")
  } else ""
  time <- if (is.numeric(x[["time"]]) && is.finite(x[["time"]])) {
    sprintf(", %s s", format(signif(x[["time"]], 3)))
  } else ""
  seed <- if (!is.null(x[["seed"]])) sprintf(", seed %d", as.integer(x[["seed"]])) else ""
  paste0("learned by ", stages, status, removed, time, seed)
}
