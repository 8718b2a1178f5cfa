# One call of the C++ BOSS (src/rcpp_search_boss.cpp) and its kicks: the
# layer under boss() (R/search-boss.R), the penalty selection
# (R/search-penalty.R) and the interventional polish (R/search-polish.R),
# which all run it; it calls none of them, so the call graph has no loop.

# Kicks of BOSS (src/search_boss.h), drawn with R's random number
# generator: one kick per column, the `size` positions to take nodes from
# and then the `size` positions to put them back at (1-based).
draw_kicks <- function(d, kicks, size) {
  size <- min(size, d)
  matrix(sample.int(d, 2L * size * kicks, replace = TRUE), nrow = 2L * size)
}

no_kicks <- function() matrix(0L, 0, 0)

# One call of the C++ BOSS (src/rcpp_search_boss.cpp): the start orders (one
# per column), its options by name, the kicks' moves `kick_moves` (a matrix
# from draw_kicks(), one kick per column) and the resolved background
# knowledge `kn` (NULL: none). `keep_graphs`: also return each start's CPDAG
# (`start_cpdags`). `kick_local`: repair each kicked order locally
# (BossOptions::kick_local in src/search_boss.h). `threads`: 2 or more runs
# starts and kicks on a helper thread too (BossOptions::threads), with the
# same result.
boss_search <- function(sigma, mask, lambda, starts, max_sweeps, exact_parents_max, bes, grow_ratio,
                        kick_moves = no_kicks(), kick_grow_ratios = numeric(), kn = NULL,
                        max_parents = -1L, cache_budget = search_cache_budget,
                        keep_graphs = FALSE, with_dag = TRUE, kick_local = FALSE, threads = 1L) {
  options <- list(max_sweeps = max_sweeps, tol = score_tol, exact_parents_max = exact_parents_max,
                  bes = bes, grow_ratio = grow_ratio, kick_grow_ratios = kick_grow_ratios,
                  cache_budget = cache_budget, keep_graphs = keep_graphs, kick_local = kick_local,
                  threads = as.integer(threads))
  cpp_boss(sigma, mask, lambda, starts, options, kick_moves, kn$required, kn$forbidden, kn$precedes,
           max_parents, with_dag)
}
