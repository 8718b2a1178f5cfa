// Local search over variable orders (in the spirit of BOSS, Andrews et al.
// 2023): for an order, each node takes the best parent set among its
// predecessors inside the moral graph, and one node at a time is moved to the
// position that most improves the total score, until no move helps. Best
// parent sets are exact (a table over all subsets of a node's candidates)
// for nodes with at most `exact_parents_max` candidates and found by grow-shrink
// otherwise (with `grow_ratio`, see search_grow_shrink.h). Scores come from
// search_score.h. With background knowledge a node's candidates leave out its
// forbidden parents and take in its required ones, which every parent set
// then holds; an order that puts a node before one of its required parents
// scores +infinity, so the search never moves there. Pure C++.
//
// The package's words: an *order search* is this local search from one
// start order, without pruning; *BOSS* (search_boss.h) is order searches from
// several starts, each pruned by backward equivalence search, with kicks;
// the *order enumeration* (permutations.h) visits all d! orders.
#ifndef CALM_ORDER_SEARCH_H
#define CALM_ORDER_SEARCH_H

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include "graph_core.h"
#include "search_grow_shrink.h"
#include "search_score.h"

namespace calm {

// Best parent set of one node among an allowed subset of its candidates:
// exact (a table over all subsets) for at most `exact_parents_max` candidates,
// greedy through a grow-shrink tree otherwise. `required`: candidates every
// parent set must hold (background knowledge).
// The exact table of a node with few candidates: for each subset (bit
// mask) of its candidates, the best score of a parent set within it and the
// set attaining it. It depends on the score's covariance and penalty only,
// so searches on other threads or at other grow ratios share it.
struct ExactTable {
  std::vector<double> best;
  std::vector<std::uint32_t> arg;
};
// The table of node j with candidates `cand`; `required_pos`: positions in
// `cand` every parent set must hold. Reads `score` only (no cache), so it may
// run on several threads at once.
std::shared_ptr<const ExactTable> exact_table(const LocalScore& score, int j,
                                              const std::vector<int>& cand,
                                              const std::vector<int>& required_pos);

class ParentChooser {
 public:
  // `table`: node j's exact table when it has been computed already
  // (exact_table()); otherwise it is computed here when j has at most
  // `exact_parents_max` candidates.
  ParentChooser(LocalScore& score, int j, std::vector<int> cand, int exact_parents_max,
                double grow_ratio = 1.0, const std::vector<int>& required = {},
                std::shared_ptr<const ExactTable> table = nullptr);
  // The same chooser on another score (of the same covariance and penalty)
  // at `grow_ratio`: the exact table is shared, a tree starts empty.
  ParentChooser(const ParentChooser& proto, LocalScore& score, double grow_ratio);
  const std::vector<int>& candidates() const { return cand_; }

  // `allowed[b]`: candidate b may be a parent. Returns the best score
  // (+infinity when a required parent is not allowed); the chosen parents
  // (node indices) go to `chosen` when it is not null.
  double best(const std::vector<char>& allowed, std::vector<int>* chosen);

  // Bytes of the grow-shrink tree (0 with the exact table, whose size is
  // fixed), and a way to drop it (see GrowShrinkTree::clear()).
  std::size_t tree_bytes() const { return tree_ ? tree_->bytes() : 0; }
  void clear_tree() {
    if (tree_) tree_->clear();
  }

