#include "calm_score.h"

#include <cmath>
#include <limits>

namespace calm {

double score_value(Score score, const Eigen::MatrixXd& S, const Eigen::MatrixXd& B,
                   Eigen::MatrixXd* grad) {
  const Eigen::Index d = S.rows();
  const Eigen::MatrixXd W = Eigen::MatrixXd::Identity(d, d) - B;
  const Eigen::MatrixXd T = S * W;
  const Eigen::ArrayXd q = (W.array() * T.array()).colwise().sum().transpose();
  if (score == Score::colide) {
    const Eigen::ArrayXd sq = q.sqrt();
    if (grad) *grad = -(T * sq.inverse().matrix().asDiagonal());
    return sq.sum();
  }
  Eigen::PartialPivLU<Eigen::MatrixXd> lu(W);
  const double logdet = lu.matrixLU().diagonal().array().abs().log().sum();
  const double value = 0.5 * q.log().sum() - logdet;
  if (!std::isfinite(value)) return std::numeric_limits<double>::infinity();
  if (grad) *grad = -(T * q.inverse().matrix().asDiagonal()) + lu.inverse().transpose();
  return value;
}

}  // namespace calm
