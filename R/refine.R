# The refinement of calm(refine = "ges"), one pipeline with or without
# background knowledge: greedy equivalence search moves (C++ in
# src/ges_refine.cpp), BOSS (src/boss.cpp) and the exact search
# (src/exact_search.cpp).

# Tolerances and budgets shared by the searches: a move or a new graph must
# improve the score by more than `score_tol` to count; the order search makes
# at most `order_search_max_sweeps` passes per start; the refinement's exact
# search runs only when its tables fit in `exact_search_budget` bytes.
score_tol <- 1e-10
order_search_max_sweeps <- 100L
exact_search_budget <- 2 * 1024^3

# The options list cpp_ges_refine() reads (src/rcpp_ges.cpp, kGesFields).
ges_options <- function(forward, max_moves, backward = TRUE, turning = TRUE) {
  list(forward = forward, backward = backward, turning = turning, max_moves = max_moves,
       tol = score_tol)
}

# GES moves from the CPDAG `cpdag` inside the symmetric mask `allowed`,
# restricted to classes that obey the resolved knowledge `kn` (NULL: none).
ges_moves <- function(sigma, cpdag, lambda, allowed, options, kn = NULL, max_parents = -1L) {
  cpp_ges_refine(sigma, cpdag, lambda, allowed, options, kn$required, kn$forbidden, max_parents)
}

