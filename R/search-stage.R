# What the stages of the refinement share: the refinement's pipeline and
# its stages (R/search-refine.R) and its last step, the minimum-risk
# choice (R/search-risk.R), both call these; they call neither, so the
# call graph has no loop. A stage's row in the record of moves, whether
# BOSS looks at every pair, one BOSS run and GES moves on the refinement's
# context (refine_context()), and a member DAG of a class.

# One row of the refinement's record of moves for a whole stage.
stage_move <- function(type, what, delta) {
  data.frame(type = type, from = NA_character_, to = NA_character_, clique = what, delta = delta,
             stringsAsFactors = FALSE)
}

# How many variables BOSS may have and still look beyond an
# estimated moral graph: on dense graphs the IAMB moral graph at n = 1000
# misses many true edges, and with n <= d its tests have little power (at
# d = 300, n = 150 the masked search ended 10, 7 and 2 marks further from
# the truth than the search over all pairs on three data sets).
order_all_pairs_limit <- function(ctrl, n, d) {
  if (n <= d) 2 * ctrl$search$order_all_pairs else ctrl$search$order_all_pairs
}

# Whether the BOSS runs of the refinement (and of its last step, see
# R/search-risk.R) look at every pair rather than only the moral graph: when it was
# estimated and d is within order_all_pairs_limit().
order_over_all_pairs <- function(ctx) {
  ctx$extend && ctx$d <= order_all_pairs_limit(ctx$ctrl, ctx$n, ctx$d)
}

# One BOSS run of the refinement: the start orders (one per column) inside
# `mask`, with or without backward equivalence search, at one grow ratio;
# the starts are split between the workers of the future plan (boss_run()),
# or, on one worker above search_control(all_pairs_max_d) variables, between
# search_threads() threads, with the same result as one call.
# `keep_graphs`: each start's CPDAG too.
refine_boss <- function(ctx, mask, starts, bes, ratio, keep_graphs = FALSE) {
  out <- boss_run(ctx$sigma, mask, ctx$lambda, starts, ctx$ctrl$search$max_sweeps,
                  ctx$ctrl$search$exact_parents_max, bes, ratio, kn = ctx$kn, max_parents = ctx$mp,
                  keep_graphs = keep_graphs, progress = FALSE, with_dag = FALSE,
                  threads = search_threads(ctx, ctx$d > ctx$ctrl$search$all_pairs_max_d))
  # the stages read the CPDAG only (a d x d matrix less to hold at scale)
  out$dag <- NULL
  out
}

# The threads of the refinement's BOSS starts (refine_boss()) and kicks
# (kick_search()): calm_control(threads) at scale (`local`: above
# search_control(all_pairs_max_d) variables, where each kick repairs its
# order around the moved variables), where a start or a kick takes seconds;
# 1 otherwise, where they take milliseconds and a helper thread's own
# tables and trees would cost more than it saves. The graph is the same
# either way.
search_threads <- function(ctx, local) {
  threads <- ctx$ctrl$threads
  if (!local || is.null(threads)) 1L else as.integer(threads)
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

# The options list cpp_ges_refine() reads (src/rcpp_search_ges.cpp, kGesFields).
# `cached_inserts = FALSE` scores every insertion at every move (the same
# moves, slower; tests compare the two). `threads`: 2 or more lists the
# insertions on two threads (GesOptions::threads), the same moves.
ges_options <- function(forward, max_moves, backward = TRUE, turning = TRUE,
                        cached_inserts = TRUE, threads = 1L) {
  list(forward = forward, backward = backward, turning = turning, max_moves = max_moves,
       tol = score_tol, cached_inserts = cached_inserts, cache_budget = search_cache_budget,
       threads = as.integer(threads))
}

# GES moves from the CPDAG `cpdag` inside the symmetric mask `allowed`,
# restricted to classes that obey the resolved knowledge `kn` (NULL: none).
# `with_dag = FALSE`: no member DAG (`dag` is NULL). A 0 x 0 `cpdag`: the
# empty graph.
ges_moves <- function(sigma, cpdag, lambda, allowed, options, kn = NULL, max_parents = -1L,
                      with_dag = TRUE) {
  cpp_ges_refine(sigma, cpdag, lambda, allowed, options, kn$required, kn$forbidden, max_parents,
                 with_dag)
}

# GES moves of the refinement from the CPDAG `cp` inside `allowed`, on
# search_threads() threads.
refine_ges <- function(ctx, cp, allowed, forward = ctx$forward) {
  threads <- search_threads(ctx, ctx$d > ctx$ctrl$search$all_pairs_max_d)
  opts <- ges_options(forward, ctx$ctrl$search$max_moves, threads = threads)
  # the stages read the CPDAG only
  ges_moves(ctx$sigma, cp, ctx$lambda, allowed, opts, ctx$kn, ctx$mp, with_dag = FALSE)
}

# Frees R's garbage at scale: above RELEASE_MEMORY_D variables each d x d
# matrix a stage leaves behind is hundreds of MB (0.8 GB at d = 10000),
# and R would otherwise keep them until its heap fills, raising the fit's
# peak memory; a collection there takes well under a second.
RELEASE_MEMORY_D <- 2000
release_memory <- function(d) {
  if (d > RELEASE_MEMORY_D) gc(verbose = FALSE)
  invisible()
}
