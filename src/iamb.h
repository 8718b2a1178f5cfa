// Markov blanket (moral graph) estimation for Gaussian data from a
// covariance matrix: IAMB with Fisher-z tests of partial correlations, and
// the support of the precision matrix. Pure C++ (no R headers).
//
// Every test works on the correlation matrix: partial correlations do not
// depend on the scale of the variables, and the unit diagonal keeps the
// incremental factorisations well conditioned.
#ifndef CALM_IAMB_H
#define CALM_IAMB_H

#include "calm_eigen.h"

#include <functional>
#include <limits>
#include <vector>

namespace calm {

// One conditional independence test of the Fisher-z family.
//
// Finite n: z = atanh(r) * sqrt(n - s - 3) for a partial correlation r given
// s variables; two-sided p-value; "dependent" when p <= alpha.
// n = +Inf ("exact" mode, a population covariance): "dependent" when
// |r| > zero_tol, and the p-value is reported as 0 or 1.
struct CiTest {
  double n = std::numeric_limits<double>::infinity();
  double alpha = 0.01;
  double zero_tol = 1.5e-8;

  bool exact() const { return !(n < std::numeric_limits<double>::infinity()); }
  // Strength of association used to rank candidates: |z| for finite n,
  // |r| in exact mode. Monotone in the p-value for a fixed s.
  double strength(double r, int s) const;
  double p_value(double r, int s) const;
  bool dependent(double r, int s) const { return p_value(r, s) <= alpha; }
};

struct IambOptions {
  CiTest test;
  int max_size = -1;  // cap on the blanket size; < 0 means d - 1
  // Background knowledge: keep(t, c) != 0 puts c in t's blanket first,
  // without a test, and the shrink phase never drops it (a required
  // adjacency stays in the moral graph). Empty: none.
  Eigen::MatrixXi keep;
};

struct IambResult {
  // blankets[t]: 0-based indices of the Markov blanket of node t, in the
  // order the members entered.
  std::vector<std::vector<int>> blankets;
  long long n_tests = 0;
  // capped[t]: growth of blanket t stopped because it reached max_size (< d - 1),
  // without testing whether another candidate was significant.
  std::vector<bool> capped;
  bool interrupted = false;
};

// IAMB for every node of the correlation matrix `corr` (d x d, symmetric
// positive definite, unit diagonal). `interrupted` is polled between targets
// and, when it returns true, the search stops with result.interrupted set.
// Only the targets first, ..., last - 1 are searched (default: all; the
// others' blankets are left empty), so that the targets can be split
// between processes: each blanket depends on its target alone. `threads`:
// 2 or more searches targets on a helper thread too, with the same result.
IambResult iamb_all(const Eigen::Ref<const Eigen::MatrixXd>& corr, const IambOptions& options,
                    const std::function<bool()>& interrupted, int first = 0, int last = -1,
                    int threads = 1);

// IAMB for one target (0-based); adds its tests to *n_tests and sets *capped.
std::vector<int> iamb_target(const Eigen::Ref<const Eigen::MatrixXd>& corr, int target,
                             const IambOptions& options, long long* n_tests,
                             bool* capped);

struct PrecisionResult {
  Eigen::MatrixXd partial_cor;  // full-order partial correlations, zero diagonal
  Eigen::MatrixXi adjacency;    // symmetric 0/1, zero diagonal
  long long n_tests = 0;
};

// Support of the precision matrix of `corr`: the pair (i, j) is adjacent when
// its partial correlation given all d - 2 other variables is judged nonzero by
// `test` (Fisher-z with s = d - 2, or |r| > zero_tol in exact mode).
PrecisionResult precision_support(const Eigen::Ref<const Eigen::MatrixXd>& corr, const CiTest& test);

}  // namespace calm

#endif
