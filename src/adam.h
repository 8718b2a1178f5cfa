// Adam (Kingma and Ba, 2015) on a block of parameters stored as an Eigen
// matrix. Allocation-free after construction.
#ifndef CALM_ADAM_H
#define CALM_ADAM_H

#include <Eigen/Dense>
#include <cmath>

namespace calm {

class Adam {
 public:
  Adam(Eigen::Index rows, Eigen::Index cols, double lr, double beta1 = 0.9,
       double beta2 = 0.999, double eps = 1e-8)
      : lr_(lr), b1_(beta1), b2_(beta2), eps_(eps),
        m_(Eigen::MatrixXd::Zero(rows, cols)), v_(Eigen::MatrixXd::Zero(rows, cols)) {}

  // Restart the moment estimates (used between subproblems if wanted).
  void reset() {
    m_.setZero();
    v_.setZero();
    t_ = 0;
  }

  // One step: param -= lr * mhat / (sqrt(vhat) + eps).
  void step(Eigen::MatrixXd& param, const Eigen::MatrixXd& grad) {
    ++t_;
    m_ = b1_ * m_ + (1.0 - b1_) * grad;
    v_ = b2_ * v_ + (1.0 - b2_) * grad.cwiseAbs2();
    const double c1 = 1.0 - std::pow(b1_, static_cast<double>(t_));
    const double c2 = 1.0 - std::pow(b2_, static_cast<double>(t_));
    const double step = lr_ / c1;
    param.array() -= step * m_.array() / ((v_.array() / c2).sqrt() + eps_);
  }

  long steps() const { return t_; }

 private:
  double lr_, b1_, b2_, eps_;
  Eigen::MatrixXd m_, v_;
  long t_ = 0;
};

}  // namespace calm

#endif
