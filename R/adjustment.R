# Graph side of causal effects in a CPDAG or maximally oriented PDAG
# (MPDAG): possible descendants along paths that can be causal, the
# orientations of the edges at the treatments that some DAG of the class
# has, and the optimal adjustment set. causal_effects() pairs these with
# regressions on a covariance.

#' Optimal adjustment set in a CPDAG or maximally oriented PDAG
#'
#' Returns the optimal valid adjustment set of Henckel, Perković and
#' Maathuis (2022) for the total effect of the treatments `x` on the
#' outcomes `y`, read from the graph's equivalence class: the fit's CPDAG,
#' maximally oriented under its background knowledge (see
#' [background_knowledge()]). Adjusting for it (regressing `y` on `x` and
#' the set) gives the effect with the smallest asymptotic variance among all
#' valid adjustment sets.
#'
#' A valid adjustment set exists in the class only when the graph is
#' *amenable*: every path from a treatment to an outcome that could be
#' causal in some DAG of the class starts with an edge directed out of the
#' treatment. When it is not (an undirected edge at a treatment leads on to
#' an outcome), or when a treatment lies on a causal path from another one,
#' there is none: `adjustment_set()` then returns `NULL` and signals a
#' message of class `calm_message_no_adjustment_set` saying why.
#' [causal_effects()] with `method = "local"` still gives the possible
#' effects in that case.
#'
#' Outcomes that are not possible descendants of any treatment have a total
#' effect of zero; they are left out of the set's construction (as
#' `pcalg::optAdjSet()` does), and when no outcome is a possible
#' descendant the result is the empty set.
#'
#' @param fit A fit of [calm()], [boss()] or [exact_search()] (its CPDAG
#'   `fit$cpdag_amat`), or a CPDAG or maximally oriented PDAG in any form
#'   [as_amat()] accepts (`[i, j] = 1` and `[j, i] = 0` for `i -> j`, both
#'   1 for an undirected edge). A DAG is used as it is.
#' @param x,y Treatments and outcomes: node names or column positions,
#'   disjoint.
#' @return A character vector of node names (possibly empty), or `NULL`
#'   when no valid adjustment set exists.
#' @references Henckel, L., Perković, E. and Maathuis, M. H. (2022).
#'   Graphical criteria for efficient total effect estimation via adjustment
#'   in causal linear models. *JRSS B* 84(2), 579-599.
#'
#'   Perković, E., Kalisch, M. and Maathuis, M. H. (2017). Interpreting and
#'   using CPDAGs with background knowledge. *UAI 2017*.
#' @seealso [causal_effects()]
#' @examples
#' # a -> b -> c, a -> c, d -> b: every edge is oriented
#' g <- matrix(0, 4, 4, dimnames = rep(list(c("a", "b", "c", "d")), 2))
#' g["a", "b"] <- g["b", "c"] <- g["a", "c"] <- g["d", "b"] <- 1
#' adjustment_set(g, "b", "c")
#' # an undirected edge at the treatment that leads to the outcome
#' u <- matrix(c(0, 1, 0, 1, 0, 1, 0, 1, 0), 3,
#'             dimnames = rep(list(c("a", "b", "c")), 2))
#' adjustment_set(u, "b", "c")
#' @export
adjustment_set <- function(fit, x, y) {
  call <- environment()
  g <- effects_graph(fit, "fit", call)
  nm <- rownames(g)
  xs <- node_arg(x, nm, "x", call)
  ys <- node_arg(y, nm, "y", call)
  check_disjoint(xs, ys, nm, call)
  res <- optimal_set(pdag_parts(g), xs, ys, check_amenable = TRUE)
  if (is.character(res)) {
    cli::cli_inform(c("No valid adjustment set for the effect of {.val {nm[xs]}} on {.val {nm[ys]}} exists in this class.",
                      i = res),
                    class = c("calm_message_no_adjustment_set", "calm_message"))
    return(NULL)
  }
  nm[res$set]
}

# The graph of a fit or a graph argument, as a 0/1 PDAG matrix with node
# names, checked for a directed cycle (no DAG of a class has one) and
# closed under Meek's rules (what the knowledge already implies).
effects_graph <- function(fit, arg, call) {
  if (inherits(fit, "calm_fit")) {
    check_fit_object(fit, arg, call = call)
    g <- fit[["cpdag_amat"]]
  } else {
    g <- graph_arg(fit, arg, call = call)
  }
  g[] <- as.double(g != 0)
  if (!cpp_is_dag(g * (t(g) == 0))) {
    abort_arg(arg, "has a directed cycle; a CPDAG, PDAG or DAG has none.", call = call)
  }
  meek_closure(g)
}

