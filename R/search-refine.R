# The refinement of calm(refine = "ges"), one pipeline with or without
# background knowledge: greedy equivalence search moves (C++ in
# src/search_ges.cpp), BOSS (src/search_boss.cpp) and the exact search
# (src/search_exact.cpp).

# Tolerances and budgets shared by the searches: a move or a new graph must
# improve the score by more than `score_tol` to count (BOSS makes at most
# search_control(max_sweeps) passes per start); the refinement's exact
# search runs only when its tables fit in `exact_search_budget` bytes.
score_tol <- 1e-10
# The relative residual variance below which a regression is exact, hence
# not scored (LocalScore::kAdmissibleFloor in src/search_score.h).
admissible_floor <- 1e-12
exact_search_budget <- 2 * 1024^3
# BOSS's caches (grow-shrink trees, local scores) are emptied
# and rebuilt when they hold more than `search_cache_budget` bytes: on dense
# graphs they grew to several GB. Results do not depend on it.
search_cache_budget <- 1024^3

# Runs the refinement from the DAG `dag` (0/1, named) on covariance `sigma`,
# under the resolved background knowledge `kn` (NULL: none; see
# resolve_knowledge()). Returns the refined DAG (a member of the refined
# class that obeys the knowledge) and a record of what was done. Stages:
# GES moves from the start's class; GES from the empty graph (under
# knowledge: from the required edges); BOSS from several orders; the exact
# optimum for small d. Each stage keeps to the knowledge, and a stage's
# graph replaces the current one only when it scores better. Last, the
# minimum-risk choice among local optima (R/search-risk.R), which may return a
# graph that scores slightly worse.
# `mask`: the moral graph (symmetric 0/1). `extend`: the moral graph was
# estimated (IAMB), so the GES start and BOSS may look beyond
# it; a moral graph the user gave (or the exact one of a population
# covariance) is respected.
refine_dag <- function(dag, sigma, mask, lambda, ctrl, n = Inf, extend = TRUE, kn = NULL,
                       phase = no_phase) {
  forward <- ctrl$search$forward
  if (identical(forward, "auto")) forward <- !is.finite(n)
  t0 <- proc.time()[["elapsed"]]
  ctx <- refine_context(sigma, mask, lambda, ctrl, n, extend, kn, forward)
  release_memory(ctx$d)
  # each stage's seconds, in the record; between stages, at scale, R's
  # garbage (d x d matrices of the stage before) is freed
  last <- t0
  clock <- numeric()
  lap <- function(stage) {
    release_memory(ctx$d)
    now <- proc.time()[["elapsed"]]
    clock[[stage]] <<- now - last
    last <<- now
  }
  phase("refinement: GES moves from the start")
  r <- refine_ges(ctx, start_cpdag(dag), ctx$allowed)
  score_before <- r$score_before
  # what the stages pass on: the current class, its score, the moves made
  # and the pairs that may be adjacent (the stages may widen them)
  state <- list(cpdag = r$cpdag, score = r$score_after, moves = moves_frame(r$moves, ctx$nm),
                allowed = ctx$allowed)
  rm(r)
  lap("ges_start")
  phase("refinement: GES from the empty graph")
  if (isTRUE(ctrl$search$empty_start)) state <- refine_from_empty(ctx, state)
  lap("ges_empty")
  phase("refinement: BOSS")
  if (isTRUE(ctrl$search$order_search)) state <- refine_by_order(ctx, state, dag)
  lap("boss")
  clock <- split_wide_clock(clock, state$wide_seconds)
  scan_run <- isTRUE(ctrl$search$scan_beyond) && ctx$extend &&
    ctx$d > ctrl$search$all_pairs_max_d
  if (scan_run) {
    phase("refinement: BOSS beyond the pairs, led by the score")
    ctx <- scan_context(ctx)
    release_memory(ctx$d)
    state <- refine_scan_beyond(ctx, state)
  }
  lap("scan")
  kicks_run <- scan_run && scan_kicks_for(ctrl$search$scan_kicks, ctx$d, ctx$n) > 0
  if (kicks_run) state <- refine_scan_kicks(ctx, state)
  lap("kicks")
  exact_run <- ctx$d <= ctrl$search$exact_max_d && exact_pays(state)
  phase("refinement: exact search and minimum risk")
  if (exact_run) state <- refine_exact(ctx, state)
  lap("exact")
  score_best <- state$score
  min_risk_run <- min_risk_applies(ctx)
  state <- refine_min_risk(ctx, state)
  lap("min_risk")
  # the stages that ran, in order (the record's `stages`)
  ran <- c(ges_start = TRUE, ges_empty = isTRUE(ctrl$search$empty_start),
           boss = isTRUE(ctrl$search$order_search), boss_wide = !is.null(state$wide_seconds),
           scan = scan_run, kicks = kicks_run,
           exact = exact_run, min_risk = min_risk_run)
  nm <- ctx$nm
  # the pairs beyond the moral graph are not needed any more: free them
  # before the record's d x d matrices are made
  ctx$complete <- NULL
  release_memory(ctx$d)
  cpdag <- set_node_names(state$cpdag, nm)
  # keep the DAG when the class did not change, so that the refined fit of
  # an unchanged graph is the same DAG
  new_dag <- if (nrow(state$moves) == 0L) dag else set_node_names(member_dag(cpdag, kn), nm)
  record <- list(method = "search", stages = names(ran)[ran], lambda = lambda,
                 forward = forward,
                 dag_before = dag,
                 score_before = score_before, score_after = state$score,
                 score_best = score_best, exact_run = exact_run, moves = state$moves,
                 mask = set_node_names(state$allowed, nm),
                 seconds = proc.time()[["elapsed"]] - t0, stage_seconds = clock)
  if (!is.null(kn)) {
    record <- append(record, list(knowledge = TRUE), after = match("mask", names(record)))
  }
  list(dag = new_dag, record = record)
}

