#include "notears.h"

#include <chrono>
#include <limits>

#include "acyclicity.h"

namespace calm {

Eigen::MatrixXd notears_weights(const Eigen::VectorXd& w, Eigen::Index d) {
  const Eigen::Index dd = d * d;
  Eigen::Map<const Eigen::MatrixXd> wp(w.data(), d, d);
  Eigen::Map<const Eigen::MatrixXd> wm(w.data() + dd, d, d);
  return wp - wm;
}

double notears_objective(const Eigen::MatrixXd& S, const Eigen::VectorXd& w, double l1_weight,
                         double rho, double alpha, Eigen::VectorXd* grad, double* h,
                         double* loss) {
  const Eigen::Index d = S.rows();
  const Eigen::Index dd = d * d;
  const Eigen::MatrixXd W = notears_weights(w, d);
  const Eigen::MatrixXd M = Eigen::MatrixXd::Identity(d, d) - W;
  const Eigen::MatrixXd SM = S * M;
  const double ls = 0.5 * (M.array() * SM.array()).sum();
  Eigen::MatrixXd E;
  const double hv = h_exp(W.cwiseProduct(W), grad ? &E : nullptr);
  const double value = ls + 0.5 * rho * hv * hv + alpha * hv + l1_weight * w.sum();
  if (h) *h = hv;
  if (loss) *loss = ls;
  if (grad) {
    // dW of the smooth part; W+ gets +G, W- gets -G, both + l1_weight.
    const Eigen::MatrixXd G = -SM + (rho * hv + alpha) * 2.0 * E.cwiseProduct(W);
    grad->resize(2 * dd);
    Eigen::Map<Eigen::MatrixXd>(grad->data(), d, d) = G.array() + l1_weight;
    Eigen::Map<Eigen::MatrixXd>(grad->data() + dd, d, d) = -G.array() + l1_weight;
  }
  return value;
}

NotearsResult notears_linear_fit(const Eigen::MatrixXd& S, const NotearsOptions& opt,
                                 const BoxSolver& solver, const ProgressFn& progress) {
  const Eigen::Index d = S.rows();
  const Eigen::Index dd = d * d;
  const auto start = std::chrono::steady_clock::now();
  auto elapsed = [&start]() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  // W+ and W- are nonnegative; their diagonals are fixed at zero.
  Eigen::VectorXd lower = Eigen::VectorXd::Zero(2 * dd);
  Eigen::VectorXd upper =
      Eigen::VectorXd::Constant(2 * dd, std::numeric_limits<double>::infinity());
  for (Eigen::Index i = 0; i < d; ++i) {
    upper(i * d + i) = 0.0;
    upper(dd + i * d + i) = 0.0;
  }
  NotearsResult res;
  Eigen::VectorXd w = Eigen::VectorXd::Zero(2 * dd);
  double rho = opt.rho_init, alpha = 0.0, h = std::numeric_limits<double>::infinity();
  for (int round = 1; round <= opt.max_iter; ++round) {
    Eigen::VectorXd w_new;
    double h_new = h;
    int evals = 0;
    while (rho < opt.rho_max) {
      w_new = w;
      const double r = rho, a = alpha;
      ObjectiveFn f = [&S, &opt, r, a](const Eigen::VectorXd& x, Eigen::VectorXd* g) {
        return notears_objective(S, x, opt.l1_weight, r, a, g, nullptr, nullptr);
      };
      BoxSolverStatus st = solver(w_new, lower, upper, f);
      evals += st.evaluations;
      res.evaluations += st.evaluations;
      ++res.subproblems;
      if (st.at_iteration_limit) ++res.subproblems_at_limit;
      if (st.interrupted) {
        res.interrupted = true;
        break;
      }
      notears_objective(S, w_new, opt.l1_weight, rho, alpha, nullptr, &h_new, nullptr);
      if (h_new > opt.progress * h) {
        rho *= opt.rho_mult;
      } else {
        break;
      }
    }
    if (res.interrupted) break;
    if (w_new.size() == 0) break;  // rho_max reached before any solve
    w = w_new;
    h = h_new;
    alpha += rho * h;
    res.rounds = round;
    double loss = 0.0;
    const double obj = notears_objective(S, w, opt.l1_weight, rho, alpha, nullptr, nullptr, &loss);
    const Eigen::MatrixXd W = notears_weights(w, d);
    NotearsTraceRow row{round, rho, alpha, h, obj, loss,
                        static_cast<int>((W.array().abs() > opt.edge_threshold).count()), evals,
                        elapsed()};
    res.trace.push_back(row);
    if (progress && progress(Progress{round, evals, 0, rho, h, obj, row.edges, true})) {
      res.interrupted = true;
      break;
    }
    if (h <= opt.h_tol || rho >= opt.rho_max) break;
  }
  res.W = notears_weights(w, d);
  res.h = h;
  res.rho = rho;
  res.alpha = alpha;
  res.converged = h <= opt.h_tol;
  return res;
}

}  // namespace calm