# Runs the refinement from the DAG `dag` (0/1, named) on covariance `sigma`,
# under the resolved background knowledge `kn` (NULL: none; see
# resolve_knowledge()). Returns the refined DAG (a member of the refined
# class that obeys the knowledge) and a record of what was done. Stages:
# GES moves from the start's class; GES from the empty graph (under
# knowledge: from the required edges); BOSS from several orders; the exact
# optimum for small d. Each stage keeps to the knowledge, and a stage's
# graph replaces the current one only when it scores better.
# `mask`: the moral graph (symmetric 0/1). `extend`: the moral graph was
# estimated (IAMB), so the GES start and the order search may look beyond
# it; a moral graph the user gave (or the exact one of a population
# covariance) is respected.
refine_dag <- function(dag, sigma, mask, lambda, ctrl, n = Inf, extend = TRUE, kn = NULL) {
  forward <- ctrl$refine_forward
  if (identical(forward, "auto")) forward <- !is.finite(n)
  nm <- colnames(sigma)
  d <- ncol(sigma)
  mp <- max_parents_for(n)
  t0 <- proc.time()[["elapsed"]]
  start <- cpp_dag_to_cpdag(dag)
  storage.mode(start) <- "double"
  # pairs that may be adjacent: the moral graph with the required pairs,
  # without pairs forbidden both ways
  allowed <- mask
  complete <- matrix(1, d, d) - diag(d)
  if (!is.null(kn)) {
    pairs <- 1 - (kn$forbidden != 0 & t(kn$forbidden) != 0)
    allowed <- pmax(allowed, kn$required, t(kn$required)) * pairs
    complete <- complete * pairs
  }
  diag(allowed) <- 0
  ges <- function(cp, fw = forward) {
    ges_moves(sigma, cp, lambda, allowed, ges_options(fw, ctrl$refine_max_moves), kn, mp)
  }
  r <- ges(start)
  moves <- moves_frame(r$moves, nm)
  score_before <- r$score_before
  cpdag <- r$cpdag
  score_now <- r$score_after
  # a second start that does not depend on the continuous phase: greedy
  # equivalence search from the empty graph (the required edges, under
  # knowledge) over all pairs; the better-scoring graph is kept
  if (isTRUE(ctrl$refine_empty_start)) {
    # unrestricted (when extend): IAMB at n = 1000 misses true moral edges that GES finds;
    # the edges it finds join the moral graph for the order search
    full <- if (extend) complete else allowed
    empty_start <- if (is.null(kn)) matrix(0, d, d) else cpp_dag_to_cpdag(kn$required) * 1
    empty <- ges_moves(sigma, empty_start, lambda, full,
                       ges_options(TRUE, ctrl$refine_max_moves), kn, mp)
    allowed <- pmax(allowed, empty$cpdag, t(empty$cpdag))
    if (empty$score_after < score_now - score_tol) {
      moves <- data.frame(type = "restart", from = NA_character_, to = NA_character_,
                          clique = "GES from the empty graph", delta = empty$score_after - score_now,
                          stringsAsFactors = FALSE)
      cpdag <- empty$cpdag
      score_now <- empty$score_after
    }
  }
  if (isTRUE(ctrl$refine_order)) {
    # BOSS from CALM's own order, the refined graph's order and random orders
    # drawn from R's RNG (set.seed() reproduces them); each start's graph is
    # pruned by backward equivalence search and the best one is refined by
    # GES moves again, kept only when the score improves. Under knowledge
    # each order is first rearranged so that required parents come first.
    dag_now <- member_dag(cpdag, kn)
    starts <- unique(list(cpp_topological_order(dag), cpp_topological_order(dag_now)))
    starts <- c(starts, lapply(seq_len(max(0L, ctrl$refine_order_starts - length(starts))),
                               function(i) sample.int(d)))
    # all pairs up to refine_order_all_pairs variables: on dense graphs the
    # IAMB moral graph at n = 1000 misses many true edges
    all_pairs <- extend && d <= ctrl$refine_order_all_pairs
    order_mask <- if (all_pairs) complete else allowed
    boss_at <- function(mask, starts, bes, ratio) {
      boss_search(sigma, mask, lambda, starts, order_search_max_sweeps, ctrl$refine_exact_limit,
                  bes, ratio, kn = kn, max_parents = mp)
    }
    # with a given moral graph the search keeps to it, but its landscape is
    # rugged there: on dense graphs orders close to a true one give graphs
    # that need edges outside the mask. More starts: the orders where the
    # same starts end in a search over all pairs (their graphs are not used)
    if (!extend && isTRUE(ctrl$refine_order_free_starts) && d <= ctrl$refine_order_all_pairs &&
        any(allowed[row(allowed) != col(allowed)] == 0)) {
      free <- boss_at(complete, matrix(unlist(starts), nrow = d), FALSE, 1)
      starts <- unique(c(starts, lapply(seq_len(ncol(free$orders)), function(k) free$orders[, k])))
    }
    # the starts run with the plain grow step and, unless refine_grow_ratio
    # is 1, again with the longer one; the better result is kept (ties: the
    # plain one). Neither ratio's landscape is better on every graph.
    start_mat <- matrix(unlist(starts), nrow = d)
    os <- boss_at(order_mask, start_mat, TRUE, 1)
    os_ratio <- 1
    if (ctrl$refine_grow_ratio < 1) {
      os_grow <- boss_at(order_mask, start_mat, TRUE, ctrl$refine_grow_ratio)
      if (os_grow$score < os$score - score_tol) {
        os <- os_grow
        os_ratio <- ctrl$refine_grow_ratio
      }
    }
    # kicks: a few nodes of the best order so far moved to random places and
    # the search run again from there, alternating the grow ratios; kept
    # when the score improves
    os <- kick_search(os, sigma, order_mask, lambda, order_search_max_sweeps,
                      ctrl$refine_exact_limit, TRUE, os_ratio, ctrl$refine_kicks,
                      ctrl$refine_kick_size, unique(c(1, ctrl$refine_grow_ratio)), kn = kn,
                      max_parents = mp)
    n_kicks <- os$kicks_improved
    if (all_pairs) allowed <- pmax(allowed, os$dag, t(os$dag))
    if (os$score < score_now - score_tol) {
      r2 <- ges(os$cpdag)
      if (r2$score_after < score_now - score_tol) {
        ratios <- if (ctrl$refine_grow_ratio < 1) {
          sprintf(" at grow ratios 1 and %g", ctrl$refine_grow_ratio)
        } else {
          ""
        }
        if (n_kicks > 0) ratios <- sprintf("%s, then %d of %d kicks", ratios, n_kicks, ctrl$refine_kicks)
        moves <- rbind(moves, data.frame(type = "order", from = NA_character_, to = NA_character_,
                                         clique = sprintf("BOSS, best of %d starts%s",
                                                          length(starts), ratios),
                                         delta = os$score - score_now, stringsAsFactors = FALSE),
                       moves_frame(r2$moves, nm))
        cpdag <- r2$cpdag
        score_now <- r2$score_after
      }
    }
  }
  # the exact optimum where it is cheap: over all pairs when the moral graph
  # was estimated, inside the mask otherwise; under knowledge, over the DAGs
  # that obey it
  if (d <= ctrl$refine_exact_max_d) {
    exact_mask <- if (extend) complete else allowed
    if (!is.null(kn)) exact_mask <- pmax(exact_mask * (kn$forbidden == 0), kn$required)
    storage.mode(exact_mask) <- "double"
    if (cpp_exact_search_bytes(pmax(exact_mask, t(exact_mask))) <= exact_search_budget) {
      ex <- cpp_exact_search(sigma, exact_mask, lambda, exact_search_budget, kn$required, mp)
      if (ex$score < score_now - score_tol) {
        moves <- rbind(moves, data.frame(type = "exact", from = NA_character_, to = NA_character_,
                                         clique = "exact search", delta = ex$score - score_now,
                                         stringsAsFactors = FALSE))
        ex_dag <- ex$amat
        storage.mode(ex_dag) <- "double"
        cpdag <- cpp_dag_to_cpdag(ex_dag)
        storage.mode(cpdag) <- "double"
        score_now <- ex$score
      }
    }
  }
  cpdag <- set_node_names(cpdag, nm)
  # keep the DAG when the class did not change, so that the refined fit of
  # an unchanged graph is the same DAG
  new_dag <- if (nrow(moves) == 0L) dag else set_node_names(member_dag(cpdag, kn), nm)
  record <- list(method = "ges", lambda = lambda, forward = forward,
                 dag_before = dag, cpdag_before = set_node_names(start, nm),
                 score_before = score_before, score_after = score_now,
                 moves = moves, mask = set_node_names(allowed, nm),
                 seconds = proc.time()[["elapsed"]] - t0)
  if (!is.null(kn)) record <- append(record, list(knowledge = TRUE), after = 9L)
  list(dag = new_dag, record = record)
}

# A member DAG of the class of `cpdag` that obeys the knowledge `kn` (any
# consistent extension when `kn` is NULL).
member_dag <- function(cpdag, kn = NULL) {
  dag <- if (is.null(kn)) {
    cpp_pdag_extension(cpdag)
  } else {
    cpp_knowledge_extension(cpdag, kn$required, kn$forbidden)
  }
  if (is.null(dag)) cli::cli_abort("internal error: the refined graph has no member that obeys the knowledge.")
  dag
}

# The moves reported by cpp_ges_refine() as a data frame with node names.
moves_frame <- function(m, nm) {
  data.frame(
    type = m$type, from = nm[m$from], to = nm[m$to],
    clique = vapply(m$clique, function(k) paste(nm[k], collapse = ","), character(1)),
    delta = m$delta, stringsAsFactors = FALSE
  )
}
