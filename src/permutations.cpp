#include "permutations.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace calm {

namespace {

// Appends node m to a Cholesky factor L (k x k used, lower triangular) of
// sigma[S, S], where `members` lists S in factor order: row k of L becomes
// the new row. Both the subset walk and regression_dag() use this one
// routine so that they produce bit-identical coefficients.
void chol_append(const Eigen::MatrixXd& sigma, const std::vector<int>& members, int k, int m,
                 Eigen::MatrixXd& L) {
  double diag = sigma(m, m);
  for (int r = 0; r < k; ++r) {
    double v = sigma(members[r], m);
    for (int c = 0; c < r; ++c) v -= L(r, c) * L(k, c);
    v /= L(r, r);
    L(k, r) = v;
    diag -= v * v;
  }
  if (!(diag > 0.0)) {
    throw std::invalid_argument("covariance matrix is not positive definite");
  }
  L(k, k) = std::sqrt(diag);
  for (int c = k + 1; c < L.cols(); ++c) L(k, c) = 0.0;
}

// Coefficients b of node j regressed on members[0..k-1], given the Cholesky
// factor L of their covariance block: solve L y = sigma[S, j], L^T b = y.
// Returns the residual variance sigma_jj - y'y.
double regress(const Eigen::MatrixXd& sigma, const std::vector<int>& members, int k, int j,
               const Eigen::MatrixXd& L, Eigen::VectorXd& y, Eigen::VectorXd& b) {
  double resid = sigma(j, j);
  for (int r = 0; r < k; ++r) {
    double v = sigma(members[r], j);
    for (int c = 0; c < r; ++c) v -= L(r, c) * y(c);
    y(r) = v / L(r, r);
    resid -= y(r) * y(r);
  }
  for (int r = k - 1; r >= 0; --r) {
    double v = y(r);
    for (int c = r + 1; c < k; ++c) v -= L(c, r) * b(c);
    b(r) = v / L(r, r);
  }
  return resid;
}

struct SubsetWalk {
  const Eigen::MatrixXd& sigma;
  const Eigen::VectorXd& sd;
  double zero_tol;
  int d;
  std::vector<double>& l1;
  std::vector<int>& l0;
  std::vector<int> members;
  Eigen::MatrixXd L;
  Eigen::VectorXd y, b;

  // Visits subset `mask` (its members, ascending, in members[0..k-1] with
  // factor L) and then every superset obtained by adding larger indices.
  void visit(std::uint32_t mask, int k) {
    for (int j = 0; j < d; ++j) {
      if (mask & (1u << j)) continue;
      regress(sigma, members, k, j, L, y, b);
      double s1 = 0.0;
      int s0 = 0;
      for (int r = 0; r < k; ++r) {
        const double a = std::abs(b(r));
        s1 += a;
        if (a * sd(members[r]) / sd(j) > zero_tol) ++s0;
      }
      const std::size_t idx = static_cast<std::size_t>(mask) * d + j;
      l1[idx] = s1;
      l0[idx] = s0;
    }
    const int start = k == 0 ? 0 : members[k - 1] + 1;
    for (int m = start; m < d; ++m) {
      chol_append(sigma, members, k, m, L);
      members[k] = m;
      visit(mask | (1u << m), k + 1);
    }
  }
};

struct OrderWalk {
  const SubsetRegressions& reg;
  double threshold;
  const std::function<bool()>& interrupt;
  int d;
  std::vector<int> order;
  OrderEnumeration res;
  std::uint64_t since_poll = 0;

