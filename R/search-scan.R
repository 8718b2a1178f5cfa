# The refinement's search beyond the pairs it may join, led by the score:
# above search_control(all_pairs_max_d) variables the steps beyond an
# estimated moral graph look only at the pairs within two steps of it
# (wide_pairs()). Where a node's conditional independences are nearly
# violated (a child that almost determines its parent hides the parent's
# other neighbours from IAMB's tests), true edges lie outside those pairs,
# and the searches inside them end far from graphs that score much better.
# The scan finds, over all pairs, those whose single insertion into the
# current graph would improve the score; they join the pairs that may be
# adjacent and BOSS runs again from the current order.

# The pairs (i, j), i != j, outside `allowed` where adding i as a parent of j
# in the DAG `dag` improves j's local score by more than the penalty
# (src/search_scan.h): a two-column matrix (from, to), ordered by `to`, then
# `from`. `threads`: the heads spread over that many threads (the same pairs).
insertion_gains <- function(sigma, dag, lambda, allowed, max_parents = -1L, threads = 1L) {
  if (!is.double(dag)) storage.mode(dag) <- "double"
  if (!is.double(allowed)) storage.mode(allowed) <- "double"
  cpp_improving_insertions(sigma, dag, allowed, lambda, max_parents, as.integer(threads))
}

# The pairs (i, j) outside `allowed`, i != j, two steps apart in `dag`: a
# directed path i -> k -> j, or two parents of one child k (i -> k <- j): a
# two-column matrix (from, to; co-parents once, either way). Where a child k
# nearly determines its parent j, the search often reverses the edge and
# hangs j's parents on k; j's true parents are then its grandparents or k's
# co-parents, and no single insertion into j pays while k stands between
# them (on one scale-free graph of 1000 variables, 10 true parents of one
# node sat on its child; on another, a true edge whose marginal correlation
# nearly cancelled became a collider's two parents). The cost is the sum
# over nodes of their parents' in-degrees and of their squared in-degrees;
# the DAG is read one column at a time (no second d x d matrix).
two_step_pairs <- function(dag, allowed) {
  d <- ncol(dag)
  pa <- lapply(seq_len(d), function(j) which(dag[, j] != 0))
  found <- lapply(seq_len(d), function(j) {
    g <- unique(unlist(pa[pa[[j]]], use.names = FALSE))
    g <- g[g != j]
    g <- g[allowed[g, j] == 0]
    rbind(if (length(g)) cbind(g, j), co_parent_pairs(pa[[j]], allowed))
  })
  out <- do.call(rbind, found)
  if (is.null(out)) return(matrix(0L, 0, 2))
  unname(out)
}

# The pairs of the parents `p` of one node that are not adjacent in
# `allowed`: a two-column matrix, or NULL.
co_parent_pairs <- function(p, allowed) {
  if (length(p) < 2L) return(NULL)
  cc <- t(utils::combn(p, 2L))
  cc <- cc[allowed[cc] == 0, , drop = FALSE]
  if (nrow(cc)) cc
}

# Rounds of: scan, widen `allowed` by the pairs found, then BOSS from the
# current graph's order inside the wider pairs and GES moves from its graph,
# which replaces the current class when it scores better; else the rounds
# stop (a round that changes nothing would find the same pairs again). At
# most SCAN_ROUNDS rounds: on scale-free graphs of 1000 variables the rounds
# stopped after two to four. GES moves with insertions from the current
# class before BOSS (an earlier version) gained nothing on four scale-free
# graphs (SHD 77, 92, 100, 2 with them against 73, 79, 97, 0 without) and
# raised the peak memory by their insertion cache (1257 against 1166 MB at
# 2000 variables; 1.2 GB more than without the scan at 5000).
SCAN_ROUNDS <- 5L
refine_scan_beyond <- function(ctx, state) {
  rounds <- 0L
  added <- 0L
  gain <- 0
  for (round in seq_len(SCAN_ROUNDS)) {
    dag <- member_dag(state$cpdag, ctx$kn)
    hits <- rbind(insertion_gains(ctx$sigma, dag, ctx$lambda, state$allowed, ctx$mp,
                                  search_threads(ctx, TRUE)),
                  two_step_pairs(dag, state$allowed))
    hits <- hits[!duplicated(hits), , drop = FALSE]
    if (!is.null(ctx$kn)) {
      both <- ctx$kn$forbidden[hits] != 0 & ctx$kn$forbidden[hits[, 2:1, drop = FALSE]] != 0
      hits <- hits[!both, , drop = FALSE]
    }
    if (!nrow(hits)) break
    state$allowed[hits] <- 1
    state$allowed[hits[, 2:1, drop = FALSE]] <- 1
    added <- added + nrow(hits)
    rounds <- round
    # BOSS from the current graph's order, then GES moves from its graph
    start <- cpp_topological_order(dag)
    # each round holds at most the pairs, the class and one search's
    # graphs: the DAG, BOSS's result and the round before are freed as soon
    # as they are used (at 10,000 variables each is 0.8 GB; a scale-free
    # graph's fit peaked 3.5 GB higher in this stage before they were)
    rm(dag)
    os <- refine_boss(ctx, state$allowed, matrix(start, ncol = 1), TRUE, 1)
    cp <- os$cpdag
    rm(os)
    release_memory(ctx$d)
    r2 <- refine_ges(ctx, cp, state$allowed)
    rm(cp)
    improved <- r2$score_after < state$score - score_tol
    if (improved) {
      gain <- gain + r2$score_after - state$score
      state$cpdag <- r2$cpdag
      state$score <- r2$score_after
    }
    rm(r2)
    release_memory(ctx$d)
    if (!improved) break
  }
  if (gain < 0) {
    what <- sprintf("BOSS beyond the pairs, %d rounds, %d pairs added by the score and two-step paths", rounds, added)
    state$moves <- rbind(state$moves, stage_move("order", what, gain))
  }
  state
}

