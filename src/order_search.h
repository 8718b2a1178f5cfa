// Local search over variable orders (in the spirit of BOSS, Andrews et al.
// 2023): for an order, each node takes the best parent set among its
// predecessors inside the moral graph, and one node at a time is moved to the
// position that most improves the total score, until no move helps. Best
// parent sets are exact (a table over all subsets of a node's candidates)
// for nodes with at most `exact_limit` candidates and found by grow-shrink
// otherwise (with `grow_ratio`, see grow_shrink.h). Scores come from
// local_score.h. Pure C++.
#ifndef CALM_ORDER_SEARCH_H
#define CALM_ORDER_SEARCH_H

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "graph_core.h"
#include "grow_shrink.h"
#include "local_score.h"

namespace calm {

// Best parent set of one node among an allowed subset of its candidates:
// exact (a table over all subsets) for at most `exact_limit` candidates,
// greedy through a grow-shrink tree otherwise.
class ParentChooser {
 public:
  ParentChooser(LocalScore& score, int j, std::vector<int> cand, int exact_limit,
                double grow_ratio = 1.0);
  const std::vector<int>& candidates() const { return cand_; }

  // `allowed[b]`: candidate b may be a parent. Returns the best score; the
  // chosen parents (node indices) go to `chosen` when it is not null.
  double best(const std::vector<char>& allowed, std::vector<int>* chosen);

 private:
  LocalScore& score_;
  int j_;
  std::vector<int> cand_;
  bool exact_ = false;
  std::vector<double> best_;           // exact: best score within each subset
  std::vector<std::uint32_t> arg_;     // exact: the subset attaining it
  std::unique_ptr<GrowShrinkTree> tree_;
};

struct OrderSearchResult {
  IntMatrix dag;
  double score_start = 0;  // score of the start order's best DAG
  double score = 0;        // score of the final order's best DAG
  std::vector<int> order;
  int moves = 0;
};

// The search, set up once for a score and a mask so that several starts
// share the best-parent tables and trees. `allowed`: symmetric 0/1 mask of
// possible adjacencies. `run()` starts from `order` (a permutation of
// 0..d-1) and makes at most `max_sweeps` passes over the nodes; a move must
// improve the score by more than `tol`. `grow_ratio`: of the grow-shrink
// trees (grow_shrink.h).
class OrderSearch {
 public:
  OrderSearch(LocalScore& score, const IntMatrix& allowed, int exact_limit, double grow_ratio,
              std::function<void()> interrupt);
  OrderSearchResult run(std::vector<int> order, int max_sweeps, double tol);

 private:
  LocalScore& score_;
  std::function<void()> interrupt_;
  std::vector<ParentChooser> choosers_;
};

// One start (an OrderSearch used once).
OrderSearchResult order_search(LocalScore& score, const IntMatrix& allowed, std::vector<int> order,
                               int max_sweeps, double tol, int exact_limit, double grow_ratio,
                               const std::function<void()>& interrupt);

}  // namespace calm

#endif