# Node arguments: names or positions, returned as positions.
node_arg <- function(v, nm, arg, call) {
  if (is.character(v) && length(v) && !anyNA(v)) {
    unknown <- setdiff(v, nm)
    if (length(unknown)) {
      abort_arg(arg, "names {.val {unknown}}, which {?is not a node/are not nodes} of the graph.", call = call)
    }
    pos <- match(v, nm)
  } else if (is.numeric(v) && length(v) && !anyNA(v) && all(v == round(v))) {
    if (any(v < 1 | v > length(nm))) {
      abort_arg(arg, "has positions outside 1 to {length(nm)}.", call = call)
    }
    pos <- as.integer(v)
  } else {
    abort_arg(arg, "must be node names or positions, not {.obj_type_friendly {v}}.", call = call)
  }
  if (anyDuplicated(pos)) abort_arg(arg, "names a node more than once.", call = call)
  pos
}

check_disjoint <- function(xs, ys, nm, call) {
  both <- intersect(xs, ys)
  if (length(both)) {
    abort_arg("y", "must differ from {.arg x}; {.val {nm[both]}} {?is/are} in both.", call = call)
  }
}

# Edge types of a PDAG, computed once: dir[i, j] for i -> j, und for i - j,
# nonadj[i, j] for distinct nodes that are not adjacent.
pdag_parts <- function(g) {
  dir <- g != 0 & t(g) == 0
  und <- g != 0 & t(g) != 0
  nonadj <- !(g != 0 | t(g) != 0)
  diag(nonadj) <- FALSE
  list(g = g, dir = dir, und = und, nonadj = nonadj)
}

# Nodes reachable from `from` along paths on which every edge is directed
# forwards or undirected, and every undirected edge after the first one
# continues a triple whose ends are not adjacent (the paths of Perković et
# al. 2017 that can be causal in a member of the class). The search runs
# over edges (previous node, current node), since whether a path may go on
# depends on where it came from. `backwards = TRUE` follows edges against
# their direction (possible ancestors). Nodes in `avoid` are never entered.
# `start`: a single first edge (from, start) instead of all of them.
possible_reach <- function(parts, from, avoid = integer(), backwards = FALSE, start = NULL) {
  dir <- if (backwards) t(parts$dir) else parts$dir
  und <- parts$und
  d <- nrow(dir)
  reached <- logical(d)
  reached[from] <- TRUE
  frontier <- matrix(FALSE, d, d)
  for (f in from) {
    nb <- if (is.null(start)) which(dir[f, ] | und[f, ]) else start
    frontier[f, nb] <- TRUE
  }
  frontier[, c(avoid, from)] <- FALSE
  seen <- frontier
  while (any(frontier)) {
    heads <- colSums(frontier) > 0
    reached[heads] <- TRUE
    step <- dir & heads
    step <- step | (und & crossprod(frontier, parts$nonadj) > 0)
    step[, avoid] <- FALSE
    frontier <- step & !seen
    seen <- seen | frontier
  }
  which(reached)
}

# One search from all of `xs` at once: a path through another start node is
# also a path from it, which starts with no condition on its first edge.
possible_descendants <- function(parts, xs) {
  if (!length(xs)) return(integer())
  possible_reach(parts, xs)
}