# The stage clock with BOSS's search over all pairs (`wide`, its seconds, or
# NULL) apart from the rest of the BOSS stage.
split_wide_clock <- function(clock, wide) {
  if (is.null(wide)) return(clock)
  clock[["boss_wide"]] <- wide
  clock[["boss"]] <- clock[["boss"]] - wide
  clock
}

# The CPDAG of the start `dag`, as the GES moves read it (doubles).
start_cpdag <- function(dag) {
  cp <- cpp_dag_to_cpdag(dag)
  storage.mode(cp) <- "double"
  cp
}

# A phase callback that reports nothing (see fit_progress()).
no_phase <- function(phase = NULL) invisible()

# The phases of one calm() fit as a progressr bar, shown under the user's
# progressr handlers (progressr::with_progress(calm(x)), or
# progressr::handlers(global = TRUE)): each call names the phase that
# starts; a call without a phase fills the bar. FIT_PHASES is the most a fit
# reports (covariance, moral graph, continuous phase, penalty, the five of
# each refinement, the choice in order).
FIT_PHASES <- 15L
fit_progress <- function() {
  # finished when calm() returns (or fails), not when this function does
  p <- progressr::progressor(steps = FIT_PHASES, envir = parent.frame())
  done <- 0L
  function(phase = NULL) {
    if (is.null(phase)) {
      if (done < FIT_PHASES) p(amount = FIT_PHASES - done, message = "done")
      done <<- FIT_PHASES
    } else if (done < FIT_PHASES - 1L) {
      done <<- done + 1L
      p(message = phase)
    } else {
      p(amount = 0, message = phase)
    }
    invisible()
  }
}

# What every stage of refine_dag() reads: the data, penalty, settings and
# knowledge, and the pairs that may be adjacent: `allowed`, the moral graph
# with the required pairs and without pairs forbidden both ways, and
# `complete`, the pairs the steps beyond the moral graph may look at
# (wide_pairs()), but those forbidden both ways.
refine_context <- function(sigma, mask, lambda, ctrl, n, extend, kn, forward) {
  d <- ncol(sigma)
  allowed <- mask
  pairs <- if (!is.null(kn)) 1 - (kn$forbidden != 0 & t(kn$forbidden) != 0)
  if (!is.null(kn)) allowed <- pmax(allowed, kn$required, t(kn$required)) * pairs
  # (the moral graph itself when its diagonal is clear: no copy of d x d)
  if (any(diag(allowed) != 0)) diag(allowed) <- 0
  complete <- wide_pairs(allowed, extend, ctrl$search$all_pairs_max_d, moral_threads(ctrl, d))
  if (!is.null(kn)) complete <- complete * pairs
  list(sigma = sigma, lambda = lambda, ctrl = ctrl, kn = kn, n = n, mp = max_parents_for(n),
       grow_ratio = refine_grow_ratio(ctrl$search$grow_ratio, n, d),
       extend = extend, forward = forward, nm = colnames(sigma), d = d, allowed = allowed,
       complete = complete)
}

# The context of the scan's rounds: the two-hop pairs serve only the exact
# and minimum-risk steps after it, so where neither runs their d x d matrix
# is dropped (freed once the caller's context is replaced).
scan_context <- function(ctx) {
  if (ctx$d > ctx$ctrl$search$exact_max_d && !min_risk_applies(ctx)) ctx$complete <- NULL
  ctx
}

