// GOLEM-NV with an l1 penalty and a soft acyclicity penalty (Ng, Ghassami
// and Zhang, 2020): the baseline the paper calls GOLEM-NV-l1. Works on a
// covariance matrix; pure C++ (Eigen).
#ifndef CALM_GOLEM_H
#define CALM_GOLEM_H

#include "calm_eigen.h"
#include <vector>

#include "progress.h"

namespace calm {

struct GolemNvOptions {
  bool equal_variances = false;  // GOLEM-EV likelihood instead of GOLEM-NV
  double l1_weight = 2e-3;   // weight of ||B||_1
  double lambda2 = 5.0;    // weight of h_exp(B * B)
  double lr = 1e-3;        // Adam learning rate
  long iter = 100000;      // Adam steps
  long trace_every = 1000; // record a trace row every so many steps
  double edge_threshold = 0.1;  // |B_ij| above this counts as an edge in the trace
};

// Value of the objective and its parts at one B.
struct GolemNvParts {
  double objective = 0.0;
  double likelihood = 0.0;  // 1/2 sum_i log(((I-B)^T S (I-B))_ii) - log|det(I-B)|
  double l1 = 0.0;          // ||B||_1 (off-diagonal)
  double h = 0.0;           // tr(exp(B * B)) - d
};

// Objective likelihood + l1_weight ||B||_1 + lambda2 h_exp(B * B) and, when
// equal_variances is true the GOLEM-EV likelihood
// d/2 log(sum_i ((I-B)^T S (I-B))_ii) - log|det(I-B)| replaces GOLEM-NV's. When
// grad is not null, its (sub)gradient with respect to B; the diagonal of the
// gradient is set to zero because B's diagonal is fixed at zero. The l1 term
// uses sign(B) with sign(0) = 0.
GolemNvParts golem_nv_objective(const Eigen::MatrixXd& S, const Eigen::MatrixXd& B,
                                double l1_weight, double lambda2, Eigen::MatrixXd* grad,
                                bool equal_variances = false);

struct GolemTraceRow {
  long iter;
  double objective, likelihood, h;
  int edges;
  double seconds;
};

struct GolemNvResult {
  Eigen::MatrixXd B;       // weights after the last step (not thresholded)
  GolemNvParts parts;      // objective at B
  long iterations = 0;     // Adam steps taken
  bool interrupted = false;
  std::vector<GolemTraceRow> trace;
};

// Runs Adam from B_init (diagonal forced to zero). `progress` (may be
// empty; progress.h) is called with each trace row as it is recorded
// (report = true, with iter, objective, h and edges) and every 100 steps in
// between (report = false, edges = -1); returning true stops the run.
GolemNvResult golem_nv_fit(const Eigen::MatrixXd& S, const Eigen::MatrixXd& B_init,
                           const GolemNvOptions& opt, const ProgressFn& progress);

}  // namespace calm

#endif
