// Rcpp glue for the differentiable baselines: GOLEM-NV (src/golem.cpp) and
// linear NOTEARS (src/notears.cpp). Argument checks happen in R
// (R/baselines.R). NOTEARS's subproblems are solved by LBFGSpp's L-BFGS-B
// (src/box_solver.h) or by R's own (lbfgsb() from R_ext/Applic.h, built
// here), handed to the core as a callback.
#include "calm_types.h"
#include <R_ext/Applic.h>
#include <Rinternals.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "box_solver.h"
#include "golem.h"
#include "notears.h"
#include "rcpp_interrupt.h"

// [[Rcpp::depends(RcppEigen)]]

namespace {

// State shared by the two C callbacks lbfgsb() needs. The objective returns
// value and gradient together, so the last point is cached for gr().
struct LbfgsbContext {
  const calm::ObjectiveFn* f;
  const calm::ProgressFn* progress;  // polled every 50 evaluations (may be empty)
  Eigen::VectorXd x, g;
  double value = 0.0;
  bool have = false;
  int evaluations = 0;
  bool interrupted = false;

  void evaluate(int n, const double* par) {
    if (have && std::memcmp(x.data(), par, sizeof(double) * n) == 0) return;
    x = Eigen::Map<const Eigen::VectorXd>(par, n);
    if (interrupted) {
      // A zero gradient makes L-BFGS-B stop at once.
      g.setZero(n);
      have = true;
      return;
    }
    value = (*f)(x, &g);
    ++evaluations;
    // lbfgsb() raises an R error on a non-finite value; a huge finite value
    // makes its line search step back instead.
    if (!std::isfinite(value)) value = 1e300;
    for (int k = 0; k < n; ++k) {
      if (!std::isfinite(g(k))) g(k) = 0.0;
    }
    if (evaluations % 50 == 0 && *progress && (*progress)(poll())) {
      interrupted = true;
      g.setZero(n);
    }
    have = true;
  }

  calm::Progress poll() const {
    calm::Progress p;
    p.iter = evaluations;
    p.objective = value;
    return p;
  }
};

double lbfgsb_fn(int n, double* par, void* ex) {
  auto* ctx = static_cast<LbfgsbContext*>(ex);
  ctx->evaluate(n, par);
  return ctx->value;
}

void lbfgsb_gr(int n, double* par, double* gr, void* ex) {
  auto* ctx = static_cast<LbfgsbContext*>(ex);
  ctx->evaluate(n, par);
  std::memcpy(gr, ctx->g.data(), sizeof(double) * n);
}

calm::BoxSolver make_lbfgsb(int lmm, double factr, double pgtol, int maxit,
                            const calm::ProgressFn& progress) {
  return [=, &progress](Eigen::VectorXd& x, const Eigen::VectorXd& lower,
                        const Eigen::VectorXd& upper, const calm::ObjectiveFn& f) {
    const int n = static_cast<int>(x.size());
    std::vector<int> nbd(n);
    Eigen::VectorXd l = lower, u = upper;
    for (int k = 0; k < n; ++k) {
      const bool lo = std::isfinite(lower(k)), hi = std::isfinite(upper(k));
      nbd[k] = lo && hi ? 2 : (lo ? 1 : (hi ? 3 : 0));
      if (!lo) l(k) = 0.0;
      if (!hi) u(k) = 0.0;
    }
    LbfgsbContext ctx;
    ctx.f = &f;
    ctx.progress = &progress;
    double fmin = 0.0;
    int fail = 0, fncount = 0, grcount = 0;
    char msg[120];
    std::memset(msg, 0, sizeof(msg));
    const void* vmax = vmaxget();  // lbfgsb() allocates with R_alloc
    lbfgsb(n, lmm, x.data(), l.data(), u.data(), nbd.data(), &fmin, lbfgsb_fn, lbfgsb_gr, &fail,
           &ctx, factr, pgtol, &fncount, &grcount, maxit, msg, 0, 10);
    vmaxset(vmax);
    calm::BoxSolverStatus st;
    st.evaluations = ctx.evaluations;
    st.code = fail;
    st.at_iteration_limit = fail == 1;  // lbfgsb(): 1 = maxit reached
    st.message = msg;
    st.interrupted = ctx.interrupted;
    return st;
  };
}

}  // namespace

// [[Rcpp::export(rng = false)]]
Rcpp::List cpp_golem_nv_objective(const Eigen::Map<Eigen::MatrixXd> S,
                                  const Eigen::Map<Eigen::MatrixXd> B, double l1_weight,
                                  double lambda2, bool equal_variances = false) {
  Eigen::MatrixXd grad;
  calm::GolemNvParts p = calm::golem_nv_objective(S, B, l1_weight, lambda2, &grad, equal_variances);
  return Rcpp::List::create(Rcpp::Named("objective") = p.objective,
                            Rcpp::Named("likelihood") = p.likelihood,
                            Rcpp::Named("l1") = p.l1, Rcpp::Named("h") = p.h,
                            Rcpp::Named("gradient") = grad);
}

