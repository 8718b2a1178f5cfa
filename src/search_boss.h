// BOSS: best order score search (Andrews, Ramsey, Sanchez-Romero, Camchong
// and Kummerfeld 2023). From each start order, nodes are moved one at a time
// to the position that most improves the total score (search_order.h, with
// grow-shrink trees or exact best-parent tables); the best DAG of the final
// order is then pruned by backward equivalence search (BES, the Delete moves
// of GES, search_ges.h). The best-scoring result over the starts is kept.
// Optional kicks then perturb the best order found so far and search again
// from there, keeping the result when it scores better (an iterated local
// search). With background knowledge the order search chooses parents that
// obey it (search_order.h), BES makes only moves whose class keeps a member
// that obeys it, and the DAG returned is such a member. Pure C++; start
// orders and kicks come from the caller, so the random numbers are R's.
#ifndef CALM_BOSS_H
#define CALM_BOSS_H

#include <functional>
#include <vector>

#include "graph_core.h"
#include "search_score.h"

namespace calm {

// No defaults: every field is set by the caller (from R, cpp_boss()).
struct BossOptions {
  int max_sweeps = 0;   // passes over the nodes per start
  double tol = 0;       // a move must improve the score by more than this
  int exact_parents_max = 0;  // exact best-parent tables up to this many candidates
  double grow_ratio = 1.0;  // of the grow-shrink trees (search_grow_shrink.h)
  bool bes = true;      // prune each start's DAG with backward equivalence search
  // grow ratios the kicks cycle through (kick k uses element k modulo the
  // size); empty: grow_ratio
  std::vector<double> kick_grow_ratios;
  const Knowledge* knowledge = nullptr;  // background knowledge, if any
  // bytes the order searches' grow-shrink trees and the local score cache
  // may hold (0: no bound); beyond it they are emptied and rebuilt, which
  // costs time but never changes a result
  double cache_budget = 0;
  // keep every start's graph in BossStart::cpdag (for choices among the
  // local optima, R/search-risk.R); off, only the best graph is kept
  bool keep_graphs = false;
  // repair each kicked order with OrderSearch::run_local() (the moved nodes
  // and what they touch) instead of full sweeps, then search the best
  // order once more with full sweeps when a kick improved it: at thousands
  // of variables the sweeps after every kick cost d^2 each
  bool kick_local = false;
  // threads: with 2 or more, a helper thread takes starts while the caller
  // runs others (run_starts() in search_boss.cpp), then kicks, each from the
  // best order when it starts, run again where a kick ahead of it improved
  // the order (run_kicks()); the helper has caches of its own. The results
  // are those of 1
  int threads = 1;
};

// A kick: move m takes the node at position from[m] of the order out and
// puts it back at position to[m] of the shortened order (0-based, both in
// 0..d-1; the moves apply one after the other).
struct Kick {
  std::vector<int> from;
  std::vector<int> to;
};

struct BossStart {
  double order_score = 0;  // score after the order search
  double score = 0;        // score after BES (= order_score without BES)
  int moves = 0;           // node moves made by the order search
  int bes_moves = 0;       // Delete moves made by BES
  std::vector<int> order;  // the order the search ended at
  IntMatrix cpdag;         // the start's graph (empty unless keep_graphs)
};

struct BossResult {
  IntMatrix cpdag;
  IntMatrix dag;  // a consistent extension of cpdag
  double score = 0;
  std::vector<int> order;  // the best start's final order
  int best_start = -1;     // index into the starts (first among ties)
  std::vector<BossStart> starts;
  std::vector<double> kick_scores;  // score after each kick's search (and BES)
  int kicks_improved = 0;           // kicks that gave a better graph
  int cache_clears = 0;             // times the caches were emptied (cache_budget)
};

// `allowed`: symmetric 0/1 mask of possible adjacencies; `starts`: start
// orders, each a permutation of 0..d-1 (at least one); `kicks`: run after
// all starts, in turn, each from the best order so far.
BossResult boss_search(LocalScore& score, const IntMatrix& allowed,
                       const std::vector<std::vector<int>>& starts, const BossOptions& opt,
                       const std::function<void()>& interrupt,
                       const std::vector<Kick>& kicks = {});

// Applies a kick to an order (throws std::invalid_argument on positions
// outside 0..d-1 or from/to of different lengths).
// `moved` (when not null) receives the nodes moved.
void apply_kick(std::vector<int>& order, const Kick& kick, std::vector<int>* moved = nullptr);

}  // namespace calm

#endif
