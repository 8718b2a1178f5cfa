// The decomposable l0-penalised Gaussian score that every discrete search in
// calm uses (GES-style refinement, exact search, BOSS). Pure C++, no R headers.
//
// For node j with parent set P, per sample,
//   s(j, P) = 1/2 log(residual variance of X_j on X_P) + lambda |P|,
// with the residual variance S_jj - S_jP S_PP^{-1} S_Pj taken from the
// covariance S. Lower is better. For a DAG the sum over nodes equals CALM's
// objective at the least-squares weights (the log-determinant term of the
// profiled likelihood is zero there). lambda = 0.005 is the paper's sparsity
// weight; lambda = k log(n) / (2 n) is BIC with penalty discount k, i.e.
// pcalg's GaussL0penObsScore with lambda_pcalg = k log(n) / 2, divided by n
// (up to terms that do not depend on the graph).
#ifndef CALM_LOCAL_SCORE_H
#define CALM_LOCAL_SCORE_H

#include <Eigen/Dense>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "graph_core.h"

namespace calm {

// A search move must improve the score by more than this to count (the
// default of the C++ searches; R passes its own score_tol, the same value).
constexpr double kScoreTol = 1e-10;

class LocalScore {
 public:
  // cov must be square, symmetric with a positive diagonal; lambda >= 0.
  LocalScore(const Eigen::MatrixXd& cov, double lambda);

  int dim() const { return static_cast<int>(S_.rows()); }
  double lambda() const { return lambda_; }
  const Eigen::MatrixXd& cov() const { return S_; }

  // Residual variance of j on `parents` (any order, no duplicates, j not in
  // it), never cached. Floored at a tiny positive multiple of S_jj so that a
  // (numerically) deterministic relation scores as very good, not as NaN.
  double residual_variance(int j, const std::vector<int>& parents) const;

  // s(j, parents), cached by (j, sorted parents).
  double local(int j, std::vector<int> parents);

  // Sum of s(j, pa(j)) over the nodes of a DAG (adj(i, j) != 0: i -> j).
  double dag_score(const IntMatrix& adj);

  // s(j, T) for every subset T of `candidates` (at most 30 of them), indexed
  // by bit mask: bit b of the index set means candidates[b] is in T. Computed
  // by a depth-first walk over subsets that extends a Cholesky factor by one
  // row per step, so each subset costs O(|T|^2). Not cached.
  std::vector<double> all_subset_scores(int j, const std::vector<int>& candidates) const;

  std::size_t cache_size() const { return cache_.size(); }

 private:
  struct KeyHash {
    std::size_t operator()(const std::vector<int>& v) const;
  };
  Eigen::MatrixXd S_;
  double lambda_;
  std::unordered_map<std::vector<int>, double, KeyHash> cache_;
};

}  // namespace calm

#endif
