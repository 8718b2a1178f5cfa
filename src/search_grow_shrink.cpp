#include "search_grow_shrink.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "calm_eigen.h"

namespace calm {

namespace {
// The children of a tree node kept in order (best_child()).
constexpr std::size_t kSortedChildren = 16;
// Below this relative partial variance a candidate is taken as collinear
// with the current parents and scored exactly (LocalScore::local).
constexpr double kCollinearTol = 1e-10;
// The floor of LocalScore (relative to S_jj) for a residual variance.
constexpr double kResidualFloor = 1e-14;

// S[P, P] and S[P, j].
void parent_block(const CovRef& S, const std::vector<int>& pa, int j, Eigen::MatrixXd& SPP,
                  Eigen::VectorXd& SPj) {
  const int k = static_cast<int>(pa.size());
  SPP.resize(k, k);
  SPj.resize(k);
  for (int a = 0; a < k; ++a) {
    SPj(a) = S(pa[a], j);
    for (int b = 0; b < k; ++b) SPP(a, b) = S(pa[a], pa[b]);
  }
}
}  // namespace

GrowShrinkTree::GrowShrinkTree(LocalScore& score, int node, std::vector<int> candidates,
                               double grow_ratio, std::vector<int> required)
    : score_(score), j_(node), cand_(std::move(candidates)), required_(std::move(required)) {
  if (!(grow_ratio >= 0.0 && grow_ratio <= 1.0))
    throw std::invalid_argument("grow_ratio must lie in [0, 1]");
  slack_ = (1.0 - grow_ratio) * score_.lambda();
  scratch_.rows = cand_;
  scratch_.rows.insert(scratch_.rows.end(), required_.begin(), required_.end());
  add_root();
}

void GrowShrinkTree::add_root() {
  TreeNode root;
  root.score = score_.local(j_, required_);
  nodes_.push_back(std::move(root));
}

std::size_t GrowShrinkTree::bytes() const {
  const ExpandScratch& ws = scratch_;
  const std::size_t scratch = ws.in.capacity() +
                              (ws.pv.capacity() + ws.pc.capacity() + ws.rt.capacity()) * sizeof(double);
  return nodes_.capacity() * sizeof(TreeNode) + heap_bytes_ + scratch;
}

void GrowShrinkTree::clear() {
  std::vector<TreeNode>().swap(nodes_);
  scratch_.node = -1;
  std::vector<char>().swap(scratch_.in);
  std::vector<double>().swap(scratch_.pv);
  std::vector<double>().swap(scratch_.pc);
  std::vector<double>().swap(scratch_.rt);
  heap_bytes_ = 0;
  add_root();
}

std::vector<int> GrowShrinkTree::parent_set(int t) const {
  std::vector<int> pa = required_;
  for (; nodes_[t].parent >= 0; t = nodes_[t].parent) pa.push_back(cand_[nodes_[t].cand]);
  return pa;
}

// The partials of a parent set, kept in scratch_ (see search_grow_shrink.h). With
// the Cholesky factor L of S[P, P] and w = L^{-1} S[P, j], adding c to P
// lowers the residual variance of j by pc^2 / pv, where r = L^{-1} S[P, c],
// pc = S_cj - r.w (partial covariance) and pv = S_cc - r.r (partial
// variance); rv = S_jj - w.w. The r of every row (the candidates, then the
// required parents) are the rows of `rt`, one column per parent.
//
// A parent set's partials are always computed the same way, one parent at a
// time from the empty set (the required parents, then the tree path from
// the root), so that they do not depend on which tree nodes were expanded
// before (a cache budget's clears, the order of queries): partials_reset()
// gives the empty set's, partials_extend() adds one parent. Adding parent a
// (row q) is one more column of L: its new row is r_a with diagonal
// sqrt(pv_a), so the new column of rt is (S[., a] - Rt r_a) / sqrt(pv_a),
// w's new entry pc_a / sqrt(pv_a), and pv, pc and rv drop by their squares
// and products: O(k) per row. A walk expands a new node right after its
// parent, so expand() mostly extends its parent's partials by one parent;
// otherwise it rebuilds them along the path, O(k^2) per row. (One solve per
// candidate, Eigen's matrix-vector kind, took half of boss()'s time at 150
// variables with 4 parents a node on average.)
void GrowShrinkTree::partials_reset() {
  ExpandScratch& ws = scratch_;
  const CovRef S = score_.node_cov(j_);
  const int nr = static_cast<int>(ws.rows.size());
  ws.pv.resize(nr);
  ws.pc.resize(nr);
  for (int q = 0; q < nr; ++q) {
    ws.pv[q] = S(ws.rows[q], ws.rows[q]);
    ws.pc[q] = S(ws.rows[q], j_);
  }
  ws.rv = S(j_, j_);
  ws.k = 0;
}

// Adds the node of row q to the parent set of scratch_'s partials. Returns
// false when it is (nearly) collinear with the parents already there.
bool GrowShrinkTree::partials_extend(int q) {
  ExpandScratch& ws = scratch_;
  const CovRef S = score_.node_cov(j_);
  const int nr = static_cast<int>(ws.rows.size());
  const int a = ws.rows[q];
  const double d2 = ws.pv[q];
  if (!(d2 > kCollinearTol * S(a, a)) || !std::isfinite(d2)) return false;
  const double delta = std::sqrt(d2);
  const int k = ws.k;
  if (ws.rt.size() < static_cast<std::size_t>(nr) * (k + 1))
    ws.rt.resize(static_cast<std::size_t>(nr) * (k + 1));
  Eigen::Map<Eigen::MatrixXd> Rt(ws.rt.data(), nr, k + 1);
  double* r_col = Rt.col(k).data();
  const double* s_col = S.col(a).data();
  for (int i = 0; i < nr; ++i) r_col[i] = s_col[ws.rows[i]];
  for (int e = 0; e < k; ++e) Rt.col(k) -= Rt(q, e) * Rt.col(e);
  Rt.col(k) /= delta;
  const double w_new = ws.pc[q] / delta;
  Eigen::Map<Eigen::VectorXd> pv(ws.pv.data(), nr), pc(ws.pc.data(), nr);
  pv -= Rt.col(k).cwiseAbs2();
  pc -= w_new * Rt.col(k);
  ws.rv -= w_new * w_new;
  ws.k = k + 1;
  return true;
}

// scratch_'s partials for tree node t: from its parent's when those are
// there, else rebuilt from the empty set. Returns false when a parent is
// (nearly) collinear with the others (scratch_ then holds no node's).
bool GrowShrinkTree::partials_for(int t) {
  ExpandScratch& ws = scratch_;
  const int nc = static_cast<int>(cand_.size());
  const int up = nodes_[t].parent;
  bool ok;
  if (up >= 0 && ws.node == up) {
    ok = partials_extend(nodes_[t].cand);
  } else {
    std::vector<int> path;  // candidate indices from the root down to t
    for (int u = t; nodes_[u].parent >= 0; u = nodes_[u].parent) path.push_back(nodes_[u].cand);
    partials_reset();
    ok = true;
    for (std::size_t i = 0; ok && i < required_.size(); ++i)
      ok = partials_extend(nc + static_cast<int>(i));
    for (std::size_t i = path.size(); ok && i-- > 0;) ok = partials_extend(path[i]);
  }
  ws.node = ok ? t : -1;
  return ok;
}

void GrowShrinkTree::expand(int t) {
  const std::vector<int> pa = parent_set(t);
  const int k = static_cast<int>(pa.size());
  ExpandScratch& ws = scratch_;
  std::vector<char>& in = ws.in;
  in.assign(cand_.size(), 0);
  for (int u = t; nodes_[u].parent >= 0; u = nodes_[u].parent) in[nodes_[u].cand] = 1;
  const double base = nodes_[t].score;
  const CovRef S = score_.node_cov(j_);
  const double sjj = S(j_, j_);
  // a set larger than the sample allows has no admissible superset
  if (!score_.admissible(j_, k + 1, sjj)) {
    nodes_[t].expanded = true;
    return;
  }
  const bool ok = partials_for(t);
  const double rv = ok ? ws.rv : sjj;
  const double lam_size = score_.lambda() * static_cast<double>(k + 1);
  std::vector<Child> kids;
  std::vector<int> with = pa;
  with.push_back(-1);
  // Only a candidate whose residual variance is below `keep` can pass the
  // grow rule (s < base + slack_); the others need no logarithm. The bound
  // is loosened a little so that every candidate near it is decided on s
  // itself.
  const double keep = score_.rv_below(j_, base + slack_ - lam_size) * (1.0 + 1e-9);
  const int nc = static_cast<int>(cand_.size());
  for (int b = 0; b < nc; ++b) {
    if (in[b]) continue;
    const int c = cand_[b];
    double s;
    if (ok && ws.pv[b] > kCollinearTol * S(c, c) && rv > 0) {
      const double rv_new = std::max(rv - ws.pc[b] * ws.pc[b] / ws.pv[b], kResidualFloor * sjj);
      if (!(rv_new < keep)) continue;
      s = score_.admissible(j_, k + 1, rv_new) ? score_.fit_term(j_, rv_new) + lam_size
                                               : std::numeric_limits<double>::infinity();
    } else {
      // (nearly) collinear parents: the exact, rank-revealing computation
      with.back() = c;
      s = score_.local(j_, with);
    }
    // s < base: the score improves; up to slack_ above it the grow step
    // still goes on (grow_ratio < 1)
    if (s < base + slack_) kids.push_back({s, b, -1});
  }
  // only the best kSortedChildren in order (best_child())
  const std::size_t front = std::min(kids.size(), kSortedChildren);
  if (front < kids.size()) std::nth_element(kids.begin(), kids.begin() + front, kids.end(), better);
  std::sort(kids.begin(), kids.begin() + front, better);
  nodes_[t].sorted = static_cast<int>(front);
  kids.shrink_to_fit();
  heap_bytes_ += kids.capacity() * sizeof(Child);
  nodes_[t].children = std::move(kids);
  nodes_[t].expanded = true;
}

// Best first; ties by candidate index, a total order, so the order does not
// depend on the sort's implementation nor on how the children were sorted
// in pieces.
bool GrowShrinkTree::better(const Child& a, const Child& b) {
  return a.score < b.score || (a.score == b.score && a.cand < b.cand);
}

// The best allowed child of tree node t (its index among the children; -1
// when none is allowed): the first allowed one of the sorted front, else the
// best allowed one of the rest. A walk mostly stops at a child near the
// front, or scans all children of the node where it ends (none allowed), so
// the rest is never sorted: sorting every node's children at expansion (a
// hub's node can have thousands) took a quarter of the scan's kicks at 5000
// variables.
int GrowShrinkTree::best_child(int t, const std::vector<char>& allowed) const {
  const std::vector<Child>& ch = nodes_[t].children;
  const std::size_t front = static_cast<std::size_t>(nodes_[t].sorted);
  for (std::size_t c = 0; c < front; ++c)
    if (allowed[ch[c].cand]) return static_cast<int>(c);
  int pick = -1;
  for (std::size_t c = front; c < ch.size(); ++c)
    if (allowed[ch[c].cand] && (pick < 0 || better(ch[c], ch[pick]))) pick = static_cast<int>(c);
  return pick;
}

void GrowShrinkTree::shrink(int t) {
  std::vector<int> pa = parent_set(t);
  double cur = nodes_[t].score;
  const CovRef S = score_.node_cov(j_);
  const double sjj = S(j_, j_);
  for (;;) {
    const int k = static_cast<int>(pa.size());
    if (k == 0) break;
    // Dropping parent a raises the residual variance by beta_a^2 / (S_PP^-1)_aa,
    // with beta = S_PP^-1 S_Pj the regression coefficients.
    Eigen::MatrixXd SPP;
    Eigen::VectorXd SPj;
    parent_block(S, pa, j_, SPP, SPj);
    Eigen::LLT<Eigen::MatrixXd> llt(SPP);
    bool ok = llt.info() == Eigen::Success;
    Eigen::MatrixXd inv;
    Eigen::VectorXd beta;
    double rv = 0;
    if (ok) {
      inv = llt.solve(Eigen::MatrixXd::Identity(k, k));
      beta = inv * SPj;
      rv = sjj - SPj.dot(beta);
      ok = rv > kResidualFloor * sjj;
    }
    const double lam_size = score_.lambda() * static_cast<double>(k - 1);
    int drop = -1;
    double best_s = cur;
    std::vector<int> q;
    for (int a = 0; a < k; ++a) {
      if (!required_.empty() &&
          std::find(required_.begin(), required_.end(), pa[a]) != required_.end())
        continue;
      double s;
      if (ok && inv(a, a) > 0) {
        s = score_.fit_term(j_, rv + beta(a) * beta(a) / inv(a, a)) + lam_size;
      } else {
        q = pa;
        q.erase(q.begin() + a);
        s = score_.local(j_, q);
      }
      if (s < best_s) {
        best_s = s;
        drop = a;
      }
    }
    if (drop < 0) break;
    pa.erase(pa.begin() + drop);
    cur = best_s;
  }
  std::sort(pa.begin(), pa.end());
  nodes_[t].shrunk = true;
  nodes_[t].shrunk_score = cur;
  heap_bytes_ += pa.capacity() * sizeof(int);
  nodes_[t].shrunk_set = std::move(pa);
}

double GrowShrinkTree::best(const std::vector<char>& allowed, std::vector<int>* chosen) {
  int t = 0;
  int stop = -1;  // where the plain grow step stops (the score no longer improves)
  for (;;) {
    if (!nodes_[t].expanded) expand(t);
    const int c = best_child(t, allowed);
    if (c < 0) break;
    const Child ch = nodes_[t].children[c];
    if (ch.node < 0) {
      TreeNode child;
      child.parent = t;
      child.cand = ch.cand;
      child.score = ch.score;
      nodes_[t].children[c].node = static_cast<int>(nodes_.size());
      nodes_.push_back(std::move(child));
    }
    if (stop < 0 && !(ch.score < nodes_[t].score)) stop = t;
    t = nodes_[t].children[c].node;
  }
  if (!nodes_[t].shrunk) shrink(t);
  if (stop >= 0 && stop != t) {
    if (!nodes_[stop].shrunk) shrink(stop);
    // ties go to the shorter walk, the plain grow-shrink result
    if (nodes_[stop].shrunk_score <= nodes_[t].shrunk_score) t = stop;
  }
  if (chosen) *chosen = nodes_[t].shrunk_set;
  return nodes_[t].shrunk_score;
}

}  // namespace calm