# The optimal adjustment set O(X, Y) in an MPDAG: the parents of the nodes
# on proper possibly causal paths (cn) that are not forbidden (possible
# descendants of cn, and X). Returns list(set, zero = outcomes that are not
# possible descendants of X), or a sentence saying why no valid set exists.
# `check_amenable = FALSE` when every edge at X is known to be directed.
optimal_set <- function(parts, xs, ys, check_amenable = FALSE, de_x = NULL) {
  if (is.null(de_x)) de_x <- possible_descendants(parts, xs)
  zero <- setdiff(ys, de_x)
  ys <- intersect(ys, de_x)
  if (!length(ys)) return(list(set = integer(), zero = zero))
  nm <- rownames(parts$g)
  if (check_amenable) {
    for (v in xs) for (s in which(parts$und[v, ])) {
      if (s %in% xs) next
      hit <- intersect(possible_reach(parts, v, avoid = setdiff(xs, v), start = s), ys)
      if (length(hit)) {
        return(sprintf("The graph is not amenable: the undirected edge %s - %s starts a path to %s that is causal in some DAG of the class.",
                       nm[v], nm[s], nm[hit[1]]))
      }
    }
  }
  an_y <- unique(unlist(lapply(ys, function(v) possible_reach(parts, v, avoid = xs, backwards = TRUE))))
  cn <- intersect(an_y, de_x)
  forb <- possible_descendants(parts, cn)
  if (length(intersect(forb, xs))) {
    v <- intersect(forb, xs)[1]
    return(sprintf("The treatment %s is a possible descendant of a node on a causal path from the treatments to the outcomes.",
                   nm[v]))
  }
  pa <- which(rowSums(parts$dir[, cn, drop = FALSE]) > 0)
  list(set = sort(setdiff(pa, c(forb, xs))), zero = zero)
}

# The orientations of the undirected edges at the treatments that some DAG
# of the class has: for each treatment, the candidate sets of new parents
# (cliques of its undirected neighbours, each adjacent to all its directed
# parents, so that no new v-structure forms at it), combined over the
# treatments, kept when the two ends of an edge between treatments agree
# and Meek's rules find no contradiction (Perković et al. 2017; needed for
# PDAGs under knowledge and for joint treatments). With `single_cpdag`
# (one treatment in a CPDAG) the clique test alone is exact (Maathuis et
# al. 2009). Returns a list of configurations: `parents` (one vector per
# treatment) and `graph` (the PDAG with the orientation added and closed,
# when `closed = TRUE`).
local_configurations <- function(parts, xs, single_cpdag = FALSE, closed = FALSE,
                                 max_configs = 1e5, call = parent.frame()) {
  sibs <- lapply(xs, function(v) which(parts$und[v, ]))
  pa <- lapply(xs, function(v) which(parts$dir[, v]))
  cand <- Map(function(s, p) parent_candidates(parts, s, p), sibs, pa)
  total <- prod(lengths(cand))
  if (total > max_configs) {
    abort_arg("x", "has {format(total)} combinations of local parent sets to check, more than {format(max_configs)}; choose fewer treatments or a sparser graph.",
              call = call)
  }
  grid <- as.matrix(expand.grid(lapply(cand, seq_along)))
  out <- list()
  for (r in seq_len(nrow(grid))) {
    new_pa <- Map(function(cs, k) cs[[k]], cand, grid[r, ])
    if (!treatment_edges_agree(xs, sibs, new_pa)) next
    g <- NULL
    if (closed || !single_cpdag) {
      g <- orient_at(parts$g, xs, sibs, new_pa)
      if (is.null(g)) next
    }
    out[[length(out) + 1L]] <- list(parents = Map(function(p, s) sort(c(p, s)), pa, new_pa),
                                    graph = g)
  }
  out
}

# Subsets of the undirected neighbours `s` that are cliques and adjacent to
# every directed parent in `p`.
parent_candidates <- function(parts, s, p) {
  ok <- s[!vapply(s, function(v) any(parts$nonadj[v, p]), logical(1))]
  out <- list(integer())
  for (v in ok) {
    grow <- Filter(function(S) !any(parts$nonadj[v, S]), out)
    out <- c(out, lapply(grow, function(S) c(S, v)))
  }
  out
}

# An undirected edge between two treatments must point into exactly one.
treatment_edges_agree <- function(xs, sibs, new_pa) {
  for (i in seq_along(xs)) for (j in intersect(sibs[[i]], xs)) {
    k <- match(j, xs)
    if ((j %in% new_pa[[i]]) == (xs[i] %in% new_pa[[k]])) return(FALSE)
  }
  TRUE
}

# The PDAG with the edges at the treatments oriented (new parents into the
# treatment, the other undirected neighbours out of it), one edge at a time
# with Meek's rules applied after each, or NULL when an edge has been
# forced the other way already (no DAG of the class has this orientation).
orient_at <- function(g, xs, sibs, new_pa) {
  for (i in seq_along(xs)) for (s in sibs[[i]]) {
    from <- if (s %in% new_pa[[i]]) s else xs[i]
    to <- if (from == s) xs[i] else s
    if (g[from, to] == 0) return(NULL)
    if (g[to, from] != 0) {
      g[to, from] <- 0
      g <- meek_closure(g)
    }
  }
  g
}
