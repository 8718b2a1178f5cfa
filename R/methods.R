# print, summary and coef methods for calm_fit (plot.calm_fit is in
# R/plot.R). They work for the fits of every learner, not only calm().

#' Print, summarise and extract weights of a fit
#'
#' `print()` gives a short description of a fit; `summary()` adds the edge
#' list with weights, the noise variances and the optimizer's progress;
#' `coef()` returns the weighted adjacency matrix.
#'
#' @param x,object A fit returned by [calm()] or another learner of the
#'   package.
#' @param type For `coef()`: `"refit"` (default), the least-squares weights
#'   of each node on its parents (`object$B`), or `"raw"`, the learner's own
#'   weights (`object$B_raw`; for CALM the gate times the weight, `A * P`).
#' @param max_edges Maximum number of edges listed by the summary's print
#'   method.
#' @param ... Unused.
#' @return `print()`: `x`, invisibly. `summary()`: an object of class
#'   `summary.calm_fit`, a list with the elements shown by its print method
#'   (`edges` is a data frame with columns `from`, `to`, `weight`, `raw`,
#'   `type`; `omega` the noise variances; `trace` the optimizer trace).
#'   `coef()`: a square matrix, `[i, j]` the weight of `i -> j`.
#' @examples
#' set.seed(1)
#' sem <- simulate_sem(5, k = 1)
#' fit <- calm(cov = sem$sigma, moral = moral_graph(sem$dag),
#'             iter_per_round = 5000, max_rounds = 40, verbose = FALSE)
#' print(fit)
#' summary(fit)
#' coef(fit)
#' @name calm_fit-methods
NULL

#' @rdname calm_fit-methods
#' @export
print.calm_fit <- function(x, ...) {
  check_fit_object(x, "x")
  cat(fit_title(x), "\n", sep = "")
  for (line in fit_lines(x)) cat("  ", line, "\n", sep = "")
  invisible(x)
}

#' @rdname calm_fit-methods
#' @export
summary.calm_fit <- function(object, ...) {
  check_fit_object(object, "object")
  amat <- object[["amat"]]
  nm <- rownames(amat)
  cp <- object[["cpdag_amat"]]
  idx <- which(amat != 0, arr.ind = TRUE)
  idx <- idx[order(idx[, 1], idx[, 2]), , drop = FALSE]
  edges <- data.frame(
    from = nm[idx[, 1]], to = nm[idx[, 2]],
    weight = if (!is.null(object[["B"]])) object[["B"]][idx] else rep(NA_real_, nrow(idx)),
    raw = if (!is.null(object[["B_raw"]])) object[["B_raw"]][idx] else rep(NA_real_, nrow(idx)),
    type = ifelse(cp[idx] != 0 & cp[idx[, 2:1, drop = FALSE]] != 0, "undirected", "directed"),
    stringsAsFactors = FALSE
  )
  structure(list(
    title = fit_title(object), lines = fit_lines(object), edges = edges,
    omega = object[["omega"]], trace = object[["trace"]], removed = object[["removed"]],
    restarts = object[["restarts"]], converged = object[["converged"]]
  ), class = "summary.calm_fit")
}

