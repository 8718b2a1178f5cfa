#include "acyclicity.h"

#include "eigen_warnings_off.h"
#include <unsupported/Eigen/MatrixFunctions>
#include "eigen_warnings_on.h"

namespace calm {

Eigen::MatrixXd matrix_power(const Eigen::MatrixXd& M, int p) {
  const Eigen::Index d = M.rows();
  Eigen::MatrixXd result = Eigen::MatrixXd::Identity(d, d);
  Eigen::MatrixXd base = M;
  bool first = true;
  while (p > 0) {
    if (p & 1) {
      if (first) {
        result = base;
        first = false;
      } else {
        result = result * base;
      }
    }
    p >>= 1;
    if (p > 0) base = base * base;
  }
  return result;
}

double h_poly(const Eigen::MatrixXd& A, Eigen::MatrixXd* grad) {
  const Eigen::Index d = A.rows();
  if (d == 0) return 0.0;
  Eigen::MatrixXd M = Eigen::MatrixXd::Identity(d, d) + A / static_cast<double>(d);
  Eigen::MatrixXd Mp = matrix_power(M, static_cast<int>(d) - 1);  // M^(d-1)
  // tr(M^d) = tr(M^(d-1) M) = sum_ij Mp(i, j) M(j, i)
  const double h = (Mp.array() * M.transpose().array()).sum() - static_cast<double>(d);
  if (grad) *grad = Mp.transpose();
  return h;
}

double h_exp(const Eigen::MatrixXd& A, Eigen::MatrixXd* grad) {
  const Eigen::Index d = A.rows();
  if (d == 0) return 0.0;
  Eigen::MatrixXd E = A.exp();
  const double h = E.trace() - static_cast<double>(d);
  if (grad) *grad = E.transpose();
  return h;
}

}  // namespace calm
