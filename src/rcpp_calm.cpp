// Rcpp glue for the CALM optimizer: R lists in, R lists out. Arguments are
// checked in R (R/calm.R, R/control.R). User interrupts and progress reach
// the core through the tick callback; an interrupt is caught with
// R_ToplevelExec so that no longjmp crosses C++ frames: the core returns
// and the interrupt is re-raised here.
#include <Rcpp.h>
#include <RcppEigen.h>
#include <R_ext/Utils.h>

#include <chrono>
#include <cstdint>
#include <string>

#include "calm_optimizer.h"
#include "calm_score.h"

// [[Rcpp::depends(RcppEigen)]]

namespace {

void check_interrupt_fn(void*) { R_CheckUserInterrupt(); }

bool user_interrupted() { return R_ToplevelExec(check_interrupt_fn, nullptr) == FALSE; }

calm::Gate parse_gate(const std::string& s) {
  if (s == "gumbel") return calm::Gate::gumbel;
  if (s == "stg") return calm::Gate::stg;
  if (s == "tanh") return calm::Gate::tanh;
  Rcpp::stop("unknown gate '%s'", s);
}

calm::Score parse_score(const std::string& s) {
  if (s == "likelihood") return calm::Score::likelihood;
  if (s == "colide") return calm::Score::colide;
  Rcpp::stop("unknown score '%s'", s);
}

calm::Acyclicity parse_acyclicity(const std::string& s) {
  if (s == "poly") return calm::Acyclicity::poly;
  if (s == "exp") return calm::Acyclicity::exp;
  Rcpp::stop("unknown acyclicity function '%s'", s);
}

double num(const Rcpp::List& l, const char* name) { return Rcpp::as<double>(l[name]); }

calm::GateParams gate_params(const Rcpp::List& control, const std::string& gate) {
  calm::GateParams g;
  g.type = parse_gate(gate);
  g.tau = num(control, "tau");
  g.stg_sigma = num(control, "stg_sigma");
  g.stg_init = num(control, "stg_init");
  g.tanh_c = num(control, "tanh_c");
  return g;
}

// What the kernel needs: gate, score, acyclicity function, lambda1, simd.
calm::CalmOptions kernel_options(const Rcpp::List& control, const std::string& gate,
                                 const std::string& score) {
  calm::CalmOptions o;
  o.gate = gate_params(control, gate);
  o.score = parse_score(score);
  o.acyclicity = parse_acyclicity(Rcpp::as<std::string>(control["acyclicity"]));
  o.lambda1 = num(control, "lambda1");
  o.simd = Rcpp::as<bool>(control["simd"]);
  return o;
}

calm::CalmOptions calm_options(const Rcpp::List& control, const std::string& gate,
                               const std::string& score, const std::string& constraint,
                               double seed) {
  calm::CalmOptions o = kernel_options(control, gate, score);
  o.hard = constraint == "hard";
  o.rho_init = num(control, "rho_init");
  o.rho_mult = num(control, "rho_mult");
  o.iter_per_round = static_cast<long>(num(control, "iter_per_round"));
  o.max_rounds = static_cast<int>(num(control, "max_rounds"));
  o.h_tol = num(control, "h_tol");
  o.lr = num(control, "lr");
  o.lambda2 = num(control, "lambda2");
  o.soft_iter = static_cast<long>(num(control, "soft_iter"));
  o.init_scale = num(control, "init_scale");
  o.threshold = num(control, "threshold");
  o.weight_threshold = num(control, "weight_threshold");
  o.early_stop = Rcpp::as<bool>(control["early_stop"]);
  o.check_every = static_cast<long>(num(control, "check_every"));
  o.patience = static_cast<int>(num(control, "patience"));
  o.stop_tol = num(control, "stop_tol");
  o.settle_rounds = static_cast<int>(num(control, "settle_rounds"));
  o.h_settle = num(control, "h_settle");
  o.seed = static_cast<std::uint64_t>(seed);
  return o;
}

// A d x d matrix holding one value per free entry, `fill` elsewhere.
Rcpp::NumericMatrix entry_matrix(const calm::Problem& pb, const std::vector<double>& v,
                                 double fill) {
  Rcpp::NumericMatrix out(pb.d, pb.d);
  std::fill(out.begin(), out.end(), fill);
  for (int e = 0; e < pb.m(); ++e) out(pb.from[e], pb.to[e]) = v[e];
  return out;
}

}  // namespace