# The scan's kicks for `d` variables and `n` rows: search_control(scan_kicks),
# whose "auto" is 150 up to SCAN_KICKS_AUTO_MAX_D variables, and at any size
# when n <= d; 50 otherwise. On scale-free graphs of 1000 and 2000 variables
# the kicks past the 50th still found better graphs (on 9 of 20 graphs;
# 2000 variables, n = 4000, seed 76002: SHD 41 with 50 kicks, where boss()
# at discount 4 reached 26, and 0 with 150), at a few seconds a fit; at 5000
# variables with n = 3000 (scale-free) 150 kicks took the SHD from 101 to 2
# and from 39 to 0 (run d5000_10), at about 0.5 s a kick. With n = 10,000 a
# kick costs 2-3 s (more parents pass the grow step, so BOSS's trees are
# larger), and 150 of them took a fit of 5000 variables past ten minutes
# (717 s against 459 s with 50, same graph and SHD).
SCAN_KICKS_AUTO_MAX_D <- 3000
scan_kicks_for <- function(kicks, d, n = Inf) {
  if (!identical(kicks, "auto")) return(kicks)
  if (d <= SCAN_KICKS_AUTO_MAX_D || n <= d) 150L else 50L
}

# After the scan's rounds (refine_dag()'s stage "kicks"): BOSS from the
# current graph's order inside the widened pairs, then
# search_control(scan_kicks) kicks of SCAN_KICK_SIZE variables, in one
# kick_search() call (its search from the start order comes first), and GES
# moves from the best graph, which replaces the current class when it scores
# better. Inside an estimated moral graph the search stops at local optima
# around hubs that a few moved variables leave: BOSS's own kicks (5
# variables, before the scan) do not reach them. Each kicked order is
# repaired around the moved variables only (kick_search(local = TRUE)): full
# sweeps after every kick cost d^2 each, 771 of 1855 s at 10,000 variables.
SCAN_KICK_SIZE <- 20L
refine_scan_kicks <- function(ctx, state) {
  kicks <- scan_kicks_for(ctx$ctrl$search$scan_kicks, ctx$d, ctx$n)
  size <- min(SCAN_KICK_SIZE, ctx$d)
  # (score Inf: the search's own graph is kept whatever it scores)
  start <- list(order = cpp_topological_order(member_dag(state$cpdag, ctx$kn)), score = Inf)
  os <- kick_search(start, ctx$sigma, state$allowed, ctx$lambda, ctx$ctrl$search$max_sweeps,
                    ctx$ctrl$search$exact_parents_max, TRUE, 1, kicks, size, 1, kn = ctx$kn,
                    max_parents = ctx$mp, with_dag = FALSE, local = TRUE,
                    threads = search_threads(ctx, TRUE))
  n_kicks <- os$kicks_improved
  cp <- os$cpdag
  rm(os)
  release_memory(ctx$d)
  r2 <- refine_ges(ctx, cp, state$allowed)
  rm(cp)
  if (r2$score_after < state$score - score_tol) {
    what <- sprintf("BOSS with %d of %d kicks of %d variables", n_kicks, kicks, size)
    state$moves <- rbind(state$moves, stage_move("order", what, r2$score_after - state$score))
    state$cpdag <- r2$cpdag
    state$score <- r2$score_after
  }
  state
}
