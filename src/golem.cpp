#include "golem.h"

#include <chrono>
#include <cmath>
#include <limits>

#include "acyclicity.h"
#include "adam.h"
#include "calm_score.h"

namespace calm {

GolemNvParts golem_nv_objective(const Eigen::MatrixXd& S, const Eigen::MatrixXd& B,
                                double l1_weight, double lambda2, Eigen::MatrixXd* grad,
                                bool equal_variances) {
  const Eigen::Index d = B.rows();
  GolemNvParts p;
  Eigen::MatrixXd g;
  // The likelihoods and their gradients in B: GOLEM-NV's is the profiled
  // likelihood of calm_score.h; GOLEM-EV's, d/2 log sum_i r_i - log|det(I-B)|
  // (r_i the residual variances), has d/dB = -d S (I-B) / sum r + (I-B)^{-T}.
  if (equal_variances) {
    const ProfiledTerms t = profiled_terms(S, B, true);
    const double rsum = t.q.sum();
    p.likelihood = 0.5 * static_cast<double>(d) * std::log(rsum) - t.logdet;
    if (grad) g = -(static_cast<double>(d) / rsum) * t.T + t.lu.inverse().transpose();
  } else {
    p.likelihood = score_value(Score::likelihood, S, B, grad ? &g : nullptr);
    // +Inf (I - B singular) comes without a gradient: Adam's step is then NaN.
    if (grad && !std::isfinite(p.likelihood))
      g.setConstant(d, d, std::numeric_limits<double>::quiet_NaN());
  }
  p.l1 = B.cwiseAbs().sum() - B.diagonal().cwiseAbs().sum();
  const Eigen::MatrixXd W = B.cwiseProduct(B);
  Eigen::MatrixXd gh;
  p.h = h_exp(W, grad ? &gh : nullptr);
  p.objective = p.likelihood + l1_weight * p.l1 + lambda2 * p.h;
  if (!std::isfinite(p.objective)) p.objective = std::numeric_limits<double>::infinity();
  if (grad) {
    // plus l1_weight sign(B) and, of lambda2 h(B*B), lambda2 2 B * exp(B*B)^T.
    g += l1_weight * B.unaryExpr([](double v) { return static_cast<double>((v > 0) - (v < 0)); });
    g += lambda2 * 2.0 * gh.cwiseProduct(B);
    g.diagonal().setZero();
    *grad = g;
  }
  return p;
}

GolemNvResult golem_nv_fit(const Eigen::MatrixXd& S, const Eigen::MatrixXd& B_init,
                           const GolemNvOptions& opt, const ProgressFn& progress) {
  const Eigen::Index d = S.rows();
  const auto start = std::chrono::steady_clock::now();
  auto elapsed = [&start]() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  GolemNvResult res;
  Eigen::MatrixXd B = B_init;
  B.diagonal().setZero();
  Adam<Eigen::MatrixXd> adam(d, d, opt.lr);
  Eigen::MatrixXd grad(d, d);
  // Records a trace row and tells the progress callback (report = true).
  auto record = [&](long it, const GolemNvParts& p) {
    GolemTraceRow row{it, p.objective, p.likelihood, p.h,
                      static_cast<int>((B.array().abs() > opt.edge_threshold).count()),
                      elapsed()};
    res.trace.push_back(row);
    return progress && progress(Progress{1, it, opt.iter, opt.lambda2, p.h, p.objective,
                                         row.edges, true});
  };
  GolemNvParts parts = golem_nv_objective(S, B, opt.l1_weight, opt.lambda2, &grad, opt.equal_variances);
  bool stop = record(0, parts);
  long it = 0;
  while (it < opt.iter && !stop) {
    adam.step(B, grad);
    B.diagonal().setZero();
    ++it;
    parts = golem_nv_objective(S, B, opt.l1_weight, opt.lambda2, &grad, opt.equal_variances);
    if (opt.trace_every > 0 && (it % opt.trace_every == 0 || it == opt.iter)) {
      stop = record(it, parts);
    } else if (it % 100 == 0 && progress) {
      stop = progress(Progress{1, it, opt.iter, opt.lambda2, parts.h, parts.objective, -1, false});
    }
  }
  res.interrupted = stop;
  res.B = B;
  res.parts = parts;
  res.iterations = it;
  return res;
}

}  // namespace calm