# The pairs that the steps beyond an estimated moral graph (GES from the
# empty graph, BOSS beyond the moral graph, the minimum-risk step) may join:
# every pair up to `max_d` variables (search_control(all_pairs_max_d)), and
# above it the pairs of the moral graph `allowed` and those that share a
# neighbour in it, so that their cost follows the moral graph's edges (at
# d = 1000 the two steps over all pairs took 120 of a fit's 155 seconds).
wide_pairs <- function(allowed, extend, max_d, threads = 1L) {
  d <- ncol(allowed)
  if (!extend || d <= max_d) return(matrix(1, d, d) - diag(d))
  two_hop_pairs(allowed, threads)
}

# The symmetric 0/1 matrix of the pairs adjacent in `adj` or with a common
# neighbour there (no diagonal): each node's neighbourhood made a clique,
# at a cost of the sum of the squared degrees, shared by `threads`.
two_hop_pairs <- function(adj, threads = 1L) {
  # in C++ from each node's neighbours (R's loop over them took 0.6 s at
  # 5000 variables, on one thread; the dense transposes and maxima before it
  # five d x d matrices, 4 GB, at 10,000)
  if (!is.double(adj)) storage.mode(adj) <- "double"
  cpp_two_hop_pairs(adj, as.integer(threads))
}

# `allowed` with the pairs adjacent in the graph `g` added (both ways), in
# place where `allowed` is not shared.
widen_pairs <- function(allowed, g) {
  # (without the d x d logical matrix of which(g != 0), and without a copy
  # of `allowed` when it holds every pair already)
  at <- nonzero_pairs(g)
  at <- rbind(at, at[, 2:1, drop = FALSE])
  at <- at[allowed[at] < 1, , drop = FALSE]
  if (nrow(at)) allowed[at] <- 1
  allowed
}

# The grow ratio of the refinement's BOSS: `"auto"` is 0.5 with no more
# observations than variables, where the second run of every start paid in
# the stage ablation (inst/bench/bench_stages.R), and 1 (one run) otherwise,
# where it changed no graph's accuracy and cost about 15% of a fit.
refine_grow_ratio <- function(ratio, n, d) {
  if (!identical(ratio, "auto")) return(ratio)
  if (n <= d) 0.5 else 1
}

# A second start that does not depend on the continuous phase: greedy
# equivalence search from the empty graph (the required edges, under
# knowledge) over all pairs; the better-scoring graph is kept, and the edges
# it finds join the pairs BOSS may use.
refine_from_empty <- function(ctx, state) {
  # unrestricted (when extend): IAMB at n = 1000 misses true moral edges that
  # GES finds; at d = 1000 this takes seconds (insertions kept between moves)
  full <- if (ctx$extend) ctx$complete else state$allowed
  # (0 x 0: the empty graph, without a d x d matrix of zeros)
  empty_start <- if (is.null(ctx$kn)) matrix(0, 0, 0) else cpp_dag_to_cpdag(ctx$kn$required) * 1
  empty <- refine_ges(ctx, empty_start, full, forward = TRUE)
  state$allowed <- widen_pairs(state$allowed, empty$cpdag)
  if (empty$score_after < state$score - score_tol) {
    state$moves <- stage_move("restart", "GES from the empty graph", empty$score_after - state$score)
    state$cpdag <- empty$cpdag
    state$score <- empty$score_after
  }
  state
}

# BOSS from CALM's own order, the refined graph's order and random orders
# drawn from R's RNG (set.seed() reproduces them); each start's graph is
# pruned by backward equivalence search and the best one is refined by GES
# moves again, kept only when the score improves. Under knowledge each order
# is first rearranged so that required parents come first.
refine_by_order <- function(ctx, state, dag) {
  ctrl <- ctx$ctrl
  starts <- refine_order_starts(ctx, state, dag)
  all_pairs <- order_over_all_pairs(ctx)
  order_mask <- if (all_pairs) ctx$complete else state$allowed
  os <- refine_best_order(ctx, order_mask, starts)
  state$order_agreement <- start_agreement(os)
  state$risk_pool <- os$risk_pool
  wide <- ctx$extend && !all_pairs && ctrl$search$order_wide_starts > 0
  if (wide) {
    t0 <- proc.time()[["elapsed"]]
    os <- refine_order_beyond_mask(ctx, os)
    state$wide_seconds <- proc.time()[["elapsed"]] - t0
  }
  if (all_pairs || wide) state$allowed <- widen_pairs(state$allowed, os$cpdag)
  if (os$score < state$score - score_tol) {
    r2 <- refine_ges(ctx, os$cpdag, state$allowed)
    if (r2$score_after < state$score - score_tol) {
      ratios <- if (ctx$grow_ratio < 1) {
        sprintf(" at grow ratios 1 and %g", ctx$grow_ratio)
      } else {
        ""
      }
      n_kicks <- os$kicks_improved
      if (n_kicks > 0) ratios <- sprintf("%s, then %d of %d kicks", ratios, n_kicks, ctrl$search$kicks)
      if (!is.null(os$wide_orders)) {
        ratios <- sprintf("%s, then over all pairs from %d orders", ratios, os$wide_orders)
      }
      state$moves <- rbind(state$moves,
                           stage_move("order", sprintf("BOSS, best of %d starts%s", length(starts),
                                                       ratios), os$score - state$score),
                           moves_frame(r2$moves, ctx$nm))
      state$cpdag <- r2$cpdag
      state$score <- r2$score_after
    }
  }
  state
}

