#include "grow_shrink.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "calm_eigen.h"

namespace calm {

namespace {
// Below this relative partial variance a candidate is taken as collinear
// with the current parents and scored exactly (LocalScore::local).
constexpr double kCollinearTol = 1e-10;
// The floor of LocalScore (relative to S_jj) for a residual variance.
constexpr double kResidualFloor = 1e-14;

// S[P, P] and S[P, j].
void parent_block(const Eigen::MatrixXd& S, const std::vector<int>& pa, int j, Eigen::MatrixXd& SPP,
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
  add_root();
}

void GrowShrinkTree::add_root() {
  TreeNode root;
  root.score = score_.local(j_, required_);
  nodes_.push_back(std::move(root));
}

std::size_t GrowShrinkTree::bytes() const {
  return nodes_.capacity() * sizeof(TreeNode) + heap_bytes_;
}

void GrowShrinkTree::clear() {
  std::vector<TreeNode>().swap(nodes_);
  heap_bytes_ = 0;
  add_root();
}

std::vector<int> GrowShrinkTree::parent_set(int t) const {
  std::vector<int> pa = required_;
  for (; nodes_[t].parent >= 0; t = nodes_[t].parent) pa.push_back(cand_[nodes_[t].cand]);
  return pa;
}

void GrowShrinkTree::expand(int t) {
  const std::vector<int> pa = parent_set(t);
  const int k = static_cast<int>(pa.size());
  std::vector<char> in(cand_.size(), 0);
  for (int u = t; nodes_[u].parent >= 0; u = nodes_[u].parent) in[nodes_[u].cand] = 1;
  const double base = nodes_[t].score;
  const Eigen::MatrixXd& S = score_.cov();
  const double sjj = S(j_, j_);
  // With the Cholesky factor L of S[P, P] and w = L^{-1} S[P, j], adding c
  // to P lowers the residual variance of j by pc^2 / pv, where
  // r = L^{-1} S[P, c], pc = S_cj - r.w (partial covariance) and
  // pv = S_cc - r.r (partial variance): O(k^2) per candidate, no cache.
  Eigen::MatrixXd SPP;
  Eigen::VectorXd SPj;
  parent_block(S, pa, j_, SPP, SPj);
  Eigen::LLT<Eigen::MatrixXd> llt(SPP);
  const bool ok = llt.info() == Eigen::Success;
  Eigen::VectorXd w, r(k);
  double rv = 0;
  if (ok && k > 0) {
    w = llt.matrixL().solve(SPj);
    rv = sjj - w.squaredNorm();
  } else {
    rv = sjj;
  }
  const double lam_size = score_.lambda() * static_cast<double>(k + 1);
  std::vector<Child> kids;
  std::vector<int> with = pa;
  with.push_back(-1);
  // a set larger than the sample allows has no admissible superset
  if (!score_.admissible(j_, k + 1, sjj)) {
    nodes_[t].expanded = true;
    return;
  }
  for (std::size_t b = 0; b < cand_.size(); ++b) {
    if (in[b]) continue;
    const int c = cand_[b];
    double s;
    double pv = S(c, c), pc = S(c, j_);
    if (ok && k > 0) {
      for (int a = 0; a < k; ++a) r(a) = S(pa[a], c);
      llt.matrixL().solveInPlace(r);
      pv -= r.squaredNorm();
      pc -= r.dot(w);
    }
    if (ok && pv > kCollinearTol * S(c, c) && rv > 0) {
      const double rv_new = std::max(rv - pc * pc / pv, kResidualFloor * sjj);
      s = score_.admissible(j_, k + 1, rv_new) ? 0.5 * std::log(rv_new) + lam_size
                                               : std::numeric_limits<double>::infinity();
    } else {
      // (nearly) collinear parents: the exact, rank-revealing computation
      with.back() = c;
      s = score_.local(j_, with);
    }
    // s < base: the score improves; up to slack_ above it the grow step
    // still goes on (grow_ratio < 1)
    if (s < base + slack_) kids.push_back({static_cast<int>(b), s, -1});
  }
  // best first; ties by candidate index, so that results do not depend on
  // the sort's implementation
  std::sort(kids.begin(), kids.end(), [](const Child& a, const Child& b) {
    return a.score < b.score || (a.score == b.score && a.cand < b.cand);
  });
  kids.shrink_to_fit();
  heap_bytes_ += kids.capacity() * sizeof(Child);
  nodes_[t].children = std::move(kids);
  nodes_[t].expanded = true;
}

void GrowShrinkTree::shrink(int t) {
  std::vector<int> pa = parent_set(t);
  double cur = nodes_[t].score;
  const Eigen::MatrixXd& S = score_.cov();
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
        s = 0.5 * std::log(rv + beta(a) * beta(a) / inv(a, a)) + lam_size;
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
    int next = -1;
    const std::size_t nk = nodes_[t].children.size();
    for (std::size_t c = 0; c < nk; ++c) {
      Child& ch = nodes_[t].children[c];
      if (!allowed[ch.cand]) continue;
      if (ch.node < 0) {
        TreeNode child;
        child.parent = t;
        child.cand = ch.cand;
        child.score = ch.score;
        const int idx = static_cast<int>(nodes_.size());
        nodes_[t].children[c].node = idx;  // before push_back invalidates references
        nodes_.push_back(std::move(child));
      }
      if (stop < 0 && !(ch.score < nodes_[t].score)) stop = t;
      next = nodes_[t].children[c].node;
      break;
    }
    if (next < 0) break;
    t = next;
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
