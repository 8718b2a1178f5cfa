// The gates of the CALM step kernel, each with its forward pass (gate
// values A, weights B = A * P, the sparsity penalty and what the acyclicity
// function sees) and its backward pass (the chain rule from the gradients
// wrt B and h's input back to the weights P and the gate parameters), side
// by side: a change to a gate touches this file only. Part of
// calm_kernel_impl.h (included at its end, inside no namespace), so it is
// compiled twice, as the kernel is (generic and AVX2).

#ifndef CALM_KERNEL_NS
#error "calm_kernel_gates.h is included by calm_kernel_impl.h only"
#endif

namespace calm {
namespace CALM_KERNEL_NS {

inline double Kernel::gate_forward(const double* theta, const double* noise,
                                   const Eigen::Map<const Arr>& P) {
  switch (gate_.type) {
    case Gate::gumbel:
      return gumbel_forward(theta, noise, P);
    case Gate::stg:
      return stg_forward(theta, noise, P);
    case Gate::tanh:
      return tanh_forward(P);
  }
  return 0.0;
}

inline void Kernel::gate_backward(const double* theta, const Eigen::Map<const Arr>& P,
                                  double dcoef, double* grad_theta, double* grad_weight) {
  switch (gate_.type) {
    case Gate::gumbel:
      gumbel_backward(P, dcoef, grad_theta, grad_weight);
      break;
    case Gate::stg:
      stg_backward(theta, P, dcoef, grad_theta, grad_weight);
      break;
    case Gate::tanh:
      tanh_backward(P, dcoef, grad_theta, grad_weight);
      break;
  }
}

// Gumbel-sigmoid: A = sigmoid((U + G) / tau), penalty lambda1 * sum(A);
// `noise` holds exp(-G / tau) (NULL: the deterministic gate).
inline double Kernel::gumbel_forward(const double* theta, const double* noise,
                                     const Eigen::Map<const Arr>& P) {
  Eigen::Map<const Arr> U(theta, m_);
  z_ = (U * (-1.0 / gate_.tau)).exp();
  if (noise) z_ *= Eigen::Map<const Arr>(noise, m_);
  // a = 1 / (1 + z) and 1 - a = 1 / (1 + 1 / z) stay accurate, and
  // finite, for z = 0 and z = inf (|U| large).
  a_ = (1.0 + z_).inverse();
  oma_ = (1.0 + z_.inverse()).inverse();
  const double sparsity = lambda1_ * a_.sum();
  b_ = a_ * P;
  h_a_ = a_;
  return sparsity;
}

inline void Kernel::gumbel_backward(const Eigen::Map<const Arr>& P, double dcoef,
                                    double* grad_theta, double* grad_weight) {
  Eigen::Map<Arr> gw(grad_weight, m_);
  gw = g_b_ * a_;
  if (grad_theta) {
    Eigen::Map<Arr> gt(grad_theta, m_);
    gt = (g_b_ * P + lambda1_ + dcoef * g_h_) * a_ * oma_ * (1.0 / gate_.tau);
  }
}

// Stochastic gates: A = clamp(mu + eps, 0, 1), penalty lambda1 times the
// sum of the gates' probabilities of being open, pnorm(mu / sigma).
inline double Kernel::stg_forward(const double* theta, const double* noise,
                                  const Eigen::Map<const Arr>& P) {
  Eigen::Map<const Arr> mu(theta, m_);
  z_ = mu;
  if (noise) z_ += Eigen::Map<const Arr>(noise, m_);
  a_ = z_.max(0.0).min(1.0);
  oma_ = ((z_ > 0.0) && (z_ < 1.0)).template cast<double>();  // d clamp / d mu
  double pen = 0.0;
  const double scale = 1.0 / (gate_.stg_sigma * std::sqrt(2.0));
  for (int e = 0; e < m_; ++e) pen += 0.5 * std::erfc(-mu(e) * scale);
  const double sparsity = lambda1_ * pen;
  b_ = a_ * P;
  h_a_ = a_;
  return sparsity;
}

inline void Kernel::stg_backward(const double* theta, const Eigen::Map<const Arr>& P,
                                 double dcoef, double* grad_theta, double* grad_weight) {
  Eigen::Map<Arr> gw(grad_weight, m_);
  gw = g_b_ * a_;
  if (grad_theta) {
    Eigen::Map<Arr> gt(grad_theta, m_);
    Eigen::Map<const Arr> mu(theta, m_);
    gt = (g_b_ * P + dcoef * g_h_) * oma_;
    const double s = gate_.stg_sigma;
    const double k = lambda1_ / (s * 2.5066282746310002);  // sqrt(2 pi)
    for (int e = 0; e < m_; ++e) {
      const double x = mu(e) / s;
      gt(e) += k * std::exp(-0.5 * x * x);
    }
  }
}

// No gate: B = P, penalty lambda1 * sum(tanh(c |P|)), h sees P * P.
inline double Kernel::tanh_forward(const Eigen::Map<const Arr>& P) {
  for (int e = 0; e < m_; ++e) z_(e) = std::tanh(gate_.tanh_c * std::abs(P(e)));
  const double sparsity = lambda1_ * z_.sum();
  b_ = P;
  h_a_ = P.square();
  return sparsity;
}

inline void Kernel::tanh_backward(const Eigen::Map<const Arr>& P, double dcoef,
                                  double* grad_theta, double* grad_weight) {
  Eigen::Map<Arr> gw(grad_weight, m_);
  const double kc = lambda1_ * gate_.tanh_c;
  for (int e = 0; e < m_; ++e) {
    const double t = z_(e);
    const double sgn = P(e) > 0 ? 1.0 : (P(e) < 0 ? -1.0 : 0.0);
    gw(e) = g_b_(e) + kc * (1.0 - t * t) * sgn + dcoef * g_h_(e) * 2.0 * P(e);
  }
  if (grad_theta) Eigen::Map<Arr>(grad_theta, m_).setZero();
}

}  // namespace CALM_KERNEL_NS
}  // namespace calm