# Above order_all_pairs_limit() variables BOSS searches inside the moral
# graph, where its landscape is rugged: graphs on the way to a good one need
# pairs outside it. On ER graphs of 300 and 500 variables the search ended
# far from graphs that BOSS over all pairs found and that scored better at
# the same penalty. One more BOSS over all pairs, from the best order found
# inside and the final orders of the best-scoring starts
# (search_control(order_wide_starts) orders in all), is kept when it scores
# better: a few of BOSS's starts over all pairs instead of ten (measured in
# the stage vignette).
refine_order_beyond_mask <- function(ctx, os) {
  inside <- os$start_orders[, order(os$start_scores), drop = FALSE]
  st <- cbind(os$order, inside)
  st <- st[, !duplicated(t(st)), drop = FALSE]
  st <- st[, seq_len(min(ncol(st), ctx$ctrl$search$order_wide_starts)), drop = FALSE]
  out <- refine_boss(ctx, ctx$complete, st, TRUE, 1)
  if (out$score < os$score - wide_min_gain(ctx$n)) {
    out$kicks_improved <- os$kicks_improved
    out$wide_orders <- ncol(st)
    return(out)
  }
  os
}

# How much better (per sample) the search over all pairs must score than the
# one inside the moral graph for its graph to replace it: WIDE_MIN_GAIN
# log-likelihood units (n times the score), a small fraction of one edge's
# penalty. Where the two graphs tie within it, the wide search has found
# another graph of practically equal score, and the one inside the moral
# graph is kept (on one ER1 graph of 500 variables a gain of 0.1 moved the
# graph 11 marks away from the truth; where the wide search paid, it gained
# 37 to 1856 units).
WIDE_MIN_GAIN <- 1
wide_min_gain <- function(n) if (is.finite(n)) max(score_tol, WIDE_MIN_GAIN / n) else score_tol

# The start orders of BOSS: CALM's, the current graph's and
# random ones up to search_control(order_starts). With a given moral graph the search
# keeps to it, but its landscape is rugged there: on dense graphs orders
# close to a true one give graphs that need edges outside the mask. More
# starts then: the orders where the same starts end in a search over all
# pairs (their graphs are not used).
refine_order_starts <- function(ctx, state, dag) {
  ctrl <- ctx$ctrl
  d <- ctx$d
  dag_now <- member_dag(state$cpdag, ctx$kn)
  starts <- unique(list(cpp_topological_order(dag), cpp_topological_order(dag_now)))
  fixed <- length(starts)
  starts <- c(starts, lapply(seq_len(max(0L, ctrl$search$order_starts - fixed)),
                             function(i) sample.int(d)))
  random <- seq_along(starts) > fixed
  allowed <- state$allowed
  if (!ctx$extend && isTRUE(ctrl$search$order_free_starts) && d <= ctrl$search$order_all_pairs &&
      any(allowed[row(allowed) != col(allowed)] == 0)) {
    free <- refine_boss(ctx, ctx$complete, matrix(unlist(starts), nrow = d), FALSE, 1)
    more <- lapply(seq_len(ncol(free$orders)), function(k) free$orders[, k])
    more <- more[!more %in% starts]
    more <- more[!duplicated(more)]
    starts <- c(starts, more)
    random <- c(random, rep(FALSE, length(more)))
  }
  structure(starts, random = random)
}