  // Returns false to abort the walk.
  bool visit(std::uint32_t mask, int depth, double l1, int l0) {
    if (depth == d) {
      ++res.n_orders;
      if (l1 < threshold) ++res.n_smaller;
      if (l1 < res.l1_min) {
        res.l1_min = l1;
        res.l0_at_l1_min = l0;
        res.order_l1_min = order;
      }
      if (l0 < res.l0_min || (l0 == res.l0_min && l1 < res.l1_at_l0_min)) {
        res.l0_min = l0;
        res.l1_at_l0_min = l1;
        res.order_l0_min = order;
      }
      if (++since_poll >= 100000) {
        since_poll = 0;
        if (interrupt && interrupt()) {
          res.interrupted = true;
          return false;
        }
      }
      return true;
    }
    for (int j = 0; j < d; ++j) {
      if (mask & (1u << j)) continue;
      order[depth] = j;
      if (!visit(mask | (1u << j), depth + 1, l1 + reg.l1(j, mask), l0 + reg.l0(j, mask))) {
        return false;
      }
    }
    return true;
  }
};

}  // namespace

SubsetRegressions::SubsetRegressions(const Eigen::MatrixXd& sigma, double zero_tol)
    : d_(static_cast<int>(sigma.rows())) {
  if (sigma.rows() != sigma.cols() || d_ < 1) {
    throw std::invalid_argument("sigma must be a non-empty square matrix");
  }
  if (d_ > 20) throw std::invalid_argument("at most 20 variables are supported");
  const std::size_t size = (static_cast<std::size_t>(1) << d_) * static_cast<std::size_t>(d_);
  l1_.assign(size, 0.0);
  l0_.assign(size, 0);
  Eigen::VectorXd sd = sigma.diagonal().cwiseSqrt();
  SubsetWalk walk{sigma, sd, zero_tol, d_, l1_, l0_, std::vector<int>(d_, -1),
                  Eigen::MatrixXd::Zero(d_, d_), Eigen::VectorXd::Zero(d_),
                  Eigen::VectorXd::Zero(d_)};
  walk.visit(0u, 0);
}

Eigen::MatrixXd regression_dag(const Eigen::MatrixXd& sigma, const std::vector<int>& order,
                               Eigen::VectorXd* omega) {
  const int d = static_cast<int>(sigma.rows());
  if (static_cast<int>(order.size()) != d) {
    throw std::invalid_argument("order must list every node once");
  }
  std::vector<bool> seen(d, false);
  for (int v : order) {
    if (v < 0 || v >= d || seen[v]) throw std::invalid_argument("order must be a permutation");
    seen[v] = true;
  }
  Eigen::MatrixXd B = Eigen::MatrixXd::Zero(d, d);
  if (omega) omega->resize(d);
  Eigen::MatrixXd L = Eigen::MatrixXd::Zero(d, d);
  Eigen::VectorXd y = Eigen::VectorXd::Zero(d), b = Eigen::VectorXd::Zero(d);
  std::vector<int> members;
  members.reserve(d);
  for (int k = 0; k < d; ++k) {
    const int j = order[k];
    // Factor the predecessors in ascending order, exactly as the subset walk
    // does, so the coefficients match the ones enumerate_orders() summed.
    members.assign(order.begin(), order.begin() + k);
    std::sort(members.begin(), members.end());
    for (int r = 0; r < k; ++r) chol_append(sigma, members, r, members[r], L);
    const double resid = regress(sigma, members, k, j, L, y, b);
    for (int r = 0; r < k; ++r) B(members[r], j) = b(r);
    if (omega) (*omega)(j) = resid;
  }
  return B;
}

OrderEnumeration enumerate_orders(const SubsetRegressions& reg, double l1_threshold,
                                const std::function<bool()>& interrupt) {
  OrderWalk walk{reg, l1_threshold, interrupt, reg.d(), std::vector<int>(reg.d(), -1), {}, 0};
  walk.res.l1_min = std::numeric_limits<double>::infinity();
  walk.res.l1_at_l0_min = std::numeric_limits<double>::infinity();
  walk.res.l0_min = std::numeric_limits<int>::max();
  walk.visit(0u, 0, 0.0, 0);
  return walk.res;
}

}  // namespace calm
