# Background knowledge: required and forbidden directed edges and tiers,
# checked here and handed to the C++ cores (CALM's mask, the refinement, the
# exact search, IAMB) as two 0/1 matrices.

#' Background knowledge: required and forbidden edges, tiers
#'
#' Describes what is known about the graph before learning it, in the forms
#' users of bnlearn (`whitelist`, `blacklist`) and pcalg (`fixedEdges`,
#' `fixedGaps`) know: directed edges that must be in the graph, directed
#' edges that must not, and a temporal order of the variables (tiers).
#' Pass the result as `knowledge` to [calm()], [boss()], [exact_search()],
#' [estimate_moral_graph()] or, through them, [bootstrap_edges()].
#'
#' What each learner does with it:
#' * [calm()]: a forbidden entry `i -> j` is never free (its gate is fixed
#'   at zero); a required entry is always in the graph: its gate is held open
#'   and the sparsity penalty does not act on it. The acyclicity constraint
#'   sees it, so no edge can close a cycle through it. Required edges need a
#'   gate (`gate = "gumbel"` or `"stg"`). Every stage of the refinement
#'   (`refine = "ges"`) obeys the knowledge: its GES moves (from CALM's
#'   graph, and from the graph of the required edges in place of the empty
#'   graph) go only to equivalence classes with a member that has every
#'   required edge and no forbidden one; its BOSS runs as [boss()] does under
#'   the knowledge; the exact search (up to `search_control(exact_max_d)` variables)
#'   takes the optimum over the DAGs that obey it. The fit is such a member.
#' * [boss()]: forbidden edges are never chosen as parents, required ones
#'   always are, and each order visited has every required parent before
#'   its child.
#' * [exact_search()]: the optimum over the DAGs that contain every required
#'   edge and no forbidden one.
#' * [estimate_moral_graph()] (IAMB): the two ends of a required edge enter
#'   each other's blanket without a test and are never dropped, so the pair
#'   stays in the moral graph. A moral graph given by the user gets the
#'   required adjacencies added.
#'
#' The CPDAG of a fit learned under knowledge (`fit$cpdag_amat`,
#' `fit$cpdag`, and what [bootstrap_edges()] counts) is the maximally
#' oriented PDAG: the equivalence class restricted by the knowledge, with
#' every undirected edge that the knowledge orients (a required edge, the
#' reverse of a forbidden one, tiers) oriented and then Meek's rules applied
#' until none orients more, as `pcalg::addBgKnowledge()` gives it.
#'
#' Knowledge that contradicts itself is an error: an edge both required and
#' forbidden (also through tiers), required edges that form a directed
#' cycle, a self loop, a node in two tiers, or a name that is not a
#' variable (checked when the knowledge meets the data).
#'
#' @param required,forbidden Directed edges: one edge as a pair
#'   `c("from", "to")`, a two-column matrix or data frame
#'   of `from`, `to` (node names or column indices, as bnlearn's whitelist),
#'   a square 0/1 adjacency matrix (`[i, j] = 1` for `i -> j`), or a directed
#'   igraph graph. `NULL`: none.
#' @param tiers A temporal order: a list of character vectors (first tier
#'   first) or a named integer vector giving each variable's tier. An edge
#'   from a later tier to an earlier one is forbidden; variables in no tier
#'   are unconstrained. `NULL` (default): no tiers.
#' @return An object of class `calm_knowledge`.
#' @seealso [calm()], [boss()], [exact_search()]
#' @examples
#' bk <- background_knowledge(required = data.frame(from = "X1", to = "X2"),
#'                            tiers = list(c("X1", "X2"), c("X3", "X4")))
#' bk
#' @export
background_knowledge <- function(required = NULL, forbidden = NULL, tiers = NULL) {
  call <- environment()
  required <- check_edge_spec(required, "required", call)
  forbidden <- check_edge_spec(forbidden, "forbidden", call)
  if (!is.null(tiers)) {
    if (is.list(tiers)) {
      ok <- all(vapply(tiers, function(t) is.character(t) && !anyNA(t), logical(1)))
      if (!ok) abort_arg("tiers", "must be a list of character vectors of node names.", call = call)
      all_nodes <- unlist(tiers)
      if (anyDuplicated(all_nodes)) {
        abort_arg("tiers", "puts {.val {unique(all_nodes[duplicated(all_nodes)])}} in more than one tier.",
                  call = call)
      }
      tiers <- stats::setNames(rep(seq_along(tiers), lengths(tiers)), all_nodes)
    } else if (is.numeric(tiers) && !is.null(names(tiers)) && !anyNA(tiers) &&
               all(tiers == round(tiers))) {
      if (anyDuplicated(names(tiers))) {
        abort_arg("tiers", "names {.val {unique(names(tiers)[duplicated(names(tiers))])}} more than once.",
                  call = call)
      }
    } else {
      abort_arg("tiers", "must be a list of character vectors (first tier first) or a named integer vector of tiers, not {.obj_type_friendly {tiers}}.",
                call = call)
    }
  }
  structure(list(required = required, forbidden = forbidden, tiers = tiers),
            class = "calm_knowledge")
}

