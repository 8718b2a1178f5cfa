// Acyclicity functions h(A) >= 0 of a nonnegative weighted adjacency matrix,
// zero exactly when A is the adjacency of a DAG, with their gradients.
// Pure C++ (Eigen), shared by calm() and the baselines.
#ifndef CALM_ACYCLICITY_H
#define CALM_ACYCLICITY_H

#include "calm_eigen.h"

namespace calm {

// h(A) = tr((I + A/d)^d) - d (Yu et al., 2019). grad receives dh/dA =
// ((I + A/d)^(d-1))^T.
double h_poly(const Eigen::MatrixXd& A, Eigen::MatrixXd* grad);

// h(A) = tr(exp(A)) - d (Zheng et al., 2018). grad receives exp(A)^T.
double h_exp(const Eigen::MatrixXd& A, Eigen::MatrixXd* grad);

// Integer power of a square matrix by repeated squaring.
Eigen::MatrixXd matrix_power(const Eigen::MatrixXd& M, int p);

}  // namespace calm

#endif
