// Grow-shrink trees (after Andrews et al. 2023, "BOSS"): the best parent set
// of one node among any allowed subset of its candidates, found greedily and
// cached so that the many queries of an order search cost little.
//
// The tree's root is the empty parent set. A tree node with parent set P
// lists, once, the candidates whose addition to P improves the local score
// (the best few sorted by score). A query with an allowed set Z walks down
// from the root, each time to the best-scoring child whose candidate is in
// Z (this is the greedy "grow" step restricted to Z), and stops when no
// child is allowed.
// The "shrink" step (greedy removal of parents that no longer help) depends
// only on the grown set, so it is cached at the tree node where the walk
// ends.
//
// With `grow_ratio` < 1 the grow step goes on past the point where the score
// stops improving: it adds the best allowed candidate while the candidate
// lowers the fit term by more than grow_ratio * lambda (the penalty of one
// parent at the weaker rate). Under a strong penalty a greedy grow step
// stops as soon as no single parent pays for itself, even where two together
// would; growing further and then shrinking under the full penalty finds
// such sets. Both the set where the plain grow step stops and the longer one
// are shrunk, and the better result is returned, so a query never scores
// worse than with grow_ratio = 1. The order of the walk does not depend on
// the penalty (every child of a tree node has the same size), only where it
// stops.
//
// Required parents (background knowledge) sit in every parent set: the root
// holds them, and the shrink step never drops them. Pure C++, no R headers.
#ifndef CALM_GROW_SHRINK_H
#define CALM_GROW_SHRINK_H

#include <vector>

#include "search_score.h"

namespace calm {

class GrowShrinkTree {
 public:
  // `candidates`: the nodes that may be parents of `node` (node not among
  // them); `grow_ratio` in [0, 1] (see above; 1 is the plain grow step);
  // `required`: parents every set holds (not among the candidates).
  GrowShrinkTree(LocalScore& score, int node, std::vector<int> candidates, double grow_ratio = 1.0,
                 std::vector<int> required = {});

  const std::vector<int>& candidates() const { return cand_; }

  // Best (greedy grow, then shrink) score with parents among the candidates b
  // with allowed[b] != 0; the parents (node indices) go to `chosen` if given.
  double best(const std::vector<char>& allowed, std::vector<int>* chosen);

  std::size_t size() const { return nodes_.size(); }

  // Bytes the tree holds (its nodes, their children and shrunk sets, and
  // expand()'s work space). The tree is a cache: clear() drops every node
  // but the root, and later queries rebuild what they need with the same
  // results.
  std::size_t bytes() const;
  void clear();

 private:
  struct Child {    // (16 bytes: a hub's nodes hold thousands)
    double score;  // local score of the parent set with it
    int cand;      // candidate index added
    int node;      // tree node, -1 until first visited
  };
  struct TreeNode {
    int parent = -1;
    int cand = -1;  // candidate added on the edge from the parent
    double score = 0;
    bool expanded = false;
    bool shrunk = false;
    // the first `sorted` children are the best, in order, the rest in no
    // order (best_child())
    int sorted = 0;
    double shrunk_score = 0;
    std::vector<Child> children;  // additions that pass the grow rule
    std::vector<int> shrunk_set;  // node indices after the shrink step
  };
  // Work space of expand(): the partials (see partials_reset()) of the
  // parent set of tree node `node` (-1: none) with k parents, per row
  // (`rows`: the candidates, then the required parents), kept between calls
  // so that the next expansion, often of its child, extends them, and so
  // that an expansion allocates little. Counted in bytes() (k + 3 numbers
  // per row) and released by clear().
  struct ExpandScratch {
    int node = -1;
    int k = 0;
    double rv = 0;  // residual variance of the tree's node given P
    std::vector<int> rows;           // set by the constructor
    std::vector<char> in;            // candidates in P
    std::vector<double> pv, pc, rt;  // per row; rt: k columns of r
  };
  ExpandScratch scratch_;
  void partials_reset();
  bool partials_extend(int q);
  bool partials_for(int t);
  void add_root();
  void expand(int t);
  int best_child(int t, const std::vector<char>& allowed) const;
  static bool better(const Child& a, const Child& b);
  std::vector<int> parent_set(int t) const;  // required parents, then the path to t
  void shrink(int t);

  LocalScore& score_;
  int j_;
  double slack_;  // (1 - grow_ratio) * lambda: how far the grow step may go past improvement
  std::vector<int> cand_;
  std::vector<int> required_;
  std::vector<TreeNode> nodes_;
  std::size_t heap_bytes_ = 0;  // of the nodes' children and shrunk sets
};

}  // namespace calm

#endif
