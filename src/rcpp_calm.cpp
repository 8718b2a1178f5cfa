// Rcpp glue for the CALM optimizer: R lists in, R lists out. Arguments are
// checked in R (R/calm.R, R/control.R). User interrupts and progress reach
// the core through the progress callback; an interrupt is caught with
// R_ToplevelExec so that no longjmp crosses C++ frames: the core returns
// and the interrupt is re-raised here.
#include "calm_types.h"
#include <R_ext/Utils.h>

#include <chrono>
#include <cstdint>
#include <string>

#include "calm_optimizer.h"
#include "calm_score.h"
#include "early_stop.h"
#include "rcpp_glue.h"
#include "rcpp_interrupt.h"

// [[Rcpp::depends(RcppEigen)]]

namespace {

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

// The one place the validated calm_control() list becomes CalmOptions. Each
// control field the optimizer reads has a row here: its name, how to store
// it and how to read it back (for cpp_calm_options(), which the tests use to
// check that every field arrives). A field missing from the list is an
// error, never a silent default.
using ControlField = calm_glue::OptionField<calm::CalmOptions>;

#define CALM_NUM_FIELD(NAME, MEMBER, TYPE)                                          \
  ControlField {                                                                    \
    NAME, [](calm::CalmOptions& o, SEXP v) { o.MEMBER = static_cast<TYPE>(Rcpp::as<double>(v)); }, \
        [](const calm::CalmOptions& o) -> SEXP { return Rcpp::wrap(static_cast<double>(o.MEMBER)); } \
  }
#define CALM_BOOL_FIELD(NAME, MEMBER)                                               \
  ControlField {                                                                    \
    NAME, [](calm::CalmOptions& o, SEXP v) { o.MEMBER = Rcpp::as<bool>(v); },       \
        [](const calm::CalmOptions& o) -> SEXP { return Rcpp::wrap(o.MEMBER); }     \
  }

const ControlField kControlFields[] = {
    CALM_NUM_FIELD("lambda1", lambda1, double),
    CALM_NUM_FIELD("tau", gate.tau, double),
    CALM_NUM_FIELD("rho_init", rho_init, double),
    CALM_NUM_FIELD("rho_mult", rho_mult, double),
    CALM_NUM_FIELD("iter_per_round", iter_per_round, long),
    CALM_NUM_FIELD("max_rounds", max_rounds, int),
    CALM_NUM_FIELD("h_tol", h_tol, double),
    CALM_NUM_FIELD("lr", lr, double),
    CALM_NUM_FIELD("threshold", threshold, double),
    CALM_NUM_FIELD("lambda2", lambda2, double),
    CALM_NUM_FIELD("soft_iter", soft_iter, long),
    CALM_NUM_FIELD("init_scale", init_scale, double),
    CALM_NUM_FIELD("stg_sigma", gate.stg_sigma, double),
    CALM_NUM_FIELD("stg_init", gate.stg_init, double),
    CALM_NUM_FIELD("tanh_c", gate.tanh_c, double),
    CALM_NUM_FIELD("weight_threshold", weight_threshold, double),
    ControlField{"acyclicity",
                 [](calm::CalmOptions& o, SEXP v) {
                   o.acyclicity = parse_acyclicity(Rcpp::as<std::string>(v));
                 },
                 [](const calm::CalmOptions& o) -> SEXP {
                   return Rcpp::wrap(std::string(o.acyclicity == calm::Acyclicity::poly ? "poly"
                                                                                       : "exp"));
                 }},
    CALM_BOOL_FIELD("poly_series", poly_series),
    CALM_BOOL_FIELD("simd", simd),
    CALM_NUM_FIELD("threads", threads, int),
    CALM_BOOL_FIELD("early_stop", early_stop),
    CALM_NUM_FIELD("check_every", check_every, long),
    CALM_NUM_FIELD("patience", patience, int),
    CALM_NUM_FIELD("stop_tol", stop_tol, double),
    CALM_NUM_FIELD("settle_rounds", settle_rounds, int),
    CALM_NUM_FIELD("h_settle", h_settle, double),
};

#undef CALM_NUM_FIELD
#undef CALM_BOOL_FIELD

// R sends only the optimizer's fields (optimizer_control() in R/control.R),
// so every field must have a row in kControlFields: a new optimizer field
// cannot be forgotten here.
const calm_glue::OptionErrors kControlErrors{
    "control field '%s' is not an optimizer field: add it to kControlFields in "
    "src/rcpp_calm.cpp, or to control_r_fields in R/control.R if only R reads it",
    "control field '%s' is missing: pass the result of calm_control()"};

calm::CalmOptions calm_options(const Rcpp::List& control, const std::string& gate,
                               const std::string& score, const std::string& constraint,
                               double seed) {
  calm::CalmOptions o = calm_glue::read_options(control, kControlFields, kControlErrors);
  o.gate.type = parse_gate(gate);
  o.score = parse_score(score);
  o.hard = constraint == "hard";
  o.seed = static_cast<std::uint64_t>(seed);
  o.tick_seconds = 0.25;
  o.record_checks = false;
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

// The per-round trace as a list of columns.
Rcpp::List trace_list(const std::vector<calm::RoundRecord>& trace) {
  const std::size_t nr = trace.size();
  Rcpp::IntegerVector t_round(nr), t_edges(nr);
  Rcpp::NumericVector t_rho(nr), t_h(nr), t_obj(nr), t_sec(nr), t_skip(nr), t_steps(nr);
  Rcpp::LogicalVector t_dag(nr), t_changed(nr);
  for (std::size_t i = 0; i < nr; ++i) {
    const calm::RoundRecord& r = trace[i];
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
  return Rcpp::List::create(
      Rcpp::Named("round") = t_round, Rcpp::Named("rho") = t_rho, Rcpp::Named("h") = t_h,
      Rcpp::Named("objective") = t_obj, Rcpp::Named("edges") = t_edges,
      Rcpp::Named("seconds") = t_sec, Rcpp::Named("skipped") = t_skip,
      Rcpp::Named("steps") = t_steps, Rcpp::Named("dag") = t_dag,
      Rcpp::Named("changed") = t_changed);
}

// The round-end checks (with record_checks) as a list of columns.
Rcpp::List checks_list(const std::vector<calm::CheckRecord>& checks) {
  const std::size_t nc = checks.size();
  Rcpp::IntegerVector c_round(nc), c_edges(nc);
  Rcpp::NumericVector c_iter(nc), c_obj(nc), c_h(nc);
  Rcpp::LogicalVector c_changed(nc);
  for (std::size_t i = 0; i < nc; ++i) {
    const calm::CheckRecord& c = checks[i];
    c_round[i] = c.round;
    c_iter[i] = static_cast<double>(c.iter);
    c_obj[i] = c.objective;
    c_h[i] = c.h;
    c_edges[i] = c.edges;
    c_changed[i] = c.edges_changed;
  }
  return Rcpp::List::create(
      Rcpp::Named("round") = c_round, Rcpp::Named("iter") = c_iter,
      Rcpp::Named("objective") = c_obj, Rcpp::Named("h") = c_h,
      Rcpp::Named("edges") = c_edges, Rcpp::Named("edges_changed") = c_changed);
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
  const calm::ProgressFn tick = calm_glue::progress_callback([&](const calm::Progress& p) {
    if (has_progress)
      progress_fn(p.round, static_cast<double>(p.iter), static_cast<double>(p.iter_total), p.rho,
                  p.h);
  });
  const Eigen::MatrixXd sig = sigma, msk = mask;
  calm::CalmResult res = calm::fit_calm(sig, msk, opt, tick);
  calm_glue::rethrow_interrupt(res.interrupted);

  const calm::Problem& pb = res.problem;
  const int m = pb.m();
  std::vector<double> gate_val(m), b_raw(m), edge(m);
  for (int e = 0; e < m; ++e) {
    gate_val[e] = calm::deterministic_gate(opt.gate, res.theta[e], res.weight[e]);
    b_raw[e] = calm::deterministic_weight(opt.gate, res.theta[e], res.weight[e]);
    edge[e] = calm::is_edge(opt.gate, res.theta[e], res.weight[e], opt.threshold,
                            opt.weight_threshold);
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
      Rcpp::Named("trace") = trace_list(res.trace),
      Rcpp::Named("checks") = checks_list(res.checks),
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
  const calm::CalmOptions opt = calm_options(control, gate, score, "hard", 1);
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

// The options the optimizer would run with, read back field by field: the
// test that every calm_control() field reaches C++.
// [[Rcpp::export(rng = false)]]
Rcpp::List cpp_calm_options(const Rcpp::List control, const std::string gate,
                            const std::string score, const std::string constraint,
                            const double seed) {
  const calm::CalmOptions o = calm_options(control, gate, score, constraint, seed);
  Rcpp::List out;
  for (const ControlField& f : kControlFields) out[f.name] = f.get(o);
  out["hard"] = o.hard;
  out["seed"] = static_cast<double>(o.seed);
  return out;
}

// The early-stopping rule on a given sequence of round-end checks, for its
// unit tests: after check k (column k of margin), whether the round would
// end with remaining[k] steps left, and whether an entry is about to cross.
// [[Rcpp::export(rng = false)]]
Rcpp::List cpp_early_stop_trial(const Rcpp::NumericVector objective, const Rcpp::NumericVector h,
                                const Rcpp::LogicalVector changed,
                                const Rcpp::NumericMatrix margin,
                                const Rcpp::NumericVector remaining, const int patience,
                                const double check_every, const double stop_tol,
                                const double h_tol) {
  const int k = objective.size();
  calm::EarlyStop rule(calm::EarlyStopParams{patience, static_cast<long>(check_every), stop_tol,
                                             h_tol},
                       margin.nrow());
  rule.start_round();
  Rcpp::LogicalVector done(k), crossing(k);
  std::vector<double> mg(margin.nrow());
  for (int i = 0; i < k; ++i) {
    for (int e = 0; e < margin.nrow(); ++e) mg[e] = margin(e, i);
    rule.record(objective[i], h[i], changed[i] == TRUE, mg);
    const long rem = static_cast<long>(remaining[i]);
    done[i] = rule.round_done(rem);
    crossing[i] = rule.crossing_ahead(rem);
  }
  return Rcpp::List::create(Rcpp::Named("done") = done, Rcpp::Named("crossing") = crossing);
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
  calm::CalmResult res = calm::fit_calm(sig, msk, opt, calm::ProgressFn());
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return secs / steps;
}
