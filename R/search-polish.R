# The interventional polish of the searches' DAGs: after a search that does
# not see the interventional score, an order search and (small d) the
# exact search with it. Above R/interventional-score.R (the score's
# statistics) and R/search-boss-call.R (the BOSS it runs).

# The orientations a DAG search reaches between observational equivalence
# classes (GES moves, BES) do not see the interventional score, which can
# tell members of one class apart. So after those searches the DAG is
# polished: an order search (BOSS without BES) inside `mask` (the pairs the
# search could join; NULL: the DAG's own skeleton) from the DAG's own order,
# then, for up to `exact_max_d` variables, the exact optimum inside the
# mask; the best-scoring DAG is kept. Returns list(dag, score).
polish_interventional <- function(dag, sigma, lambda, n, kn = NULL,
                                  exact_parents_max = search_default("exact_parents_max"),
                                  exact_max_d = search_default("exact_max_d"), mask = NULL) {
  mp <- max_parents_for(n)
  nm <- colnames(sigma)
  dag <- (dag != 0) * 1
  best <- list(dag = dag, score = cpp_dag_local_scores(sigma, dag, lambda, mp)$total)
  skel <- if (is.null(mask)) ((dag + t(dag)) != 0) * 1 else ((mask + t(mask) + dag + t(dag)) != 0) * 1
  if (!is.null(kn)) skel <- ((skel + kn$required + t(kn$required)) != 0) * 1
  storage.mode(skel) <- "double"
  order <- cpp_topological_order(dag)
  r <- boss_search(sigma, skel, lambda, matrix(as.integer(order), ncol = 1L),
                   search_default("max_sweeps"), exact_parents_max, FALSE, 1, kn = kn,
                   max_parents = mp)
  if (r$score < best$score - score_tol) best <- list(dag = r$dag, score = r$score)
  if (ncol(sigma) <= exact_max_d) {
    if (!is.null(kn)) skel[kn$forbidden != 0] <- 0
    ex <- cpp_exact_search(sigma, skel, lambda, exact_search_budget, kn$required, mp)
    if (ex$score < best$score - score_tol) best <- list(dag = ex$amat, score = ex$score)
  }
  best$dag <- (best$dag != 0) * 1
  dimnames(best$dag) <- list(nm, nm)
  best
}

# calm()'s refinement with targets: the refined DAG polished
# (polish_interventional()), its record's scores those of the polished DAG.
polish_refined <- function(ref, sigma, lambda, n, kn, ctrl) {
  t0 <- proc.time()[["elapsed"]]
  pol <- polish_interventional(ref$dag, sigma, lambda, n, kn,
                               exact_max_d = ctrl$search$exact_max_d,
                               mask = ref$record$mask)
  rec <- ref$record
  rec$polished <- any(pol$dag != ref$dag)
  rec$score_after <- pol$score
  rec$score_best <- pol$score
  rec$stage_seconds[["polish"]] <- proc.time()[["elapsed"]] - t0
  rec$seconds <- rec$seconds + rec$stage_seconds[["polish"]]
  list(dag = pol$dag, record = rec)
}