#' @rdname calm_fit-methods
#' @export
print.summary.calm_fit <- function(x, max_edges = 30, ...) {
  max_edges <- floor(check_number(max_edges, "max_edges", lower = 0, allow_inf = TRUE,
                            call = environment()))
  cat(x[["title"]], "\n", sep = "")
  for (line in x[["lines"]]) cat("  ", line, "\n", sep = "")
  ne <- nrow(x[["edges"]])
  cat("\nEdges of the DAG (type in the CPDAG)", if (ne > max_edges) paste0(", first ", max_edges, " of ", ne), ":\n", sep = "")
  if (ne == 0L) {
    cat("  (none)\n")
  } else {
    e <- utils::head(x[["edges"]], max_edges)
    e[["weight"]] <- signif(e[["weight"]], 4)
    e[["raw"]] <- signif(e[["raw"]], 4)
    print(e, row.names = FALSE)
  }
  if (!is.null(x[["omega"]])) {
    cat("\nNoise variances:\n")
    print(signif(x[["omega"]], 4))
  }
  if (is.data.frame(x[["trace"]]) && nrow(x[["trace"]]) > 0L) {
    tr <- x[["trace"]]
    comp <- tr[["component"]]
    if (!is.null(comp) && length(unique(comp)) > 1L) {
      # split by components: the last round of each (the first 10)
      k <- length(unique(comp))
      cat("\nOptimizer trace (last round of each component", if (k > 10L) sprintf(", first 10 of %d", k),
          "):\n", sep = "")
      tr <- utils::head(tr[!duplicated(comp, fromLast = TRUE), , drop = FALSE], 10)
    } else {
      cat("\nOptimizer trace (last rounds):\n")
      tr[["component"]] <- NULL
      tr <- utils::tail(tr, 5)
    }
    tr[] <- lapply(tr, function(v) if (is.double(v)) signif(v, 4) else v)
    print(tr, row.names = FALSE)
  }
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

#' @rdname calm_fit-methods
#' @export
coef.calm_fit <- function(object, type = c("refit", "raw"), ...) {
  check_fit_object(object, "object")
  type <- match_choice(type, c("refit", "raw"), "type", call = environment())
  m <- if (type == "refit") object[["B"]] else object[["B_raw"]]
  if (is.null(m)) {
    abort_arg("type", "is {.val {type}} but this {.val {object[['method']]}} fit has no such weights.",
              call = environment())
  }
  m
}

fit_title <- function(x) {
  s <- x[["settings"]]
  what <- switch(x[["method"]],
    calm = sprintf("CALM (%s gate, %s score, %s constraint)",
                   s[["gate"]], s[["score"]], s[["constraint"]]),
    golem_nv = "GOLEM-NV-l1", notears = "NOTEARS (linear)", pc = "PC", ges = "GES",
    exact = sprintf("Exact search (lambda1 = %s)", format(s[["lambda1"]])),
    boss = sprintf("BOSS (best of %d start%s, lambda1 = %s)", s[["starts"]],
                   if (identical(s[["starts"]], 1L)) "" else "s", format(signif(s[["lambda1"]], 4))),
    x[["method"]]
  )
  paste0("<calm_fit> ", what)
}

fit_lines <- function(x) {
  d <- nrow(x[["amat"]])
  cp <- x[["cpdag_amat"]]
  und <- sum(cp * t(cp) != 0) / 2
  dirn <- sum(cp != 0) - 2 * und
  n_edges <- dirn + und
  lines <- sprintf("%d nodes, %d edges; CPDAG: %d directed, %d undirected", d,
                   as.integer(n_edges), as.integer(dirn), as.integer(und))
  data <- if (is.finite(x[["n"]])) sprintf("n = %s", format(x[["n"]], big.mark = ",")) else "population covariance (n = Inf)"
  if (isTRUE(x[["settings"]][["standardize"]])) data <- paste0(data, ", standardized")
  lines <- c(lines, paste0("data: ", data))
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
  if (!is.null(x[["objective"]]) && is.numeric(x[["objective"]])) {
    rs <- x[["restarts"]]
    extra <- if (is.data.frame(rs) && nrow(rs) > 1L) sprintf(" (best of %d restarts)", nrow(rs)) else ""
    lines <- c(lines, sprintf("final objective %s%s", format(signif(x[["objective"]], 6)), extra))
  }
  if (is.list(x[["refine"]])) lines <- c(lines, refine_line(x[["refine"]]))
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

# One line on what the refinement did.
refine_line <- function(r) {
  k <- nrow(r[["moves"]])
  head <- sprintf("refinement (GES and order moves, penalty %s):", format(signif(r[["lambda"]], 3)))
  if (k == 0L) return(paste(head, "no improving move"))
  counts <- table(factor(r[["moves"]][["type"]],
                         levels = c("insert", "delete", "turn", "order", "restart", "exact")))
  counts <- counts[counts > 0]
  sprintf("%s %d move%s (%s), score %s -> %s", head, k, if (k == 1L) "" else "s",
          paste(counts, names(counts), collapse = ", "),
          format(signif(r[["score_before"]], 6)), format(signif(r[["score_after"]], 6)))
}

`%||%` <- function(a, b) if (is.null(a)) b else a
