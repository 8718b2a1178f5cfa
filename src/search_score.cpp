#include "search_score.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace calm {

namespace {
// Relative floor of a residual variance: below it the regression is taken as
// exact (collinear parents, or a deterministic population relation).
constexpr double kVarianceFloor = 1e-14;
}  // namespace

LocalScore::LocalScore(Eigen::Ref<const Eigen::MatrixXd> cov, double lambda, int max_parents)
    : S_(cov.data(), cov.rows(), cov.cols()), lambda_(lambda), max_parents_(max_parents) {
  if (cov.size() > 0 && cov.outerStride() != cov.rows())
    throw std::invalid_argument("covariance must be stored contiguously");
  if (S_.rows() != S_.cols()) throw std::invalid_argument("covariance must be square");
  if (!(lambda >= 0) || !std::isfinite(lambda))
    throw std::invalid_argument("penalty must be finite and non-negative");
  for (int j = 0; j < S_.rows(); ++j)
    if (!(S_(j, j) > 0)) throw std::invalid_argument("covariance must have a positive diagonal");
}

LocalScore LocalScore::fresh_copy() const {
  LocalScore out(S_, lambda_, max_parents_);
  out.covs_ = covs_;
  out.group_ = group_;
  out.node_max_ = node_max_;
  out.weight_ = weight_;
  return out;
}

void LocalScore::set_interventional(std::vector<Eigen::MatrixXd> covs, std::vector<int> group,
                                    std::vector<double> weight, std::vector<int> max_parents) {
  const int d = dim();
  if (static_cast<int>(group.size()) != d || static_cast<int>(weight.size()) != d ||
      static_cast<int>(max_parents.size()) != d)
    throw std::invalid_argument("interventional moments must have one entry per node");
  for (const Eigen::MatrixXd& c : covs)
    if (c.rows() != d || c.cols() != d) throw std::invalid_argument("interventional covariances differ in size");
  for (int j = 0; j < d; ++j) {
    if (group[j] < 0 || group[j] >= static_cast<int>(covs.size()))
      throw std::invalid_argument("interventional group out of range");
    if (!(weight[j] > 0) || !std::isfinite(weight[j]))
      throw std::invalid_argument("interventional weights must be positive");
    if (!(covs[group[j]](j, j) > 0))
      throw std::invalid_argument("a node does not vary in the rows where it is not intervened on");
  }
  covs_ = std::move(covs);
  group_ = std::move(group);
  weight_ = std::move(weight);
  node_max_ = std::move(max_parents);
  max_parents_ = *std::min_element(node_max_.begin(), node_max_.end());
  if (max_parents_ < 0 && *std::max_element(node_max_.begin(), node_max_.end()) >= 0)
    throw std::invalid_argument("interventional parent limits must be all finite or all none");
  clear_cache();
}

std::size_t LocalScore::KeyHash::operator()(const std::vector<int>& v) const {
  std::uint64_t h = 1469598103934665603ULL;
  for (int x : v) {
    h ^= static_cast<std::uint64_t>(x) + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    h *= 1099511628211ULL;
  }
  return static_cast<std::size_t>(h);
}

double LocalScore::residual_variance(int j, const std::vector<int>& parents) const {
  const CovRef S_ = node_cov(j);
  const double sjj = S_(j, j);
  const int k = static_cast<int>(parents.size());
  if (k == 0) return sjj;
  Eigen::MatrixXd A(k, k);
  Eigen::VectorXd b(k);
  for (int a = 0; a < k; ++a) {
    b(a) = S_(parents[a], j);
    for (int c = 0; c < k; ++c) A(a, c) = S_(parents[a], parents[c]);
  }
  Eigen::LDLT<Eigen::MatrixXd> ldlt(A);
  double rv;
  if (ldlt.info() == Eigen::Success && ldlt.isPositive()) {
    rv = sjj - b.dot(ldlt.solve(b));
  } else {
    // singular parent block: least squares through a rank-revealing solve
    Eigen::VectorXd coef = A.completeOrthogonalDecomposition().solve(b);
    rv = sjj - b.dot(coef);
  }
  return std::max(rv, kVarianceFloor * sjj);
}

double LocalScore::compute(int j, const std::vector<int>& parents) const {
  const int k = static_cast<int>(parents.size());
  const int mp = node_max_parents(j);
  if (mp >= 0 && k > mp) return std::numeric_limits<double>::infinity();
  const double rv = residual_variance(j, parents);
  if (!admissible(j, k, rv)) return std::numeric_limits<double>::infinity();
  return fit_term(j, rv) + lambda_ * static_cast<double>(k);
}

double LocalScore::local(int j, std::vector<int> parents) {
  std::sort(parents.begin(), parents.end());
  if (parents.size() <= kUncachedParents) return compute(j, parents);
  std::vector<int> key;
  key.reserve(parents.size() + 1);
  key.push_back(j);
  key.insert(key.end(), parents.begin(), parents.end());
  auto it = cache_.find(key);
  if (it != cache_.end()) return it->second;
  const double s = compute(j, parents);
  // a hash node holds the key's vector, the value and two pointers
  cache_bytes_ += key.capacity() * sizeof(int) + sizeof(key) + 2 * sizeof(void*) + sizeof(double);
  cache_.emplace(std::move(key), s);
  return s;
}

