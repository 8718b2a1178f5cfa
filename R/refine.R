# Refinement of a learned graph by greedy equivalence search moves (C++ in
# src/ges_refine.cpp), used by calm(refine = "ges").

# Runs the refinement from the DAG `dag` (0/1, named) on covariance `sigma`.
# Returns the refined DAG (a consistent extension of the refined CPDAG) and
# a record of what was done.
# `extend`: the moral graph was estimated (IAMB), so the GES start and the
# order search may look beyond it; a moral graph the user gave (or the exact
# one of a population covariance) is respected.
refine_dag <- function(dag, sigma, mask, lambda, ctrl, n = Inf, extend = TRUE) {
  forward <- ctrl$refine_forward
  if (identical(forward, "auto")) forward <- !is.finite(n)
  nm <- colnames(sigma)
  mp <- max_parents_for(n)
  t0 <- proc.time()[["elapsed"]]
  start <- cpp_dag_to_cpdag(dag)
  storage.mode(start) <- "double"
  allowed <- mask
  diag(allowed) <- 0
  ges <- function(cp, fw = forward) {
    cpp_ges_refine(sigma, cp, lambda, allowed, fw, TRUE, TRUE, ctrl$refine_max_moves, mp)
  }
  r <- ges(start)
  moves <- moves_frame(r$moves, nm)
  score_before <- r$score_before
  cpdag <- r$cpdag
  score_now <- r$score_after
  # a second start that does not depend on the continuous phase: greedy
  # equivalence search from the empty graph over all pairs; the
  # better-scoring graph is kept
  d <- ncol(sigma)
  complete <- matrix(1, d, d) - diag(d)
  if (isTRUE(ctrl$refine_empty_start)) {
    # unrestricted (when extend): IAMB at n = 1000 misses true moral edges that GES finds;
    # the edges it finds join the moral graph for the order search
    full <- if (extend) complete else allowed
    empty <- cpp_ges_refine(sigma, matrix(0, d, d), lambda, full, TRUE, TRUE, TRUE,
                            ctrl$refine_max_moves, mp)
    allowed <- pmax(allowed, empty$cpdag, t(empty$cpdag))
  }
  if (isTRUE(ctrl$refine_empty_start) && empty$score_after < score_now - 1e-10) {
    moves <- data.frame(type = "restart", from = NA_character_, to = NA_character_,
                        clique = "GES from the empty graph", delta = empty$score_after - score_now,
                        stringsAsFactors = FALSE)
    cpdag <- empty$cpdag
    score_now <- empty$score_after
  }
  if (isTRUE(ctrl$refine_order)) {
    # BOSS from CALM's own order, the refined graph's order and random orders
    # drawn from R's RNG (set.seed() reproduces them); each start's graph is
    # pruned by backward equivalence search and the best one is refined by
    # GES moves again, kept only when the score improves
    dag_now <- cpp_pdag_extension(cpdag)
    starts <- unique(list(cpp_topological_order(dag), cpp_topological_order(dag_now)))
    starts <- c(starts, lapply(seq_len(max(0L, ctrl$refine_order_starts - length(starts))),
                               function(i) sample.int(d)))
    # all pairs up to refine_order_all_pairs variables: on dense graphs the
    # IAMB moral graph at n = 1000 misses many true edges
    all_pairs <- extend && d <= ctrl$refine_order_all_pairs
    order_mask <- if (all_pairs) complete else allowed
    # with a given moral graph the search keeps to it, but its landscape is
    # rugged there: on dense graphs orders close to a true one give graphs
    # that need edges outside the mask. More starts: the orders where the
    # same starts end in a search over all pairs (their graphs are not used)
    if (!extend && isTRUE(ctrl$refine_order_free_starts) && d <= ctrl$refine_order_all_pairs &&
        any(allowed[row(allowed) != col(allowed)] == 0)) {
      free <- cpp_boss(sigma, complete, lambda, matrix(unlist(starts), nrow = d),
                       100L, ctrl$refine_exact_limit, FALSE, 1, no_kicks(), numeric(), mp)
      starts <- unique(c(starts, lapply(seq_len(ncol(free$orders)), function(k) free$orders[, k])))
    }
    # the starts run with the plain grow step and, unless refine_grow_ratio
    # is 1, again with the longer one; the better result is kept (ties: the
    # plain one). Neither ratio's landscape is better on every graph.
    start_mat <- matrix(unlist(starts), nrow = d)
    os <- cpp_boss(sigma, order_mask, lambda, start_mat, 100L, ctrl$refine_exact_limit, TRUE, 1,
                   no_kicks(), numeric(), mp)
    os_ratio <- 1
    if (ctrl$refine_grow_ratio < 1) {
      os_grow <- cpp_boss(sigma, order_mask, lambda, start_mat, 100L, ctrl$refine_exact_limit,
                          TRUE, ctrl$refine_grow_ratio, no_kicks(), numeric(), mp)
      if (os_grow$score < os$score - 1e-10) {
        os <- os_grow
        os_ratio <- ctrl$refine_grow_ratio
      }
    }
    # kicks: a few nodes of the best order so far moved to random places and
    # the search run again from there, alternating the grow ratios; kept
    # when the score improves
    os <- kick_search(os, sigma, order_mask, lambda, 100L, ctrl$refine_exact_limit, TRUE, os_ratio,
                      ctrl$refine_kicks, ctrl$refine_kick_size, unique(c(1, ctrl$refine_grow_ratio)),
                      max_parents = mp)
    n_kicks <- os$kicks_improved
    if (all_pairs) allowed <- pmax(allowed, os$dag, t(os$dag))
    if (os$score < score_now - 1e-10) {
      r2 <- ges(os$cpdag)
      if (r2$score_after < score_now - 1e-10) {
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
  # was estimated, inside the mask otherwise
  if (d <= ctrl$refine_exact_max_d) {
    exact_mask <- if (extend) complete else allowed
    storage.mode(exact_mask) <- "double"
    budget <- 2 * 1024^3
    if (cpp_exact_search_bytes(exact_mask) <= budget) {
      ex <- cpp_exact_search(sigma, exact_mask, lambda, budget, NULL, mp)
      if (ex$score < score_now - 1e-10) {
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
  new_dag <- if (nrow(moves) == 0L) dag else set_node_names(cpp_pdag_extension(cpdag), nm)
  list(dag = new_dag,
       record = list(method = "ges", lambda = lambda, forward = forward,
                     dag_before = dag, cpdag_before = set_node_names(start, nm),
                     score_before = score_before, score_after = score_now,
                     moves = moves, mask = set_node_names(allowed, nm),
                     seconds = proc.time()[["elapsed"]] - t0))
}

# The moves reported by cpp_ges_refine() as a data frame with node names.
moves_frame <- function(m, nm) {
  data.frame(
    type = m$type, from = nm[m$from], to = nm[m$to],
    clique = vapply(m$clique, function(k) paste(nm[k], collapse = ","), character(1)),
    delta = m$delta, stringsAsFactors = FALSE
  )
}
