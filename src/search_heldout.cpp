#include "search_heldout.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace calm {

namespace {

// Least-squares coefficients of j on `pa` from the covariance s.
Eigen::VectorXd parent_weights(const Eigen::MatrixXd& s, const std::vector<int>& pa, int j) {
  const int k = static_cast<int>(pa.size());
  Eigen::MatrixXd a(k, k);
  Eigen::VectorXd b(k);
  for (int r = 0; r < k; ++r) {
    b[r] = s(pa[r], j);
    for (int c = 0; c < k; ++c) a(r, c) = s(pa[r], pa[c]);
  }
  Eigen::LLT<Eigen::MatrixXd> llt(a);
  if (llt.info() == Eigen::Success) {
    Eigen::VectorXd w = llt.solve(b);
    if (w.allFinite()) return w;
  }
  Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(a);
  qr.setThreshold(1e-10);
  const int rank = static_cast<int>(qr.rank());
  Eigen::VectorXd w = Eigen::VectorXd::Zero(k);
  if (rank == 0) return w;
  // the basic solution: dependent columns (after pivoting) get weight 0
  Eigen::VectorXd qtb = qr.householderQ().adjoint() * b;
  Eigen::VectorXd head = qr.matrixQR()
                             .topLeftCorner(rank, rank)
                             .triangularView<Eigen::Upper>()
                             .solve(qtb.head(rank));
  for (int r = 0; r < rank; ++r) w[qr.colsPermutation().indices()[r]] = head[r];
  return w;
}

}  // namespace

double heldout_loglik(const IntMatrix& dag, const Eigen::MatrixXd& s, const Eigen::VectorXd& mu,
                      const Eigen::MatrixXd& test, double floor) {
  const int d = static_cast<int>(s.rows());
  const Eigen::Index m = test.rows();
  const double log_2pi = std::log(2.0 * 3.14159265358979323846);
  double total = 0;
  std::vector<int> pa;
  Eigen::VectorXd r(m);
  for (int j = 0; j < d; ++j) {
    pa.clear();
    for (int i = 0; i < d; ++i)
      if (dag(i, j) != 0) pa.push_back(i);
    r = test.col(j).array() - mu[j];
    double v = s(j, j);
    if (!pa.empty()) {
      const Eigen::VectorXd w = parent_weights(s, pa, j);
      for (std::size_t b = 0; b < pa.size(); ++b) {
        r -= w[b] * (test.col(pa[b]).array() - mu[pa[b]]).matrix();
        v -= s(j, pa[b]) * w[b];
      }
    }
    v = std::max(v, floor * s(j, j));
    total -= 0.5 * (static_cast<double>(m) * (log_2pi + std::log(v)) + r.squaredNorm() / v);
  }
  return total;
}

}  // namespace calm
