#include "moments.h"

#include <algorithm>

namespace calm {

namespace {

using RowBlock = Eigen::Map<const Eigen::MatrixXd, 0, Eigen::OuterStride<>>;

// Rows [start, start + rows) of the n x d column-major `x`, minus `centre`,
// added to the lower triangle of `S` with weight `weight`.
void add_rows(const double* x, long n, long d, long start, long rows,
              const Eigen::VectorXd& centre, double weight, Eigen::Map<Eigen::MatrixXd>& S,
              Eigen::MatrixXd& work) {
  RowBlock part(x + start, rows, d, Eigen::OuterStride<>(n));
  work = part.rowwise() - centre.transpose();
  S.selfadjointView<Eigen::Lower>().rankUpdate(work.transpose(), weight);
}

const long ROW_BLOCK = 2048;

}  // namespace

void data_covariance(const double* x, long n, long d, std::vector<bool>* constant, double* out) {
  using ColMap = Eigen::Map<const Eigen::VectorXd>;
  Eigen::VectorXd mean(d);
  constant->assign(d, false);
  for (long j = 0; j < d; ++j) {
    ColMap col(x + j * n, n);
    double m = col.sum() / static_cast<double>(n);
    // Second pass removes most of the rounding of the first (as R's mean()).
    m += (col.array() - m).sum() / static_cast<double>(n);
    mean[j] = m;
    const double first = col[0];
    (*constant)[j] = (col.array() == first).all();
  }
  Eigen::Map<Eigen::MatrixXd> S(out, d, d);
  S.setZero();
  Eigen::MatrixXd work;
  for (long start = 0; start < n; start += ROW_BLOCK) {
    add_rows(x, n, d, start, std::min(ROW_BLOCK, n - start), mean, 1.0, S, work);
  }
  // in place: at 10,000 variables each copy of S is 0.8 GB
  S.triangularView<Eigen::StrictlyUpper>() = S.transpose();
  S /= static_cast<double>(n);
}

Eigen::MatrixXd data_covariance(const double* x, long n, long d, std::vector<bool>* constant) {
  Eigen::MatrixXd S(d, d);
  data_covariance(x, n, d, constant, S.data());
  return S;
}

void training_covariance(const double* cov, const double* mu, long n, const double* held,
                         long nt, long d, double* out) {
  Eigen::Map<const Eigen::VectorXd> centre(mu, d);
  Eigen::Map<Eigen::MatrixXd> S(out, d, d);
  if (out != cov) S = Eigen::Map<const Eigen::MatrixXd>(cov, d, d);
  S *= static_cast<double>(n);
  Eigen::MatrixXd work;
  for (long start = 0; start < nt; start += ROW_BLOCK) {
    add_rows(held, nt, d, start, std::min(ROW_BLOCK, nt - start), centre, -1.0, S, work);
  }
  const double n_train = static_cast<double>(n - nt);
  // the training rows' mean minus the mean of all rows
  Eigen::VectorXd shift = Eigen::VectorXd::Zero(d);
  for (long j = 0; j < d; ++j) {
    Eigen::Map<const Eigen::VectorXd> col(held + j * nt, nt);
    shift[j] = -(col.array() - centre[j]).sum() / n_train;
  }
  S.triangularView<Eigen::StrictlyUpper>() = S.transpose();
  S /= n_train;
  S.noalias() -= shift * shift.transpose();
}

}  // namespace calm
