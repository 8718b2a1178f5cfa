// All variable orders of a covariance matrix and the regression
// ("Cholesky") DAG of each order: node pi_k regressed on pi_1..pi_{k-1}.
// Used for the l1-inconsistency experiment (paper Section 3.2). Pure C++.
//
// The regression of node j on the nodes before it depends only on the *set*
// of its predecessors, not on their order. So instead of factoring each of
// the d! orders, the coefficients of every (node, predecessor set) pair are
// computed once (d * 2^(d-1) small regressions, reusing the Cholesky factor
// of each set's covariance block, grown one node at a time), and the d!
// orders are then enumerated by a depth-first walk over prefixes that only
// adds up per-node costs.
#ifndef CALM_PERMUTATIONS_H
#define CALM_PERMUTATIONS_H

#include "calm_eigen.h"
#include <cstdint>
#include <functional>
#include <vector>

namespace calm {

// Regression of every node on every subset of the other nodes.
class SubsetRegressions {
 public:
  // sigma: d x d symmetric positive definite, d <= 20 (memory grows as 2^d).
  // A coefficient counts as an edge for l0 when its standardized size
  // |b_ij| * sd_i / sd_j exceeds zero_tol (zero_tol = 0: any nonzero).
  SubsetRegressions(const Eigen::MatrixXd& sigma, double zero_tol);

  int d() const { return d_; }
  // Sum of |coefficients| and number of edges of node j on set `mask`
  // (bit i of mask set = node i is a predecessor; bit j must be clear).
  double l1(int j, std::uint32_t mask) const { return l1_[index(j, mask)]; }
  int l0(int j, std::uint32_t mask) const { return l0_[index(j, mask)]; }

 private:
  std::size_t index(int j, std::uint32_t mask) const {
    return static_cast<std::size_t>(mask) * static_cast<std::size_t>(d_) +
           static_cast<std::size_t>(j);
  }
  int d_;
  std::vector<double> l1_;
  std::vector<int> l0_;
};

// Regression DAG of one order (0-based node indices, a permutation of
// 0..d-1): B(i, j) is the coefficient of node i in the regression of node j
// on its predecessors. omega (if not null) receives the residual variances.
Eigen::MatrixXd regression_dag(const Eigen::MatrixXd& sigma, const std::vector<int>& order,
                               Eigen::VectorXd* omega = nullptr);

struct OrderEnumeration {
  std::uint64_t n_orders = 0;       // d!
  std::uint64_t n_smaller = 0;      // orders whose l1 is below l1_threshold
  double l1_min = 0.0;              // smallest l1 over all orders
  int l0_at_l1_min = 0;             // edges of that DAG
  std::vector<int> order_l1_min;    // an order attaining it (first found)
  int l0_min = 0;                   // fewest edges over all orders (sparsest)
  double l1_at_l0_min = 0.0;        // smallest l1 among the sparsest orders
  std::vector<int> order_l0_min;
  bool interrupted = false;
};

// Enumerates all d! orders. `interrupt` (may be empty) is polled every few
// thousand orders; when it returns true the search stops and the result is
// marked interrupted.
OrderEnumeration enumerate_orders(const SubsetRegressions& reg, double l1_threshold,
                                const std::function<bool()>& interrupt);

}  // namespace calm

#endif
