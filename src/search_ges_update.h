// One GES move applied to a CPDAG in place, with the work confined to the
// connected component of the move's vertices: a member DAG of the new class
// (for an insertion under a score that does not tell a class's members
// apart, the member kept from the move before, reoriented on the head's
// chain component only; else Dor and Tarsi's consistent extension),
// the new CPDAG (Chickering's labelling) and the change of score are
// computed on that component only, from adjacency lists kept between
// moves. A move changes no edge outside its component, so the result is
// the CPDAG that apply_move() computes on the whole graph, at a cost that
// follows the component's edges instead of d^2. Pure C++.
#ifndef CALM_GES_UPDATE_H
#define CALM_GES_UPDATE_H

#include <vector>

#include "search_ges.h"
#include "graph_core.h"
#include "search_score.h"

namespace calm {

class CpdagUpdate {
 public:
  // `g`: the current CPDAG (mutual pairs for undirected edges), which must
  // have a consistent extension.
  explicit CpdagUpdate(const IntMatrix& g);

  // Applies `m` to `g` in place. Returns false, with `g` unchanged, when the
  // resulting PDAG has no consistent extension. Otherwise sets `delta` to
  // the change of the class's score and `touched` to the vertices whose
  // edges changed (sorted).
  bool apply(IntMatrix& g, const GesMove& m, LocalScore& score, double* delta,
             std::vector<int>* touched);

  // Restores `g` and the lists to their state before the last successful
  // apply().
  void undo(IntMatrix& g);

  // For each x, the y with g(x, y) = 1 (x -> y or x - y), sorted.
  const std::vector<std::vector<int>>& out_lists() const { return out_; }
  // For each x, the vertices adjacent to it, sorted.
  const std::vector<std::vector<int>>& adjacency() const { return adj_; }

 private:
  struct Entry {
    int i, j, value;
  };
  std::vector<int> component(int a, int b);
  void orient_move(IntMatrix& g, const GesMove& m);
  bool extend(const IntMatrix& g, const std::vector<int>& comp);
  void member_for_insert(const IntMatrix& g, const GesMove& m, const std::vector<int>& comp);
  bool write_cpdag(IntMatrix& g, const std::vector<int>& comp);
  void refresh_out(const IntMatrix& g, const std::vector<int>& comp);
  void set_adjacent(int a, int b, bool on);

  std::vector<std::vector<int>> adj_, out_, dag_pa_, new_pa_;
  std::vector<char> mark_;
  std::vector<int> pos_, out_directed_;
  std::vector<int> slot_;  // a component vertex's index in it (write_cpdag())
  std::vector<int> chain_pos_, chain_weight_;  // member_for_insert()'s search, -1 / 0 between moves
  // write_cpdag()'s lists by index in the component, reused between moves
  std::vector<std::vector<int>> children_, pa_;
  std::vector<std::vector<char>> label_;
  // what undo() restores
  std::vector<Entry> saved_;
  std::vector<int> saved_comp_;
  std::vector<std::vector<int>> saved_pa_;
  int saved_u_ = -1, saved_v_ = -1;
  bool saved_adjacent_ = false;
};

}  // namespace calm

#endif