#' @export
print.calm_knowledge <- function(x, ...) {
  count <- function(e) {
    if (is.null(e)) return("none")
    if (inherits(e, "igraph")) return(format(igraph::ecount(e)))
    if (is.matrix(e) && nrow(e) == ncol(e) && !is.character(e) && ncol(e) != 2L) {
      return(format(sum(e != 0)))
    }
    format(NROW(e))
  }
  cat("<calm_knowledge>\n")
  cat("  required edges: ", count(x$required), "\n", sep = "")
  cat("  forbidden edges:", count(x$forbidden), "\n")
  if (is.null(x$tiers)) {
    cat("  tiers: none\n")
  } else {
    tiers <- split(names(x$tiers), x$tiers)
    cat("  tiers:", paste(vapply(tiers, paste, character(1), collapse = ", "), collapse = " < "), "\n")
  }
  invisible(x)
}

check_edge_spec <- function(e, arg, call) {
  if (is.null(e) || inherits(e, "igraph")) return(invisible(e))
  # one edge given as a pair, c("B", "D")
  if (is.atomic(e) && is.null(dim(e)) && length(e) == 2L && (is.character(e) || is.numeric(e))) {
    return(invisible(matrix(e, ncol = 2L, dimnames = list(NULL, c("from", "to")))))
  }
  if (is.data.frame(e) || is.matrix(e)) {
    if (ncol(e) < 2L) abort_arg(arg, "must have two columns (from, to) or be a square adjacency matrix.", call = call)
    return(invisible(e))
  }
  abort_arg(arg, "must be NULL, one edge as a pair {.code c(\"from\", \"to\")}, a two-column matrix or data frame of edges (from, to) such as {.code data.frame(from = c(\"A\", \"B\"), to = c(\"C\", \"D\"))}, a square 0/1 adjacency matrix or a directed igraph graph, not {.obj_type_friendly {e}}.",
            call = call)
}

# The knowledge argument of a learner: NULL, a calm_knowledge object or a
# list of background_knowledge()'s arguments.
knowledge_arg <- function(knowledge, call) {
  if (is.null(knowledge) || inherits(knowledge, "calm_knowledge")) return(knowledge)
  if (is.list(knowledge) && !is.data.frame(knowledge) &&
      all(names(knowledge) %in% c("required", "forbidden", "tiers")) && !is.null(names(knowledge))) {
    return(tryCatch(do.call(background_knowledge, knowledge), calm_error_argument = function(e) {
      abort_arg("knowledge", "is not valid background knowledge: {conditionMessage(e)}", call = call)
    }))
  }
  abort_arg("knowledge", "must be NULL, the result of {.fn background_knowledge} or a list with elements {.field required}, {.field forbidden}, {.field tiers}.",
            call = call)
}