// [[Rcpp::export(rng = false)]]
Rcpp::List cpp_golem_nv(const Eigen::Map<Eigen::MatrixXd> S, const Eigen::Map<Eigen::MatrixXd> B_init,
                        double l1_weight, double lambda2, double lr, double iter,
                        double trace_every, double edge_threshold, Rcpp::Nullable<Rcpp::Function> report,
                        bool equal_variances = false) {
  calm::GolemNvOptions opt;
  opt.equal_variances = equal_variances;
  opt.l1_weight = l1_weight;
  opt.lambda2 = lambda2;
  opt.lr = lr;
  opt.iter = static_cast<long>(iter);
  opt.trace_every = static_cast<long>(trace_every);
  opt.edge_threshold = edge_threshold;
  const bool has_report = report.isNotNull();
  Rcpp::Function fn = has_report ? Rcpp::Function(report.get()) : Rcpp::Function("identity");
  const calm::ProgressFn progress = calm_glue::progress_callback([&](const calm::Progress& p) {
    if (has_report && p.report) fn(static_cast<double>(p.iter), p.objective, p.h, p.edges);
  });
  calm::GolemNvResult res = calm::golem_nv_fit(S, B_init, opt, progress);
  calm_glue::rethrow_interrupt(res.interrupted);
  const std::size_t m = res.trace.size();
  Rcpp::NumericVector it(m), obj(m), lik(m), h(m), secs(m);
  Rcpp::IntegerVector edges(m);
  for (std::size_t k = 0; k < m; ++k) {
    it[k] = static_cast<double>(res.trace[k].iter);
    obj[k] = res.trace[k].objective;
    lik[k] = res.trace[k].likelihood;
    h[k] = res.trace[k].h;
    edges[k] = res.trace[k].edges;
    secs[k] = res.trace[k].seconds;
  }
  return Rcpp::List::create(
      Rcpp::Named("B") = res.B, Rcpp::Named("objective") = res.parts.objective,
      Rcpp::Named("likelihood") = res.parts.likelihood, Rcpp::Named("h") = res.parts.h,
      Rcpp::Named("iterations") = static_cast<double>(res.iterations),
      Rcpp::Named("trace") = Rcpp::DataFrame::create(
          Rcpp::Named("iteration") = it, Rcpp::Named("objective") = obj,
          Rcpp::Named("likelihood") = lik, Rcpp::Named("h") = h, Rcpp::Named("edges") = edges,
          Rcpp::Named("seconds") = secs));
}

// [[Rcpp::export(rng = false)]]
Rcpp::List cpp_notears_objective(const Eigen::Map<Eigen::MatrixXd> S, const Eigen::Map<Eigen::VectorXd> w,
                                 double l1_weight, double rho, double alpha) {
  Eigen::VectorXd grad;
  double h = 0.0, loss = 0.0;
  const double value = calm::notears_objective(S, w, l1_weight, rho, alpha, &grad, &h, &loss);
  return Rcpp::List::create(Rcpp::Named("objective") = value, Rcpp::Named("h") = h,
                            Rcpp::Named("loss") = loss, Rcpp::Named("gradient") = grad);
}

// [[Rcpp::export(rng = false)]]
Rcpp::List cpp_notears_linear(const Eigen::Map<Eigen::MatrixXd> S, double l1_weight, int max_iter,
                              double h_tol, double rho_max, double edge_threshold, int lmm,
                              double factr, double pgtol, int maxit, std::string solver,
                              Rcpp::Nullable<Rcpp::Function> report) {
  calm::NotearsOptions opt;
  opt.l1_weight = l1_weight;
  opt.max_iter = max_iter;
  opt.h_tol = h_tol;
  opt.rho_max = rho_max;
  opt.edge_threshold = edge_threshold;
  const bool has_report = report.isNotNull();
  Rcpp::Function fn = has_report ? Rcpp::Function(report.get()) : Rcpp::Function("identity");
  const calm::ProgressFn progress = calm_glue::progress_callback([&](const calm::Progress& p) {
    if (has_report && p.report) fn(p.round, p.rho, p.h, p.edges);
  });
  calm::LbfgsbOptions box;
  box.memory = lmm;
  box.factr = factr;
  box.pgtol = pgtol;
  box.max_iter = maxit;
  const calm::BoxSolver box_solver = solver == "optim"
                                         ? make_lbfgsb(lmm, factr, pgtol, maxit, progress)
                                         : calm::make_lbfgspp_solver(box, progress);
  calm::NotearsResult res = calm::notears_linear_fit(S, opt, box_solver, progress);
  calm_glue::rethrow_interrupt(res.interrupted);
  const std::size_t m = res.trace.size();
  Rcpp::IntegerVector round(m), edges(m), evals(m);
  Rcpp::NumericVector rho(m), alpha(m), h(m), obj(m), loss(m), secs(m);
  for (std::size_t k = 0; k < m; ++k) {
    const calm::NotearsTraceRow& r = res.trace[k];
    round[k] = r.round;
    rho[k] = r.rho;
    alpha[k] = r.alpha;
    h[k] = r.h;
    obj[k] = r.objective;
    loss[k] = r.loss;
    edges[k] = r.edges;
    evals[k] = r.evaluations;
    secs[k] = r.seconds;
  }
  return Rcpp::List::create(
      Rcpp::Named("W") = res.W, Rcpp::Named("h") = res.h, Rcpp::Named("rho") = res.rho,
      Rcpp::Named("alpha") = res.alpha, Rcpp::Named("rounds") = res.rounds,
      Rcpp::Named("evaluations") = res.evaluations, Rcpp::Named("subproblems") = res.subproblems,
      Rcpp::Named("subproblems_at_limit") = res.subproblems_at_limit,
      Rcpp::Named("converged") = res.converged,
      Rcpp::Named("trace") = Rcpp::DataFrame::create(
          Rcpp::Named("round") = round, Rcpp::Named("rho") = rho, Rcpp::Named("alpha") = alpha,
          Rcpp::Named("h") = h, Rcpp::Named("objective") = obj, Rcpp::Named("loss") = loss,
          Rcpp::Named("edges") = edges, Rcpp::Named("evaluations") = evals,
          Rcpp::Named("seconds") = secs));
}