# BOSS from `starts` inside `order_mask`: with the plain grow
# step and, unless search_control(grow_ratio) is 1, again with the longer one; the
# better result is kept (ties: the plain one; neither ratio's landscape is
# better on every graph). Then kicks: a few nodes of the best order so far
# moved to random places and the search run again from there, alternating
# the grow ratios; kept when the score improves. The starts spread over the
# future plan's workers; the kicks run in the calling process, each from
# the best order the kicks before it found (kick_search()). Above
# search_control(all_pairs_max_d) variables each kick repairs the order
# around its moved variables only (kick_search(local = TRUE)), as the
# scan's kicks do: full sweeps cost d^2 a kick.
refine_best_order <- function(ctx, order_mask, starts) {
  ctrl <- ctx$ctrl
  start_mat <- matrix(unlist(starts), nrow = ctx$d)
  keep <- min_risk_applies(ctx)
  os <- refine_boss(ctx, order_mask, start_mat, TRUE, 1, keep_graphs = keep)
  # the local optimum of each random start, before the kicks: candidates of
  # the minimum-risk step, which weighs optima of random starts only (those
  # of CALM's and the refined graph's orders would add weight to the best)
  rnd <- attr(starts, "random")
  pool <- if (keep) list(cpdags = os$start_cpdags[rnd], scores = os$starts$score[rnd])
  os_ratio <- 1
  if (ctx$grow_ratio < 1) {
    os_grow <- refine_boss(ctx, order_mask, start_mat, TRUE, ctx$grow_ratio)
    if (os_grow$score < os$score - score_tol) {
      os <- os_grow
      os_ratio <- ctx$grow_ratio
    }
  }
  # each start's final order and score, before the kicks (refine_order_beyond_mask())
  start_orders <- os$orders
  start_scores <- os$starts$score
  local <- ctx$d > ctrl$search$all_pairs_max_d
  os <- kick_search(os, ctx$sigma, order_mask, ctx$lambda, ctx$ctrl$search$max_sweeps,
                    ctrl$search$exact_parents_max, TRUE, os_ratio, ctrl$search$kicks,
                    ctrl$search$kick_size, unique(c(1, ctx$grow_ratio)), kn = ctx$kn,
                    max_parents = ctx$mp, with_dag = FALSE, local = local,
                    threads = search_threads(ctx, local))
  os$dag <- NULL
  os$risk_pool <- pool
  os$start_orders <- start_orders
  os$start_scores <- start_scores
  os
}

# The share of BOSS's starts (`os`, a boss_search() result after its kicks)
# that ended at its best score: 0 when a kick found a better graph than
# every start.
start_agreement <- function(os) {
  sc <- os$starts$score
  if (!length(sc) || os$kicks_improved > 0) return(0)
  mean(sc <= min(sc) + score_tol)
}

# Whether the exact search can pay after BOSS: when BOSS did not run, or
# fewer than EXACT_AGREEMENT of its starts ended at its best score. Where
# most starts agree BOSS had found the optimum (on the 20-variable ER graphs
# of inst/bench/bench_stages.R it missed the exact optimum only when at most
# 3 of 10 starts agreed), and the exact search, 70-95% of a fit at 20
# variables, changed no graph.
EXACT_AGREEMENT <- 0.5
exact_pays <- function(state) {
  is.null(state$order_agreement) || state$order_agreement < EXACT_AGREEMENT
}

# The exact optimum where it is cheap: over all pairs when the moral graph
# was estimated, inside the mask otherwise; under knowledge, over the DAGs
# that obey it.
refine_exact <- function(ctx, state) {
  kn <- ctx$kn
  exact_mask <- if (ctx$extend) ctx$complete else state$allowed
  if (!is.null(kn)) exact_mask <- pmax(exact_mask * (kn$forbidden == 0), kn$required)
  storage.mode(exact_mask) <- "double"
  if (cpp_exact_search_bytes(pmax(exact_mask, t(exact_mask))) > exact_search_budget) return(state)
  ex <- cpp_exact_search(ctx$sigma, exact_mask, ctx$lambda, exact_search_budget, kn$required,
                         ctx$mp)
  if (ex$score < state$score - score_tol) {
    state$moves <- rbind(state$moves, stage_move("exact", "exact search", ex$score - state$score))
    ex_dag <- ex$amat
    storage.mode(ex_dag) <- "double"
    cpdag <- cpp_dag_to_cpdag(ex_dag)
    storage.mode(cpdag) <- "double"
    state$cpdag <- cpdag
    state$score <- ex$score
  }
  state
}

# The moves reported by cpp_ges_refine() as a data frame with node names.
moves_frame <- function(m, nm) {
  data.frame(
    type = m$type, from = nm[m$from], to = nm[m$to],
    clique = vapply(m$clique, function(k) paste(nm[k], collapse = ","), character(1)),
    delta = m$delta, stringsAsFactors = FALSE
  )
}