# The knowledge for the variables `nm`: list(required, forbidden) of d x d
# 0/1 matrices ([i, j] = 1 for i -> j), with tiers also `precedes` ([i, j] =
# 1 when i is in an earlier tier than j), or NULL when there is none. Errors
# name the learner's `knowledge` argument.
resolve_knowledge <- function(knowledge, nm, call) {
  if (inherits(knowledge, "calm_knowledge_resolved")) return(knowledge)
  knowledge <- knowledge_arg(knowledge, call)
  if (is.null(knowledge)) return(NULL)
  d <- length(nm)
  req <- edge_matrix(knowledge$required, nm, "required", call)
  forb <- edge_matrix(knowledge$forbidden, nm, "forbidden", call)
  if (!is.null(knowledge$tiers)) {
    tiers <- knowledge$tiers
    unknown <- setdiff(names(tiers), nm)
    if (length(unknown)) {
      abort_arg("knowledge", "has tiers for {.val {unknown}}, which {?is not a variable/are not variables}.",
                call = call)
    }
    tier <- rep(NA_real_, d)
    tier[match(names(tiers), nm)] <- tiers
    later <- outer(tier, tier, ">")  # i in a later tier than j: i -> j forbidden
    later[is.na(later)] <- FALSE
    forb[later] <- 1
    # for the order searches: i in an earlier tier than j comes first
    precedes <- t(later) * 1
    dimnames(precedes) <- list(nm, nm)
  }
  both <- which(req != 0 & forb != 0, arr.ind = TRUE)
  if (nrow(both)) {
    pairs <- paste(nm[both[, 1]], "->", nm[both[, 2]])
    abort_arg("knowledge", "contradicts itself: {.val {pairs}} {?is/are} both required and forbidden (directly or by the tiers).",
              call = call)
  }
  if (!cpp_is_dag(req)) {
    cyc <- igraph::graph_from_adjacency_matrix(req, mode = "directed")
    loop_nodes <- nm[vapply(seq_len(d), function(i) {
      any(igraph::subcomponent(cyc, i, mode = "out") %in% igraph::neighbors(cyc, i, mode = "in"))
    }, logical(1))]
    abort_arg("knowledge", "contradicts itself: the required edges form a directed cycle (through {.val {loop_nodes}}).",
              call = call)
  }
  if (sum(req) == 0 && sum(forb) == 0) return(NULL)
  out <- list(required = req, forbidden = forb)
  if (!is.null(knowledge$tiers) && any(precedes != 0)) out$precedes <- precedes
  structure(out, class = "calm_knowledge_resolved")
}

# A directed edge specification as a d x d 0/1 matrix over `nm`.
edge_matrix <- function(e, nm, what, call) {
  d <- length(nm)
  out <- matrix(0, d, d, dimnames = list(nm, nm))
  if (is.null(e)) return(out)
  bad_node <- function(v) {
    abort_arg("knowledge", "names {what} edges with {.val {utils::head(v, 3)}}, not {?a variable/variables} ({d} variable{?s}: {.val {utils::head(nm, 5)}}{if (d > 5) ', ...' else ''}).",
              call = call)
  }
  if (inherits(e, "igraph")) {
    if (!igraph::is_directed(e)) {
      abort_arg("knowledge", "gives {what} edges as an undirected graph; use a directed one.", call = call)
    }
    el <- igraph::as_edgelist(e, names = TRUE)
    if (is.null(igraph::V(e)$name)) el <- matrix(as.integer(igraph::as_edgelist(e, names = FALSE)), ncol = 2)
    e <- el
  } else if (is.matrix(e) && nrow(e) == d && ncol(e) == d && !is.character(e) &&
             (d != 2L || !is.null(colnames(e)) && all(colnames(e) %in% nm))) {
    if (anyNA(e) || !all(e %in% c(0, 1))) {
      abort_arg("knowledge", "has a {what} adjacency matrix that is not 0/1.", call = call)
    }
    if (!is.null(colnames(e))) {
      if (!setequal(colnames(e), nm)) bad_node(setdiff(colnames(e), nm))
      e <- e[nm, nm, drop = FALSE]
    }
    if (any(diag(e) != 0)) abort_arg("knowledge", "has {what} self loops.", call = call)
    out[] <- as.double(e != 0)
    return(out)
  }
  e <- as.data.frame(e, stringsAsFactors = FALSE)[, 1:2]
  idx <- lapply(e, function(col) {
    if (is.factor(col)) col <- as.character(col)
    if (is.character(col)) {
      if (anyNA(col) || !all(col %in% nm)) bad_node(setdiff(col, nm))
      match(col, nm)
    } else if (is.numeric(col) && !anyNA(col) && all(col == round(col)) && all(col >= 1 & col <= d)) {
      as.integer(col)
    } else {
      abort_arg("knowledge", "has {what} edges that are neither node names nor column indices in 1..{d}.",
                call = call)
    }
  })
  if (any(idx[[1]] == idx[[2]])) abort_arg("knowledge", "has {what} self loops.", call = call)
  out[cbind(idx[[1]], idx[[2]])] <- 1
  out
}

