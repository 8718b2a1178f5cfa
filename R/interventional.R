# The interventional Markov equivalence class of a DAG (Hauser and
# Buehlmann 2012) and its essential graph.

# Hauser and Buehlmann (2012, Theorem 10): for a conservative family of
# targets (every variable is left alone by some condition, which
# intervention_targets() ensures for data), two DAGs are interventionally
# Markov equivalent exactly when they have the same skeleton and
# v-structures and, for every target set I, orient each edge with exactly
# one end in I the same way. Such an edge is therefore fixed in the whole
# class, like an edge required by background knowledge: its class is the
# observational class restricted to DAGs that orient the cut edges as
# `amat` does, and the essential graph is the maximally oriented PDAG of
# that restriction. Meek's rules (1995) reach it from the CPDAG with the cut
# edges oriented (meek_closure(), the same closure as under knowledge).
# `targets`: a list of integer vectors of column positions. Returns the 0/1
# essential graph with amat's dimnames.
interventional_cpdag <- function(amat, targets) {
  cp <- cpp_dag_to_cpdag((amat != 0) * 1)
  storage.mode(cp) <- "double"
  dimnames(cp) <- dimnames(amat)
  d <- nrow(amat)
  und <- cp != 0 & t(cp) != 0
  cut <- matrix(FALSE, d, d)
  for (t in targets) {
    if (length(t) == 0L || length(t) == d) next
    inside <- seq_len(d) %in% t
    cut <- cut | outer(inside, inside, `!=`)
  }
  orient <- und & cut & amat != 0
  if (!any(orient)) return(cp)
  cp[t(orient)] <- 0
  meek_closure(cp)
}

# The targets argument of dag_to_cpdag() and compare_graphs(): NULL, or the
# target sets as column positions of the graph's nodes (no rows: the
# conditions' sizes do not matter for the class).
graph_targets <- function(targets, nodes, call) {
  if (is.null(targets)) return(NULL)
  if (inherits(targets, "calm_targets")) {
    targets <- lapply(targets$targets, function(t) targets$variables[t])
  }
  intervention_targets(targets, NULL, nodes, NULL)$targets
}

# The class a DAG stands for, as a 0/1 matrix: its CPDAG, or its
# interventional essential graph with `targets` (column positions), then
# maximally oriented under the resolved knowledge `kn` (NULL: none).
class_cpdag <- function(amat, targets = NULL, kn = NULL) {
  if (is.null(targets)) {
    # a double matrix goes to C++ as it is (its nonzero entries are the
    # edges): no d x d copy on the way
    cp <- cpp_dag_to_cpdag_double(if (is.double(amat)) amat else (amat != 0) * 1)
    dimnames(cp) <- dimnames(amat)
  } else {
    cp <- interventional_cpdag((amat != 0) * 1, targets)
  }
  if (inherits(kn, "calm_knowledge_resolved")) cp <- knowledge_cpdag(cp, kn)
  cp
}

# The target sets (column positions) of a fit learned with targets, or NULL.
fit_targets <- function(fit) fit[["targets"]][["targets"]]

# print() of a fit learned with targets: the conditions, what used them,
# and (targets_score_line()) the interventional score in place of the
# observational log-likelihood.
targets_lines <- function(x) {
  tg <- x[["targets"]]
  if (is.null(tg)) return(NULL)
  rows <- tabulate(tg$index, nbins = length(tg$targets))
  named <- !identical(tg$conditions, as.character(seq_along(tg$targets)))
  sets <- vapply(seq_along(tg$targets), function(k) {
    t <- tg$targets[[k]]
    what <- if (length(t) == 0L) "observation" else paste(tg$variables[t], collapse = "+")
    if (named) sprintf("%s: %s (%d)", tg$conditions[k], what, rows[k])
    else sprintf("%s (%d)", what, rows[k])
  }, character(1))
  used <- if (identical(x[["method"]], "calm") && identical(x[["settings"]][["refine"]], "none")) {
    "nothing but the class used them (refine = \"none\": the continuous phase pools all rows)"
  } else if (identical(x[["method"]], "calm")) {
    "only the refinement and the penalty's choice used them (the continuous phase pooled all rows)"
  } else {
    "the search used the interventional score"
  }
  line <- sprintf("interventions: %d conditions (rows): %s", length(sets),
                  paste(sets, collapse = ", "))
  c(strwrap(line, width = 76, exdent = 2),
    strwrap(paste0(used, "; CPDAG = interventional essential graph"), width = 76, indent = 2,
            exdent = 2))
}

targets_score_line <- function(x) {
  sc <- x[["score"]] %||% x[["refine"]][["score_after"]]
  if (!is.numeric(sc) || length(sc) != 1L) return(NULL)
  sprintf("score: %s per sample, interventional (GIES) score, lower is better",
          format(signif(sc, 6)))
}