double LocalScore::dag_score(const IntMatrix& adj) {
  const int d = dim();
  if (adj.rows() != d || adj.cols() != d) throw std::invalid_argument("graph and covariance differ in size");
  double total = 0;
  std::vector<int> pa;
  for (int j = 0; j < d; ++j) {
    pa.clear();
    for (int i = 0; i < d; ++i)
      if (adj(i, j) != 0) pa.push_back(i);
    total += local(j, pa);
  }
  return total;
}

namespace {
// The new row of the packed Cholesky factor L of S[T, T] when candidate
// node v joins T (`members`, candidate indices): `row` gets the solution r
// of L r = S[T, v] and room for the diagonal; returns |r|^2.
double factor_row(const CovRef& S, const std::vector<int>& candidates,
                  const std::vector<int>& members, const std::vector<double>& L, int v,
                  std::vector<double>& row) {
  const int depth = static_cast<int>(members.size());
  row.assign(depth + 1, 0.0);
  double rr = 0;
  for (int a = 0; a < depth; ++a) {
    double s = S(candidates[members[a]], v);
    const double* La = &L[static_cast<std::size_t>(a) * (a + 1) / 2];
    for (int b = 0; b < a; ++b) s -= La[b] * row[b];
    row[a] = s / La[a];
    rr += row[a] * row[a];
  }
  return rr;
}
}  // namespace

// One depth-first walk whose stack frames share the packed Cholesky factor.
std::vector<double> LocalScore::all_subset_scores(int j, const std::vector<int>& candidates) const {
  const int k = static_cast<int>(candidates.size());
  if (k > 30) throw std::invalid_argument("too many candidate parents for an exhaustive subset table");
  const std::size_t total = std::size_t(1) << k;
  std::vector<double> out(total);
  const CovRef S_ = node_cov(j);
  const double sjj = S_(j, j);
  // Depth-first walk: a stack frame holds the subset as a bit mask, the
  // members in increasing candidate index, the Cholesky factor L of
  // S[T, T] (rows stored in `L`, row r of length r + 1) and w = L^{-1} S[T, j],
  // so that rv(T) = S_jj - |w|^2. Children add a candidate with a larger index.
  struct Frame {
    std::uint32_t mask;
    int next;  // smallest candidate index a child may add
  };
  std::vector<int> members;            // candidate indices in T, depth order
  std::vector<double> L;               // packed lower-triangular rows
  std::vector<double> w;               // L^{-1} S[T, j]
  std::vector<double> wsq_prefix(1, 0.0);
  std::vector<bool> singular_prefix(1, false);
  std::vector<Frame> stack;
  out[0] = fit_term(j, sjj);
  stack.push_back({0u, 0});
  std::vector<int> depth_of_frame(1, 0);
  std::vector<double> row;
  while (!stack.empty()) {
    Frame& f = stack.back();
    const int depth = depth_of_frame.back();
    // trim the factor to this frame's depth
    members.resize(depth);
    w.resize(depth);
    L.resize(static_cast<std::size_t>(depth) * (depth + 1) / 2);
    wsq_prefix.resize(depth + 1);
    singular_prefix.resize(depth + 1);
    if (f.next >= k) {
      stack.pop_back();
      depth_of_frame.pop_back();
      continue;
    }
    const int c = f.next++;
    const int v = candidates[c];
    const double rr = factor_row(S_, candidates, members, L, v, row);
    double diag2 = S_(v, v) - rr;
    bool singular = singular_prefix[depth] || !(diag2 > kVarianceFloor * S_(v, v));
    double diag = singular ? 1.0 : std::sqrt(diag2);
    row[depth] = diag;
    double s = S_(v, j);
    for (int a = 0; a < depth; ++a) s -= row[a] * w[a];
    const double wn = singular ? 0.0 : s / diag;
    const std::uint32_t mask = f.mask | (std::uint32_t(1) << c);
    const int size = depth + 1;
    double rv;
    if (singular) {
      std::vector<int> pa;
      for (int b = 0; b < k; ++b)
        if (mask & (std::uint32_t(1) << b)) pa.push_back(candidates[b]);
      rv = residual_variance(j, pa);
    } else {
      rv = std::max(sjj - (wsq_prefix[depth] + wn * wn), kVarianceFloor * sjj);
    }
    out[mask] = admissible(j, size, rv) ? fit_term(j, rv) + lambda_ * size
                                        : std::numeric_limits<double>::infinity();
    // push the child frame with the extended factor
    members.push_back(c);
    L.insert(L.end(), row.begin(), row.end());
    w.push_back(wn);
    wsq_prefix.push_back(wsq_prefix[depth] + wn * wn);
    singular_prefix.push_back(singular);
    stack.push_back({mask, c + 1});
    depth_of_frame.push_back(size);
  }
  return out;
}

}  // namespace calm