# The CALM mask with the knowledge: the moral graph plus the required
# adjacencies, without the forbidden entries, with required entries 2.
knowledge_mask <- function(mask, kn) {
  if (is.null(kn)) return(mask)
  m <- pmax(mask, kn$required, t(kn$required))
  m[kn$forbidden != 0] <- 0
  m[t(kn$required) != 0] <- 0  # the reverse of a required edge would close a 2-cycle
  m[kn$required != 0] <- 2
  m
}

# Does the DAG `amat` satisfy the knowledge?
satisfies_knowledge <- function(amat, kn) {
  is.null(kn) || (all(amat[kn$required != 0] != 0) && all(amat[kn$forbidden != 0] == 0))
}

# The CPDAG of a fit under background knowledge: the maximally oriented
# PDAG of the equivalence class restricted by the knowledge (Meek, 1995).
# An undirected edge i - j becomes i -> j when i -> j is required or
# j -> i forbidden (tiers included); then Meek's rules orient what follows.
# `cpdag` is a 0/1 CPDAG matrix whose class has a member that obeys `kn`.
knowledge_cpdag <- function(cpdag, kn) {
  if (is.null(kn)) return(cpdag)
  und <- cpdag != 0 & t(cpdag) != 0
  orient <- und & (kn$required != 0 | t(kn$forbidden) != 0)
  if (!any(orient)) return(cpdag)
  cpdag[t(orient)] <- 0
  meek_closure(cpdag)
}

# Meek's rules 1-4 applied to a PDAG (0/1, [i, j] = 1 and [j, i] = 0 for
# i -> j, both 1 for i - j) until none applies. The edge-type matrices are
# kept up to date as edges get oriented rather than rebuilt for every test,
# which makes the closure cheap enough to run once per candidate
# orientation in causal_effects().
meek_closure <- function(g) {
  dir <- g != 0 & t(g) == 0            # dir[i, j]: i -> j
  adj <- g != 0 | t(g) != 0
  und <- g != 0 & t(g) != 0
  repeat {
    changed <- FALSE
    pairs <- which(und & upper.tri(und), arr.ind = TRUE)
    for (k in seq_len(nrow(pairs))) {
      for (e in list(pairs[k, ], rev(pairs[k, ]))) {
        a <- e[[1]]
        b <- e[[2]]
        if (und[a, b] && meek_orients(dir, adj, und, a, b)) {
          g[b, a] <- 0
          dir[a, b] <- TRUE
          und[a, b] <- und[b, a] <- FALSE
          changed <- TRUE
        }
      }
    }
    if (!changed) return(g)
  }
}

# Does one of Meek's rules orient the undirected edge a - b as a -> b?
meek_orients <- function(dir, adj, und, a, b) {
  others <- seq_len(nrow(dir)) != b
  # R1: c -> a, c and b not adjacent
  if (any(dir[, a] & !adj[, b] & others)) return(TRUE)
  # R2: a -> c -> b
  if (any(dir[a, ] & dir[, b])) return(TRUE)
  # R3: a - c -> b and a - d -> b with c, d not adjacent
  cs <- which(und[a, ] & dir[, b])
  if (length(cs) >= 2L && any(!adj[cs, cs][upper.tri(diag(length(cs)))])) return(TRUE)
  # R4: a - c, c -> d -> b, c and b not adjacent
  cs <- which(und[a, ] & !adj[, b] & others)
  for (c in cs) if (any(dir[c, ] & dir[, b])) return(TRUE)
  FALSE
}
