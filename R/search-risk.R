# The refinement's last step (refine_dag()): a minimum-risk choice among
# local optima of the score. On data with weak effects many graphs score
# within a few log-likelihood units of the best, and the best-scoring one
# fits the noise of the sample in the orientation of weak edges. The step
# weighs the local optima of BOSS from random orders (those of BOSS's random
# starts in R/search-refine.R, and further ones up to search_control(risk_starts)
# in all) and the refined graph by exp(-D / temperature), D its score above
# the best in log-likelihood units, and keeps the candidate with the
# smallest weighted sum of structural Hamming distances (CPDAGs) to all
# candidates. Measured in inst/bench/bench_min_risk.R.

# The state of each pair i < j of a CPDAG (0/1 matrix, [i, j] for i -> j) as
# one integer: 0 not adjacent, 1 i -> j, 2 j -> i, 3 undirected. Two CPDAGs'
# SHD (shd_count()) is the number of pairs whose states differ; coded once
# per graph, all pairs of candidates are compared by column.
pair_states <- function(cpdag) {
  up <- upper.tri(cpdag)
  (cpdag[up] != 0) + 2L * (t(cpdag)[up] != 0)
}

# The index of the candidate with the smallest risk: `states` has one
# column of pair_states() per candidate, `scores` their scores per sample;
# `n` samples. Ties go to the first candidate.
min_risk_index <- function(states, scores, n, temperature) {
  w <- exp(-(scores - min(scores)) * n / temperature)
  risk <- vapply(seq_len(ncol(states)), function(i) sum(w * colSums(states != states[, i])),
                 numeric(1))
  which(risk <= min(risk) * (1 + 1e-12))[1L]
}

# Whether the step runs: asked for, finite n above d, and at most
# search_control(risk_max_d) variables.
min_risk_applies <- function(ctx) {
  ctx$ctrl$search$risk_starts > 0 && is.finite(ctx$n) && ctx$n > ctx$d &&
    ctx$d <= ctx$ctrl$search$risk_max_d
}

# The step itself on the refinement's state (see refine_dag()): its
# candidates are the local optima of BOSS's random starts (`state$risk_pool`,
# from refine_by_order(); none with search_control(order_search = FALSE)) and of BOSS
# from further random orders up to search_control(risk_starts), drawn from
# R's RNG in this process, so set.seed() reproduces the choice.
refine_min_risk <- function(ctx, state) {
  if (!min_risk_applies(ctx)) return(state)
  pool <- state$risk_pool
  more <- risk_candidates(ctx, state, ctx$ctrl$search$risk_starts - length(pool$scores))
  graphs <- c(list(state$cpdag), pool$cpdags, more$cpdags)
  scores <- c(state$score, pool$scores, more$scores)
  states <- matrix(vapply(graphs, pair_states, integer(ctx$d * (ctx$d - 1L) / 2L)),
                   ncol = length(graphs))
  i <- min_risk_index(states, scores, ctx$n, ctx$ctrl$search$risk_temperature)
  if (i > 1L) {
    what <- sprintf("minimum expected SHD among %d local optima", length(graphs))
    state$moves <- rbind(state$moves, stage_move("risk", what, scores[i] - state$score))
    state$cpdag <- graphs[[i]]
    state$score <- scores[i]
  }
  state
}

# More candidates than BOSS's starts gave: the local optima of BOSS from
# `count` random orders (none for `count` <= 0) and their scores.
risk_candidates <- function(ctx, state, count) {
  if (count <= 0) return(NULL)
  mask <- if (order_over_all_pairs(ctx)) ctx$complete else state$allowed
  starts <- vapply(seq_len(count), function(i) sample.int(ctx$d), integer(ctx$d))
  r <- refine_boss(ctx, mask, matrix(starts, nrow = ctx$d), TRUE, 1, keep_graphs = TRUE)
  list(cpdags = r$start_cpdags, scores = r$starts$score)
}
