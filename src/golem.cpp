#include "golem.h"

#include <chrono>
#include <cmath>
#include <limits>

#include "acyclicity.h"
#include "adam.h"

namespace calm {

GolemNvParts golem_nv_objective(const Eigen::MatrixXd& S, const Eigen::MatrixXd& B,
                                double lambda1, double lambda2, Eigen::MatrixXd* grad,
                                bool equal_variances) {
  const Eigen::Index d = B.rows();
  GolemNvParts p;
  const Eigen::MatrixXd M = Eigen::MatrixXd::Identity(d, d) - B;
  const Eigen::MatrixXd SM = S * M;
  // r_i = ((I-B)^T S (I-B))_ii: residual variance of node i.
  const Eigen::VectorXd r = (M.array() * SM.array()).colwise().sum().transpose();
  Eigen::PartialPivLU<Eigen::MatrixXd> lu(M);
  const Eigen::MatrixXd U = lu.matrixLU();
  double logdet = 0.0;
  for (Eigen::Index i = 0; i < d; ++i) logdet += std::log(std::abs(U(i, i)));
  const double rsum = r.sum();
  p.likelihood = equal_variances ? 0.5 * static_cast<double>(d) * std::log(rsum) - logdet
                                 : 0.5 * r.array().log().sum() - logdet;
  p.l1 = B.cwiseAbs().sum() - B.diagonal().cwiseAbs().sum();
  const Eigen::MatrixXd W = B.cwiseProduct(B);
  Eigen::MatrixXd gh;
  p.h = h_exp(W, grad ? &gh : nullptr);
  p.objective = p.likelihood + lambda1 * p.l1 + lambda2 * p.h;
  if (!std::isfinite(p.objective)) p.objective = std::numeric_limits<double>::infinity();
  if (grad) {
    // d/dB of 1/2 sum log r_i is -S (I-B) diag(1/r) (of d/2 log sum r_i it is
    // -d S (I-B) / sum r); of -log|det(I-B)| it is (I-B)^{-T}; of h(B*B) it
    // is 2 B * exp(B*B)^T.
    Eigen::MatrixXd g = equal_variances ? Eigen::MatrixXd(-(static_cast<double>(d) / rsum) * SM)
                                        : Eigen::MatrixXd(-(SM * r.cwiseInverse().asDiagonal()));
    g += lu.inverse().transpose();
    g += lambda1 * B.unaryExpr([](double v) { return static_cast<double>((v > 0) - (v < 0)); });
    g += lambda2 * 2.0 * gh.cwiseProduct(B);
    g.diagonal().setZero();
    *grad = g;
  }
  return p;
}

GolemNvResult golem_nv_fit(const Eigen::MatrixXd& S, const Eigen::MatrixXd& B_init,
                           const GolemNvOptions& opt, const std::function<bool()>& interrupt,
                           const std::function<void(const GolemTraceRow&)>& on_trace) {
  const Eigen::Index d = S.rows();
  const auto start = std::chrono::steady_clock::now();
  auto elapsed = [&start]() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  GolemNvResult res;
  Eigen::MatrixXd B = B_init;
  B.diagonal().setZero();
  Adam adam(d, d, opt.lr);
  Eigen::MatrixXd grad(d, d);
  auto record = [&](long it, const GolemNvParts& p) {
    GolemTraceRow row{it, p.objective, p.likelihood, p.h,
                      static_cast<int>((B.array().abs() > opt.edge_threshold).count()),
                      elapsed()};
    res.trace.push_back(row);
    if (on_trace) on_trace(row);
  };
  GolemNvParts parts = golem_nv_objective(S, B, opt.lambda1, opt.lambda2, &grad, opt.equal_variances);
  record(0, parts);
  long it = 0;
  while (it < opt.iter) {
    adam.step(B, grad);
    B.diagonal().setZero();
    ++it;
    parts = golem_nv_objective(S, B, opt.lambda1, opt.lambda2, &grad, opt.equal_variances);
    if (opt.trace_every > 0 && (it % opt.trace_every == 0 || it == opt.iter)) record(it, parts);
    if (it % 100 == 0 && interrupt && interrupt()) {
      res.interrupted = true;
      break;
    }
  }
  res.B = B;
  res.parts = parts;
  res.iterations = it;
  return res;
}

}  // namespace calm