// [[Rcpp::export(rng = false)]]
Rcpp::List cpp_calm_fit(const Eigen::Map<Eigen::MatrixXd> sigma,
                        const Eigen::Map<Eigen::MatrixXd> mask, const Rcpp::List control,
                        const std::string gate, const std::string score,
                        const std::string constraint, const double seed,
                        const Rcpp::Nullable<Rcpp::Function> progress,
                        const bool record_checks = false) {
  calm::CalmOptions opt = calm_options(control, gate, score, constraint, seed);
  opt.record_checks = record_checks;
  const bool has_progress = progress.isNotNull();
  Rcpp::Function progress_fn = has_progress ? Rcpp::Function(progress.get())
                                            : Rcpp::Function("identity");
  calm::TickFn tick = [&](const calm::Progress& p) {
    if (user_interrupted()) return true;
    if (has_progress)
      progress_fn(p.round, static_cast<double>(p.iter), static_cast<double>(p.iter_total), p.rho,
                  p.h);
    return false;
  };
  const Eigen::MatrixXd sig = sigma, msk = mask;
  calm::CalmResult res = calm::fit_calm(sig, msk, opt, tick);
  if (res.interrupted) throw Rcpp::internal::InterruptedException();

  const calm::Problem& pb = res.problem;
  const int m = pb.m();
  std::vector<double> gate_val(m), b_raw(m), edge(m);
  for (int e = 0; e < m; ++e) {
    gate_val[e] = calm::deterministic_gate(opt.gate, res.theta[e], res.weight[e]);
    b_raw[e] = calm::deterministic_weight(opt.gate, res.theta[e], res.weight[e]);
    edge[e] = calm::is_edge(opt.gate, res.theta[e], res.weight[e], opt.threshold,
                            opt.weight_threshold);
  }
  const std::size_t nr = res.trace.size();
  Rcpp::IntegerVector t_round(nr), t_edges(nr);
  Rcpp::NumericVector t_rho(nr), t_h(nr), t_obj(nr), t_sec(nr), t_skip(nr), t_steps(nr);
  Rcpp::LogicalVector t_dag(nr), t_changed(nr);
  for (std::size_t i = 0; i < nr; ++i) {
    const calm::RoundRecord& r = res.trace[i];
    t_round[i] = r.round;
    t_rho[i] = std::isnan(r.rho) ? NA_REAL : r.rho;
    t_h[i] = r.h;
    t_obj[i] = r.objective;
    t_edges[i] = r.edges;
    t_sec[i] = r.seconds;
    t_skip[i] = static_cast<double>(r.skipped);
    t_steps[i] = static_cast<double>(r.steps);
    t_dag[i] = r.dag;
    t_changed[i] = r.edges_changed;
  }
  const std::size_t nc = res.checks.size();
  Rcpp::IntegerVector c_round(nc), c_edges(nc);
  Rcpp::NumericVector c_iter(nc), c_obj(nc), c_h(nc);
  Rcpp::LogicalVector c_changed(nc);
  for (std::size_t i = 0; i < nc; ++i) {
    const calm::CheckRecord& c = res.checks[i];
    c_round[i] = c.round;
    c_iter[i] = static_cast<double>(c.iter);
    c_obj[i] = c.objective;
    c_h[i] = c.h;
    c_edges[i] = c.edges;
    c_changed[i] = c.edges_changed;
  }
  Rcpp::IntegerVector block_sizes(pb.n_blocks());
  for (int b = 0; b < pb.n_blocks(); ++b) block_sizes[b] = pb.node_ptr[b + 1] - pb.node_ptr[b];
  const bool has_theta = calm::gate_has_theta(opt.gate);
  return Rcpp::List::create(
      Rcpp::Named("theta") = has_theta ? Rcpp::wrap(entry_matrix(pb, res.theta, NA_REAL))
                                       : R_NilValue,
      Rcpp::Named("weight") = entry_matrix(pb, res.weight, 0.0),
      Rcpp::Named("gate_values") = has_theta ? Rcpp::wrap(entry_matrix(pb, gate_val, 0.0))
                                             : R_NilValue,
      Rcpp::Named("B_raw") = entry_matrix(pb, b_raw, 0.0),
      Rcpp::Named("edges") = entry_matrix(pb, edge, 0.0),
      Rcpp::Named("trace") = Rcpp::List::create(
          Rcpp::Named("round") = t_round, Rcpp::Named("rho") = t_rho, Rcpp::Named("h") = t_h,
          Rcpp::Named("objective") = t_obj, Rcpp::Named("edges") = t_edges,
          Rcpp::Named("seconds") = t_sec, Rcpp::Named("skipped") = t_skip,
          Rcpp::Named("steps") = t_steps, Rcpp::Named("dag") = t_dag,
          Rcpp::Named("changed") = t_changed),
      Rcpp::Named("checks") = Rcpp::List::create(
          Rcpp::Named("round") = c_round, Rcpp::Named("iter") = c_iter,
          Rcpp::Named("objective") = c_obj, Rcpp::Named("h") = c_h,
          Rcpp::Named("edges") = c_edges, Rcpp::Named("edges_changed") = c_changed),
      Rcpp::Named("steps") = static_cast<double>(res.steps),
      Rcpp::Named("converged") = res.converged, Rcpp::Named("settled") = res.settled,
      Rcpp::Named("skipped") = static_cast<double>(res.skipped),
      Rcpp::Named("objective") = res.final_value.objective,
      Rcpp::Named("score") = res.final_value.score,
      Rcpp::Named("h") = res.final_value.h,
      Rcpp::Named("isa") = res.isa,
      Rcpp::Named("block_sizes") = block_sizes);
}

