// Local search over variable orders (in the spirit of BOSS, Andrews et al.
// 2023): for an order, each node takes the best parent set among its
// predecessors inside the moral graph, and one node at a time is moved to the
// position that most improves the total score, until no move helps. Best
// parent sets are exact (a table over all subsets of a node's candidates)
// for nodes with at most `exact_limit` candidates and found by grow-shrink
// otherwise. Scores come from local_score.h. Pure C++.
#ifndef CALM_ORDER_SEARCH_H
#define CALM_ORDER_SEARCH_H

#include <functional>
#include <vector>

#include "graph_core.h"
#include "local_score.h"

namespace calm {

struct OrderSearchResult {
  IntMatrix dag;
  double score_start = 0;  // score of the start order's best DAG
  double score = 0;        // score of the final order's best DAG
  std::vector<int> order;
  int moves = 0;
};

// `allowed`: symmetric 0/1 mask of possible adjacencies; `order`: a start
// order (a permutation of 0..d-1).
OrderSearchResult order_search(LocalScore& score, const IntMatrix& allowed, std::vector<int> order,
                               int max_sweeps, double tol, int exact_limit,
                               const std::function<void()>& interrupt);

}  // namespace calm

#endif