 private:
  LocalScore& score_;
  int j_;
  std::vector<int> cand_;
  std::vector<int> required_pos_;  // positions in cand_ of the required parents
  std::vector<int> tree_pos_;      // with required parents: position in the tree's candidates, -1 for required
  std::vector<char> tree_allowed_;
  bool exact_ = false;
  std::shared_ptr<const ExactTable> table_;  // exact: the node's table
  std::unique_ptr<GrowShrinkTree> tree_;
  void make_tree(double grow_ratio);
};

struct SweepBoard;  // run_ahead()'s shared record (search_order.cpp)

// Where a search run by run_joinable() shows its sweep's record, so that
// another thread with a search of its own can join it (OrderSearch::help()).
struct JoinSlot {
  std::mutex lock;
  std::condition_variable left;
  SweepBoard* board = nullptr;  // the running search's record, or null
  int present = 0;              // threads helping it now
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
// trees (search_grow_shrink.h). `knowledge` (may be null): forbidden parents are
// never candidates, required ones always are and every parent set holds
// them; `run()` first moves each node after its required parents and the
// nodes of earlier tiers (keeping the given order otherwise), and moves
// only keep that, so the orders it visits obey the knowledge.
class OrderSearch {
 public:
  // `cache_budget`: bytes the grow-shrink trees and the local score cache
  // may hold together before they are emptied (0: no bound); results do not
  // depend on it, only time and memory do.
  // `threads`: the threads that compute the exact tables (the same tables
  // for any number).
  OrderSearch(LocalScore& score, const IntMatrix& allowed, int exact_parents_max, double grow_ratio,
              std::function<void()> interrupt, const Knowledge* knowledge = nullptr,
              std::size_t cache_budget = 0, int threads = 1);
  // The search of `proto` (its candidates, knowledge and exact tables) on
  // another score of the same covariance and penalty, at `grow_ratio`, with
  // empty trees: a helper thread's search, or one at another grow ratio,
  // without computing the tables again (at 5000 variables they took most of
  // the 2 s a BOSS call cost before its first start). Reads only what
  // `proto` never changes after its construction, so `proto` may be searching
  // on another thread meanwhile.
  OrderSearch(const OrderSearch& proto, LocalScore& score, double grow_ratio,
              std::function<void()> interrupt, std::size_t cache_budget);
  OrderSearchResult run(std::vector<int> order, int max_sweeps, double tol);
  // run() with a helper thread that examines, on `ahead` (a search built
  // from this one on a score of its own), the nodes the sweep reaches next
  // against the order as it stands; the caller takes their findings in, in
  // the order of the nodes, and examines a node itself where a move since
  // made a finding stale. The moves, and the result, are run()'s. A
  // finding holds until the next move, so a node found to stay is not
  // examined again in the next sweep when no move came between. Should the
  // helper fail, the caller goes on alone.
  OrderSearchResult run_ahead(std::vector<int> order, int max_sweeps, double tol,
                              OrderSearch& ahead);
  // run() that another thread may join at any time: its record is shown in
  // `slot` while it runs, and a thread that calls help() on the slot
  // examines the nodes ahead of the sweep as run_ahead()'s helper does. The
  // moves, and the result, are run()'s. Returns once no helper is left.
  OrderSearchResult run_joinable(std::vector<int> order, int max_sweeps, double tol,
                                 JoinSlot& slot);
  // On this search (of a score of its own), helps the search shown in
  // `slot` until it ends; returns at once when none is running. The
  // search's own check (`interrupt`) is called between nodes and may throw.
  void help(JoinSlot& slot, double tol);
  // The search from `order` where only some nodes are out of place (a kick
  // moved them): run()'s sweeps over the nodes in `focus`, their candidates
  // and dependents only, and each node that moves marks its own candidates
  // and dependents for the rest of the sweep or the next, until none is
  // marked. Each examination costs O(d), so a kick's repair grows with the
  // edges it touches, where run()'s sweeps cost d^2 each; its result need
  // not be a local optimum for the nodes it never examined.
  OrderSearchResult run_local(std::vector<int> order, const std::vector<int>& focus,
                              int max_sweeps, double tol);
  // The check called between node moves (it may throw to stop the search).
  void set_interrupt(std::function<void()> interrupt) { interrupt_ = std::move(interrupt); }
  // How many times the caches were emptied to keep within the budget.
  int cache_clears() const { return cache_clears_; }

 private:
  void follow_precedence(std::vector<int>& order) const;
  void bound_caches();
  // the best DAG of the order whose positions are `pos`
  IntMatrix best_dag(const std::vector<int>& pos);
  double node_score(const std::vector<int>& pos, int j, int excluded, int extra, int limit_pos);
  int best_position(int v, const std::vector<int>& order, const std::vector<int>& pos,
                    const std::vector<double>& local, double tol, std::vector<int>& reduced);
  // Checks the start order and puts it after the knowledge's precedence;
  // its positions, local scores and (returned) total.
  double begin(std::vector<int>& order, std::vector<int>& pos, std::vector<double>& local);
  // best_position() after R's interrupt check and the caches' bound
  int examine(int v, const std::vector<int>& order, const std::vector<int>& pos,
              const std::vector<double>& local, double tol, std::vector<int>& reduced);
  // Puts v at position p of `reduced` (the order without v), updating the
  // order, positions, local scores and total.
  void place(int v, int p, std::vector<int>& order, std::vector<int>& pos,
             std::vector<double>& local, double& total, const std::vector<int>& reduced);
  // run() (focus null; `board`: run_ahead()'s, or null) and run_local()
  OrderSearchResult search(std::vector<int> order, const std::vector<int>* focus, int max_sweeps,
                           double tol, SweepBoard* board = nullptr);
  // search() on `board`, then `end` (also when the search throws).
  OrderSearchResult search_on(std::vector<int> order, int max_sweeps, double tol,
                              SweepBoard& board, const std::function<void()>& end);
  // The helper thread's part of run_ahead(), on `ahead`.
  void examine_ahead(SweepBoard& board, double tol);
  // The caller's part: the finding for v (a position, or -1) at `version`.
  int finding(SweepBoard& board, int v, int version, const std::vector<int>& order,
              const std::vector<int>& pos, const std::vector<double>& local, double tol,
              std::vector<int>& reduced);

  LocalScore& score_;
  std::function<void()> interrupt_;
  std::vector<ParentChooser> choosers_;
  std::vector<std::vector<int>> dependents_;  // dependents_[v]: nodes that have v as a candidate
  std::vector<std::vector<int>> required_;    // required_[j]: required parents of j
  std::vector<std::vector<int>> before_;      // before_[j]: nodes every order puts before j
  std::vector<std::vector<int>> after_;       // after_[j]: nodes every order puts after j
  std::size_t cache_budget_ = 0;
  int cache_clears_ = 0;
  std::vector<char> mask_;  // scratch of node_score()
  std::vector<int> rpos_;   // scratch of best_position(): positions in the order without v
  std::vector<int> events_; // scratch of best_position(): positions where its total can change
  long bound_calls_ = 0;    // calls of bound_caches()
};

// One start (an OrderSearch used once).
OrderSearchResult order_search(LocalScore& score, const IntMatrix& allowed, std::vector<int> order,
                               int max_sweeps, double tol, int exact_parents_max, double grow_ratio,
                               const std::function<void()>& interrupt,
                               const Knowledge* knowledge = nullptr, std::size_t cache_budget = 0);

}  // namespace calm

#endif