// The objective of one step and its analytic gradient, for the
// finite-difference tests. theta, weight: d x d (read on the free entries);
// noise: NULL (deterministic gate) or d x d raw noise: logistic G (gumbel)
// or eps (stg).
// [[Rcpp::export(rng = false)]]
Rcpp::List cpp_calm_objective(const Eigen::Map<Eigen::MatrixXd> sigma,
                              const Eigen::Map<Eigen::MatrixXd> mask,
                              const Eigen::Map<Eigen::MatrixXd> theta,
                              const Eigen::Map<Eigen::MatrixXd> weight,
                              const Rcpp::Nullable<Rcpp::NumericMatrix> noise,
                              const Rcpp::List control, const std::string gate,
                              const std::string score, const double coef, const bool quadratic) {
  const calm::CalmOptions opt = kernel_options(control, gate, score);
  const Eigen::MatrixXd sig = sigma, msk = mask;
  const calm::Problem pb = calm::build_problem(msk);
  const calm::KernelSetup ks = calm::kernel_setup(pb, sig, opt);
  std::unique_ptr<calm::KernelBase> kernel = calm::make_kernel(ks, opt.simd);
  const int m = pb.m();
  std::vector<double> th(m), w(m), nz(m), gt(m), gw(m);
  for (int e = 0; e < m; ++e) {
    th[e] = theta(pb.from[e], pb.to[e]);
    w[e] = weight(pb.from[e], pb.to[e]);
  }
  const bool has_noise = noise.isNotNull() && opt.gate.type != calm::Gate::tanh;
  if (has_noise) {
    Rcpp::NumericMatrix nm(noise.get());
    for (int e = 0; e < m; ++e) {
      const double raw = nm(pb.from[e], pb.to[e]);
      nz[e] = opt.gate.type == calm::Gate::gumbel
                  ? calm::gumbel_factor_from_logistic(raw, opt.gate.tau)
                  : raw;
    }
  }
  calm::KernelValue val;
  kernel->evaluate(th.data(), w.data(), has_noise ? nz.data() : nullptr, coef, quadratic,
                   gt.data(), gw.data(), &val);
  return Rcpp::List::create(
      Rcpp::Named("objective") = val.objective, Rcpp::Named("score") = val.score,
      Rcpp::Named("sparsity") = val.sparsity, Rcpp::Named("h") = val.h,
      Rcpp::Named("constraint") = val.constraint,
      Rcpp::Named("grad_theta") = entry_matrix(pb, gt, 0.0),
      Rcpp::Named("grad_weight") = entry_matrix(pb, gw, 0.0),
      Rcpp::Named("isa") = std::string(kernel->isa()));
}

// Reference (dense) score and gradient.
// [[Rcpp::export(rng = false)]]
Rcpp::List cpp_calm_score(const Eigen::Map<Eigen::MatrixXd> sigma,
                          const Eigen::Map<Eigen::MatrixXd> B, const std::string score) {
  Eigen::MatrixXd grad;
  const double v = calm::score_value(parse_score(score), sigma, B, &grad);
  return Rcpp::List::create(Rcpp::Named("value") = v, Rcpp::Named("grad") = grad);
}

// [[Rcpp::export(rng = false)]]
bool cpp_calm_simd_available() { return calm::simd_available(); }

// Mean wall time of one optimizer step (seconds) at the given point,
// noise included, for the benchmark script.
// [[Rcpp::export(rng = false)]]
double cpp_calm_step_time(const Eigen::Map<Eigen::MatrixXd> sigma,
                          const Eigen::Map<Eigen::MatrixXd> mask, const Rcpp::List control,
                          const std::string gate, const std::string score, const double seed,
                          const int steps) {
  calm::CalmOptions opt = calm_options(control, gate, score, "hard", seed);
  opt.iter_per_round = steps;
  opt.max_rounds = 1;
  const Eigen::MatrixXd sig = sigma, msk = mask;
  const auto t0 = std::chrono::steady_clock::now();
  calm::CalmResult res = calm::fit_calm(sig, msk, opt, calm::TickFn());
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return secs / steps;
}
