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
//
// Sample covariances of n observations are singular when n <= d, yet the
// regression of j on P is well posed while P is small. For a covariance of n
// observations (max_parents = n - 2 >= 0) a parent set is admissible when
//   |P| <= n - 2   (at least one residual degree of freedom after the
//                   intercept and the |P| slopes), and
//   residual variance >= kAdmissibleFloor * S_jj   (the regression is not
//                   exact on the sample: collinear or duplicated parents);
// an inadmissible set scores +Inf, so no search picks it. With n > d and a
// positive definite covariance (condition number below 1e12, what the R
// checks ask) neither bound binds. max_parents < 0 (a population
// covariance) checks neither: a deterministic relation scores as very good.
#ifndef CALM_LOCAL_SCORE_H
#define CALM_LOCAL_SCORE_H

#include "calm_eigen.h"
#include <cmath>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "graph_core.h"

namespace calm {

// A search move must improve the score by more than this to count (the
// default of the C++ searches; R passes its own score_tol, the same value).
constexpr double kScoreTol = 1e-10;

// The covariance as LocalScore reads it: in place, never copied.
using CovMap = Eigen::Map<const Eigen::MatrixXd>;
// A node's covariance (the observational one or an interventional one),
// a view, never a copy.
using CovRef = Eigen::Ref<const Eigen::MatrixXd>;

class LocalScore {
 public:
  // Relative residual variance below which a finite-sample regression is
  // exact, hence inadmissible.
  static constexpr double kAdmissibleFloor = 1e-12;

  // cov must be square, symmetric with a positive diagonal; lambda >= 0;
  // max_parents: n - 2 for a covariance of n observations, < 0 for none.
  // The score reads cov where it lies (no copy: at 10,000 variables a copy
  // is 0.8 GB), so cov must outlive it and stay unchanged.
  LocalScore(Eigen::Ref<const Eigen::MatrixXd> cov, double lambda, int max_parents = -1);

  int dim() const { return static_cast<int>(S_.rows()); }
  double lambda() const { return lambda_; }
  const CovMap& cov() const { return S_; }
  // The smallest parent limit over the nodes (< 0: none).
  int max_parents() const { return max_parents_; }

  // Interventional data (the GIES score of Hauser and Buehlmann 2012): node
  // j is scored on the rows where it was not intervened on only. `covs`
  // holds one covariance per distinct set of such rows (centred at their
  // own mean, divisor their count), `group[j]` the one of node j,
  // `weight[j]` its share of all rows (n_j / n) and `max_parents[j]` its
  // limit (n_j - 2). Then s(j, P) = weight[j] / 2 log(rv_j(P)) + lambda |P|,
  // so that n times the total is pcalg's GaussL0penIntScore up to sign and
  // a constant. Without this call every node uses `cov` with weight 1.
  void set_interventional(std::vector<Eigen::MatrixXd> covs, std::vector<int> group,
                          std::vector<double> weight, std::vector<int> max_parents);
  bool interventional() const { return !group_.empty(); }
  // The covariance node j is scored on.
  CovRef node_cov(int j) const { return group_.empty() ? CovRef(S_) : CovRef(covs_[group_[j]]); }
  int node_max_parents(int j) const { return group_.empty() ? max_parents_ : node_max_[j]; }
  // The fit term of node j at residual variance rv, and its inverse (the
  // residual variance below which the fit term is below `fit`).
  double fit_term(int j, double rv) const { return weight(j) * (0.5 * std::log(rv)); }
  double rv_below(int j, double fit) const { return std::exp(2.0 * fit / weight(j)); }

  // Whether a parent set of j with `size` members and residual variance
  // `rv` is admissible (see the top of this file).
  bool admissible(int j, int size, double rv) const {
    const int mp = node_max_parents(j);
    if (mp < 0) return true;
    return size <= mp && rv >= kAdmissibleFloor * node_cov(j)(j, j);
  }

  // Residual variance of j on `parents` (any order, no duplicates, j not in
  // it), never cached. Floored at a tiny positive multiple of S_jj so that a
  // (numerically) deterministic relation scores as very good, not as NaN.
  double residual_variance(int j, const std::vector<int>& parents) const;

  // s(j, parents), cached by (j, sorted parents) above kUncachedParents
  // parents; +Inf when inadmissible.
  double local(int j, std::vector<int> parents);

  // Parent sets of at most this size are scored afresh, not looked up: at
  // thousands of variables the cache holds millions of sets, and a lookup
  // there (a few cache misses) cost more than the regression on a few
  // parents. GES from the empty graph at 5000 variables took a third less.
  static constexpr std::size_t kUncachedParents = 4;

  // Sum of s(j, pa(j)) over the nodes of a DAG (adj(i, j) != 0: i -> j).
  double dag_score(const IntMatrix& adj);

  // s(j, T) for every subset T of `candidates` (at most 30 of them), indexed
  // by bit mask: bit b of the index set means candidates[b] is in T (+Inf
  // for inadmissible T). Computed
  // by a depth-first walk over subsets that extends a Cholesky factor by one
  // row per step, so each subset costs O(|T|^2). Not cached.
  std::vector<double> all_subset_scores(int j, const std::vector<int>& candidates) const;

  // The same score (covariances, penalty, limits) with an empty cache, for
  // a search on another thread: local() fills the cache, so a LocalScore
  // serves one thread at a time.
  LocalScore fresh_copy() const;

  std::size_t cache_size() const { return cache_.size(); }
  // About the bytes the cache of local() holds, and a way to empty it (the
  // scores are recomputed, the same, when asked again).
  std::size_t cache_bytes() const { return cache_bytes_; }
  void clear_cache() {
    std::unordered_map<std::vector<int>, double, KeyHash>().swap(cache_);
    cache_bytes_ = 0;
  }

 private:
  struct KeyHash {
    std::size_t operator()(const std::vector<int>& v) const;
  };
  double weight(int j) const { return group_.empty() ? 1.0 : weight_[j]; }
  // s(j, parents) computed (parents sorted), +Inf where inadmissible.
  double compute(int j, const std::vector<int>& parents) const;
  CovMap S_;
  double lambda_;
  int max_parents_;
  std::vector<Eigen::MatrixXd> covs_;
  std::vector<int> group_, node_max_;
  std::vector<double> weight_;
  std::unordered_map<std::vector<int>, double, KeyHash> cache_;
  std::size_t cache_bytes_ = 0;
};

}  // namespace calm

#endif
