# What the stages of the refinement share: the refinement's pipeline and
# its stages (R/search-refine.R) and its last step, the minimum-risk
# choice (R/search-risk.R), both call these; they call neither, so the
# call graph has no loop. A stage's row in the record of moves, whether
# BOSS looks at every pair, and one BOSS run on the refinement's context
# (refine_context()).

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
# with the same result as one call. `keep_graphs`: each start's CPDAG too.
refine_boss <- function(ctx, mask, starts, bes, ratio, keep_graphs = FALSE) {
  out <- boss_run(ctx$sigma, mask, ctx$lambda, starts, ctx$ctrl$search$max_sweeps,
                  ctx$ctrl$search$exact_parents_max, bes, ratio, kn = ctx$kn, max_parents = ctx$mp,
                  keep_graphs = keep_graphs, progress = FALSE, with_dag = FALSE)
  # the stages read the CPDAG only (a d x d matrix less to hold at scale)
  out$dag <- NULL
  out
}
