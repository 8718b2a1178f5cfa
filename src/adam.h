// Adam (Kingma and Ba, 2015): the package's one implementation, used by the
// CALM step kernel (calm_kernel_impl.h, on flat arrays, vectorised in both
// kernel builds) and by GOLEM (golem.cpp, through calm::Adam on a matrix).
//
// Kernel-safe: this header includes nothing and defines only constants,
// templates and the small AdamBias, so that calm_kernel_avx2.cpp can
// include it (through calm_kernel_impl.h) under its own instruction set and
// Eigen namespace. The templates are instantiated there with that build's
// own Eigen types, so no instance is shared with the baseline build; the
// kernel must not use AdamBias (the optimizer keeps the bias corrections).
#ifndef CALM_ADAM_H
#define CALM_ADAM_H

namespace calm {

constexpr double kAdamBeta1 = 0.9, kAdamBeta2 = 0.999, kAdamEps = 1e-8;

// One Adam update of coefficient-wise Eigen arrays (maps or .array() views):
//   m1 = beta1 m1 + (1 - beta1) g,  m2 = beta2 m2 + (1 - beta2) g^2,
//   param -= step * m1 / (sqrt(m2 / c2) + eps),
// with step = lr / (1 - beta1^t) and c2 = 1 - beta2^t (see AdamBias). The
// order of the operations is part of CALM's seeded results: do not change it.
template <class P, class M1, class M2, class G>
inline void adam_update(P&& param, M1&& m1, M2&& m2, const G& grad, double beta1, double beta2,
                        double step, double c2, double eps) {
  m1 = beta1 * m1 + (1.0 - beta1) * grad;
  m2 = beta2 * m2 + (1.0 - beta2) * grad.square();
  param -= step * m1 / ((m2 / c2).sqrt() + eps);
}

// The bias corrections of step t: beta^t kept as a running product
// (restart() before the first step, advance() before each).
struct AdamBias {
  double b1t = 1.0, b2t = 1.0;
  void restart() { b1t = b2t = 1.0; }
  void advance(double beta1, double beta2) {
    b1t *= beta1;
    b2t *= beta2;
  }
  double step(double lr) const { return lr / (1.0 - b1t); }
  double c2() const { return 1.0 - b2t; }
};

// Adam on a block of parameters stored as an Eigen matrix (Matrix =
// Eigen::MatrixXd). Allocation-free after construction.
template <class Matrix>
class Adam {
 public:
  template <class Index>
  Adam(Index rows, Index cols, double lr, double beta1 = kAdamBeta1, double beta2 = kAdamBeta2,
       double eps = kAdamEps)
      : lr_(lr), b1_(beta1), b2_(beta2), eps_(eps), m_(Matrix::Zero(rows, cols)),
        v_(Matrix::Zero(rows, cols)) {}

  // Restart the moment estimates.
  void reset() {
    m_.setZero();
    v_.setZero();
    bias_.restart();
    t_ = 0;
  }

  template <class Grad>
  void step(Matrix& param, const Grad& grad) {
    ++t_;
    bias_.advance(b1_, b2_);
    adam_update(param.array(), m_.array(), v_.array(), grad.array(), b1_, b2_, bias_.step(lr_),
                bias_.c2(), eps_);
  }

  long steps() const { return t_; }

 private:
  double lr_, b1_, b2_, eps_;
  Matrix m_, v_;
  AdamBias bias_;
  long t_ = 0;
};

}  // namespace calm

#endif
