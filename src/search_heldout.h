// The held-out Gaussian log-likelihood of a DAG whose weights and noise
// variances are the least-squares fit on a training covariance: what the
// penalty's selection scores each fold's graph by. Pure C++, no R headers.
#ifndef CALM_HELDOUT_H
#define CALM_HELDOUT_H

#include "calm_eigen.h"
#include "graph_core.h"

namespace calm {

// Sum over the rows of `test` (rows: observations) of the log-density of
// the linear Gaussian model of `dag` (dag(i, j) != 0: i -> j) fitted on the
// covariance `s` (divisor n) with means `mu`: for each node j, the
// regression on its parents from `s` (a pivoted QR, with coefficients of
// dependent columns set to 0, where the parents' covariance is singular),
// its residual variance floored at `floor` times s(j, j).
double heldout_loglik(const IntMatrix& dag, const Eigen::MatrixXd& s, const Eigen::VectorXd& mu,
                      const Eigen::MatrixXd& test, double floor);

}  // namespace calm

#endif
