// Greedy equivalence search moves on CPDAGs (Chickering 2002; turning as in
// Hauser and Buehlmann 2012), scored with the decomposable l0 score of
// search_score.h. calm uses them to refine CALM's CPDAG: backward (Delete)
// and Turn moves by default, forward (Insert) moves on request. Pure C++.
//
// A CPDAG is an IntMatrix g: g(i, j) = 1, g(j, i) = 0 is i -> j; a mutual
// pair is an undirected edge. Every operator is named by (u, v, C) as in
// pcalg's EssentialGraph: the edge between u and v is inserted as u -> v,
// deleted, or turned into u -> v, and C is the clique of v's neighbours that
// become parents of v. Score changes are new minus old (negative improves).
#ifndef CALM_GES_REFINE_H
#define CALM_GES_REFINE_H

#include <functional>
#include <string>
#include <cstddef>
#include <vector>

#include "graph_core.h"
#include "search_score.h"

namespace calm {

enum class GesMoveType { Insert = 0, Delete = 1, Turn = 2 };

struct GesMove {
  GesMoveType type = GesMoveType::Delete;
  int u = -1;
  int v = -1;
  std::vector<int> C;
  double delta = 0;  // change of the total score (negative: better)
  bool valid() const { return u >= 0; }
};

// A DAG of the class of `cpdag` that has every required edge and no
// forbidden one. Returns false when the class has none: a required pair is
// not adjacent, a directed edge contradicts the knowledge, or orienting the
// undirected edges as the knowledge says creates a cycle or a new
// v-structure (checked by extending and comparing the extension's CPDAG).
bool knowledge_extension(const IntMatrix& cpdag, const Knowledge& k, IntMatrix& dag);

// Best operator of one type whose head is v (pcalg's getOptimalArrow*(v)).
// `allowed` restricts insertions to its nonzero pairs (symmetric mask). With
// `k`, only operators whose resulting class satisfies the knowledge count.
GesMove best_insert(const IntMatrix& g, int v, LocalScore& score, const IntMatrix& allowed,
                    const Knowledge* k = nullptr);
GesMove best_delete(const IntMatrix& g, int v, LocalScore& score, const Knowledge* k = nullptr);
GesMove best_turn(const IntMatrix& g, int v, LocalScore& score, const Knowledge* k = nullptr);

// Best operator of a type over all heads; invalid when none improves the score
// by more than `tol`.
GesMove best_move(const IntMatrix& g, GesMoveType type, LocalScore& score, const IntMatrix& allowed,
                  double tol, const Knowledge* k = nullptr);

// The CPDAG after applying the operator. Returns false if the resulting PDAG
// has no consistent extension (the operator was not valid).
bool apply_move(const IntMatrix& g, const GesMove& m, IntMatrix& out);

struct GesOptions {
  bool forward = false;   // run Insert moves (last, in each pass)
  bool backward = true;   // Delete moves
  bool turning = true;    // Turn moves
  // the cap of BES inside BOSS (search_boss.cpp); the refinement's comes from R,
  // calm_control(refine_max_moves), through cpp_ges_refine()
  int max_moves = 100000;
  double tol = kScoreTol;
  // Insert moves keep each head's scored insertions between moves and score
  // again only heads whose neighbourhood changed (the same moves, faster on
  // large graphs); false: every move scores every insertion (best_move()).
  bool cached_inserts = true;
  // bytes the local score's cache may hold before it is emptied (0: no
  // limit); results do not depend on it (emptied scores are recomputed, the
  // same). The bound BOSS's caches have; its share of the peak memory at
  // 10,000 variables has not been measured apart from the other changes.
  std::size_t cache_budget = 0;
  const Knowledge* knowledge = nullptr;  // background knowledge, if any
  // threads of the forward phase: with 2 or more, a helper thread lists
  // part of the insertions to be listed again after a move, with a score
  // cache of its own (kGesHelperBudgetShare of cache_budget); the moves are
  // those of 1
  int threads = 1;
};

// The helper thread's share of GesOptions::cache_budget, on top of it.
constexpr double kGesHelperBudgetShare = 0.5;

struct GesResult {
  IntMatrix cpdag;
  double score_before = 0;
  double score_after = 0;
  std::vector<GesMove> moves;
};

// From the CPDAG `start`, applies the best improving move of the current
// phase until none is left, cycling backward -> turning -> forward until a
// full pass makes no move. `interrupt` is called between moves.
GesResult ges_refine(const IntMatrix& start, LocalScore& score, const IntMatrix& allowed,
                     const GesOptions& opt, const std::function<void()>& interrupt);

// Total score of the class of a CPDAG (the score of a consistent extension).
double cpdag_score(const IntMatrix& g, LocalScore& score);

}  // namespace calm

#endif
