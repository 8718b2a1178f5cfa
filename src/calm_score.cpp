#include "calm_score.h"

#include <cmath>
#include <limits>

namespace calm {

ProfiledTerms profiled_terms(const Eigen::MatrixXd& S, const Eigen::MatrixXd& B, bool with_lu) {
  const Eigen::Index d = S.rows();
  ProfiledTerms t;
  const Eigen::MatrixXd W = Eigen::MatrixXd::Identity(d, d) - B;
  t.T = S * W;
  t.q = (W.array() * t.T.array()).colwise().sum().transpose();
  if (with_lu) {
    t.lu.compute(W);
    t.logdet = t.lu.matrixLU().diagonal().array().abs().log().sum();
  }
  return t;
}

double score_value(Score score, const Eigen::MatrixXd& S, const Eigen::MatrixXd& B,
                   Eigen::MatrixXd* grad) {
  const ProfiledTerms t = profiled_terms(S, B, score != Score::colide);
  if (score == Score::colide) {
    const Eigen::ArrayXd sq = t.q.sqrt();
    if (grad) *grad = -(t.T * sq.inverse().matrix().asDiagonal());
    return sq.sum();
  }
  const double value = 0.5 * t.q.log().sum() - t.logdet;
  if (!std::isfinite(value)) return std::numeric_limits<double>::infinity();
  if (grad) *grad = -(t.T * t.q.inverse().matrix().asDiagonal()) + t.lu.inverse().transpose();
  return value;
}

}  // namespace calm
