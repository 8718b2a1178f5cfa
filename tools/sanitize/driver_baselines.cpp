// Sanitizer driver for the baselines and the l1-inconsistency search:
// GOLEM-NV (src/golem.*), linear NOTEARS (src/notears.*, with a small
// projected-gradient box solver standing in for R's L-BFGS-B, which the R
// glue injects, and with LBFGSpp's L-BFGS-B from src/box_solver.*) and the
// variable-order search (src/permutations.*).
// Objectives are checked against finite differences, short runs (a few
// hundred steps, a few augmented-Lagrangian rounds) must give finite
// results, regression DAGs must reproduce the covariance, and every order
// must be counted; edge cases cover d = 1 and 2, singular I - B, huge steps
// and interrupts. Built and run by tools/sanitize/run.sh.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <random>
#include <vector>

#include "box_solver.h"
#include "golem.h"
#include "graph_core.h"
#include "notears.h"
#include "permutations.h"
#include "sanitize_check.h"
#include "sanitize_util.h"

namespace {

// NOTEARS options as notears_control()'s defaults (the struct leaves these
// to the caller; R's notears_control() is their one source).
calm::NotearsOptions notears_defaults() {
  calm::NotearsOptions o;
  o.l1_weight = 0.1;
  o.max_iter = 100;
  o.h_tol = 1e-8;
  o.rho_max = 1e16;
  o.edge_threshold = 0.1;
  return o;
}


Eigen::MatrixXd random_sigma(int d, std::mt19937_64& rng, calm::IntMatrix* dag = nullptr,
                             Eigen::MatrixXd* B = nullptr, Eigen::VectorXd* omega = nullptr) {
  calm::IntMatrix a = random_dag_matrix(d, std::min(1.0, 2.0 / std::max(d - 1, 1)), rng);
  Eigen::MatrixXd w = random_weights(a, rng);
  Eigen::VectorXd om = noise_variances(d, 16.0, rng);
  if (dag) *dag = a;
  if (B) *B = w;
  if (omega) *omega = om;
  return population_cov(w, om);
}

// Projected gradient descent with backtracking on a box: enough to drive
// the NOTEARS subproblems a little way, which is all the driver needs.
calm::BoxSolver projected_gradient(int max_steps, int interrupt_after = -1) {
  return [=](Eigen::VectorXd& x, const Eigen::VectorXd& lower, const Eigen::VectorXd& upper,
             const calm::ObjectiveFn& f) {
    calm::BoxSolverStatus st;
    Eigen::VectorXd g(x.size()), g_new(x.size());
    double fx = f(x, &g);
    ++st.evaluations;
    double step = 1e-2;
    for (int it = 0; it < max_steps; ++it) {
      if (interrupt_after >= 0 && st.evaluations >= interrupt_after) {
        st.interrupted = true;
        return st;
      }
      if (!std::isfinite(fx) || !g.allFinite()) break;
      bool moved = false;
      for (int tries = 0; tries < 30 && !moved; ++tries) {
        Eigen::VectorXd trial = (x - step * g).cwiseMax(lower).cwiseMin(upper);
        const double ft = f(trial, &g_new);
        ++st.evaluations;
        if (std::isfinite(ft) && ft <= fx - 1e-4 * g.dot(x - trial)) {
          x = trial;
          fx = ft;
          g = g_new;
          step *= 2.0;
          moved = true;
        } else {
          step *= 0.5;
        }
      }
      if (!moved) break;
    }
    return st;
  };
}

void golem_cases(std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(-0.6, 0.6);
  for (int d : {1, 2, 3, 5, 8, 12, 2, 3, 5, 8, 12}) {
    Eigen::MatrixXd S = to_correlation(random_sigma(d, rng));
    // objective and gradient: finite differences at a point with no zero entry
    Eigen::MatrixXd B(d, d);
    for (int i = 0; i < d; ++i)
      for (int j = 0; j < d; ++j) B(i, j) = i == j ? 0.0 : 0.05 + 0.2 * std::abs(u(rng));
    Eigen::MatrixXd grad;
    calm::GolemNvParts p = calm::golem_nv_objective(S, B, 2e-3, 5.0, &grad);
    CHECK(std::isfinite(p.objective) && std::isfinite(p.h) && p.h >= -1e-12);
    CHECK(grad.allFinite());
    CHECK(grad.diagonal().isZero());
    for (int k = 0; k < std::min(d * d, 6); ++k) {
      const int i = static_cast<int>(rng() % d), j = static_cast<int>(rng() % d);
      if (i == j) continue;
      const double step = 1e-6, keep = B(i, j);
      B(i, j) = keep + step;
      const double fp = calm::golem_nv_objective(S, B, 2e-3, 5.0, nullptr).objective;
      B(i, j) = keep - step;
      const double fm = calm::golem_nv_objective(S, B, 2e-3, 5.0, nullptr).objective;
      B(i, j) = keep;
      const double fd = (fp - fm) / (2 * step);
      CHECK(std::abs(fd - grad(i, j)) <= 1e-4 * std::max(1.0, std::abs(grad(i, j))) +
                                             1e-9 * std::abs(fp) / step);
    }

    // a short fit, traced, then stopped by an interrupt
    calm::GolemNvOptions opt;
    opt.iter = 400;
    opt.trace_every = 100;
    int rows = 0;
    calm::GolemNvResult res = calm::golem_nv_fit(
        S, Eigen::MatrixXd::Zero(d, d), opt, [&rows](const calm::Progress& p) {
          if (p.report) {
            ++rows;
            CHECK(std::isfinite(p.objective) && p.edges >= 0);
          }
          return false;
        });
    CHECK(res.B.allFinite() && res.B.diagonal().isZero());
    CHECK(res.iterations == opt.iter && !res.interrupted);
    CHECK(rows == static_cast<int>(res.trace.size()) && rows >= 4);
    int polls = 0;
    calm::GolemNvResult stopped = calm::golem_nv_fit(
        S, Eigen::MatrixXd::Zero(d, d), opt,
        [&polls](const calm::Progress&) { return ++polls >= 2; });
    CHECK(stopped.interrupted && stopped.iterations < opt.iter);

    // Hostile starts and steps: singular I - B, a huge learning rate. The
    // core may produce non-finite numbers (the R side refuses them); it
    // must not crash or read out of bounds.
    Eigen::MatrixXd ones = Eigen::MatrixXd::Ones(d, d);
    calm::GolemNvOptions wild = opt;
    wild.iter = 100;
    calm::golem_nv_fit(S, ones, wild, calm::ProgressFn());
    wild.lr = 1e10;
    calm::GolemNvResult big = calm::golem_nv_fit(
        S, Eigen::MatrixXd::Zero(d, d), wild, calm::ProgressFn());
    CHECK(big.B.rows() == d && big.B.cols() == d);
  }
}

void notears_cases(std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(0.0, 0.4);
  for (int d : {1, 2, 3, 5, 8, 2, 3, 5, 8}) {
    Eigen::MatrixXd S = to_correlation(random_sigma(d, rng));
    const Eigen::Index n = 2 * static_cast<Eigen::Index>(d) * d;
    Eigen::VectorXd w(n), grad;
    for (Eigen::Index k = 0; k < n; ++k) w(k) = 0.01 + u(rng);
    double h = 0, loss = 0;
    const double f0 = calm::notears_objective(S, w, 0.1, 10.0, 0.5, &grad, &h, &loss);
    CHECK(std::isfinite(f0) && std::isfinite(h) && h >= -1e-12 && std::isfinite(loss));
    CHECK(grad.size() == n && grad.allFinite());
    for (int k = 0; k < std::min<int>(static_cast<int>(n), 6); ++k) {
      const Eigen::Index e = static_cast<Eigen::Index>(rng() % n);
      const double step = 1e-6, keep = w(e);
      w(e) = keep + step;
      const double fp = calm::notears_objective(S, w, 0.1, 10.0, 0.5, nullptr, nullptr, nullptr);
      w(e) = keep - step;
      const double fm = calm::notears_objective(S, w, 0.1, 10.0, 0.5, nullptr, nullptr, nullptr);
      w(e) = keep;
      const double fd = (fp - fm) / (2 * step);
      CHECK(std::abs(fd - grad(e)) <= 1e-4 * std::max(1.0, std::abs(grad(e))) +
                                          1e-9 * std::abs(fp) / step);
    }
    Eigen::MatrixXd W = calm::notears_weights(w, d);
    CHECK(W.rows() == d && W.cols() == d && W.allFinite());

    calm::NotearsOptions opt = notears_defaults();
    opt.max_iter = 4;
    int rows = 0;
    calm::NotearsResult res = calm::notears_linear_fit(
        S, opt, projected_gradient(200),
        [&rows](const calm::Progress& p) {
          ++rows;
          CHECK(p.report && std::isfinite(p.h) && std::isfinite(p.objective));
          return false;
        });
    CHECK(res.W.rows() == d && res.W.allFinite());
    CHECK(!res.interrupted && res.rounds <= opt.max_iter);
    CHECK(rows == static_cast<int>(res.trace.size()));
    // the solver reports an interrupt: the fit stops and says so
    calm::NotearsResult stopped = calm::notears_linear_fit(
        S, opt, projected_gradient(200, 5), calm::ProgressFn());
    CHECK(stopped.interrupted);
    CHECK(stopped.W.rows() == d);
    // the progress callback stops the fit after its first round
    calm::NotearsResult first = calm::notears_linear_fit(
        S, opt, projected_gradient(200), [](const calm::Progress&) { return true; });
    CHECK(first.interrupted && first.rounds <= 1);
    // rho_max below rho_init: no subproblem is ever solved
    calm::NotearsOptions none = opt;
    none.rho_max = 0.5;
    calm::NotearsResult empty = calm::notears_linear_fit(
        S, none, projected_gradient(10), calm::ProgressFn());
    CHECK(empty.W.rows() == d && empty.rounds == 0);
  }
}

// LBFGSpp's L-BFGS-B (src/box_solver.*): exact on a separable quadratic
// over a box, survives non-finite values, stops on request, and drives
// whole NOTEARS fits to a nearly acyclic W.
void box_solver_cases(std::mt19937_64& rng) {
  std::normal_distribution<double> z(0.0, 2.0);
  calm::LbfgsbOptions opt;
  calm::LbfgsbOptions tight = opt;  // stop on the projected gradient (or no change at all)
  tight.pgtol = 1e-9;
  tight.factr = 0.0;
  for (int n : {1, 3, 20}) {
    Eigen::VectorXd c(n), scale(n);
    for (int k = 0; k < n; ++k) {
      c(k) = z(rng);
      scale(k) = std::pow(10.0, static_cast<double>(k % 4));  // badly scaled
    }
    const Eigen::VectorXd lower = Eigen::VectorXd::Zero(n), upper = Eigen::VectorXd::Ones(n);
    const calm::ObjectiveFn f = [&](const Eigen::VectorXd& x, Eigen::VectorXd* g) {
      if (g) *g = scale.cwiseProduct(x - c);
      return 0.5 * (x - c).cwiseAbs2().dot(scale);
    };
    Eigen::VectorXd x = Eigen::VectorXd::Constant(n, 0.5);
    const calm::BoxSolverStatus st = calm::make_lbfgspp_solver(tight, calm::ProgressFn())(x, lower, upper, f);
    CHECK(st.code == 0 && !st.interrupted && !st.at_iteration_limit && st.evaluations > 0);
    CHECK((x - c.cwiseMax(lower).cwiseMin(upper)).cwiseAbs().maxCoeff() < 1e-6);
    // non-finite values far from the start: the solver steps back
    const calm::ObjectiveFn wall = [&](const Eigen::VectorXd& y, Eigen::VectorXd* g) {
      if (g) *g = y - c;
      if (y.norm() > 1.5 * c.norm() + 1.0) return std::numeric_limits<double>::quiet_NaN();
      return 0.5 * (y - c).squaredNorm();
    };
    const Eigen::VectorXd free_lower = Eigen::VectorXd::Constant(n, -std::numeric_limits<double>::infinity());
    const Eigen::VectorXd free_upper = Eigen::VectorXd::Constant(n, std::numeric_limits<double>::infinity());
    Eigen::VectorXd y = Eigen::VectorXd::Zero(n);
    calm::make_lbfgspp_solver(opt, calm::ProgressFn())(y, free_lower, free_upper, wall);
    CHECK(y.allFinite() && std::isfinite(wall(y, nullptr)));
    // an iteration cap of 1 is reported as such on a problem it cannot finish
    calm::LbfgsbOptions one = opt;
    one.max_iter = 1;
    Eigen::VectorXd x1 = Eigen::VectorXd::Constant(n, 0.5);
    const calm::BoxSolverStatus capped = calm::make_lbfgspp_solver(one, calm::ProgressFn())(x1, lower, upper, f);
    CHECK(capped.code == 0 || capped.at_iteration_limit);
  }
  for (int d : {1, 2, 3, 5, 8}) {
    Eigen::MatrixXd S = to_correlation(random_sigma(d, rng));
    calm::NotearsOptions nopt = notears_defaults();
    calm::NotearsResult res =
        calm::notears_linear_fit(S, nopt, calm::make_lbfgspp_solver(opt, calm::ProgressFn()),
                                 calm::ProgressFn());
    CHECK(res.W.rows() == d && res.W.allFinite() && !res.interrupted);
    CHECK(res.h <= 1e-6 && res.subproblems >= res.rounds);
    // a request to stop, polled every 50 evaluations, ends the fit
    int polls = 0;
    calm::ProgressFn stop = [&polls](const calm::Progress& p) {
      if (p.report) return false;
      ++polls;
      return true;
    };
    calm::NotearsResult stopped =
        calm::notears_linear_fit(S, nopt, calm::make_lbfgspp_solver(opt, stop), calm::ProgressFn());
    CHECK(stopped.W.allFinite());
    CHECK(stopped.interrupted == (polls > 0));
    CHECK(polls <= 1);
  }
}

std::uint64_t factorial(int d) {
  std::uint64_t f = 1;
  for (int k = 2; k <= d; ++k) f *= static_cast<std::uint64_t>(k);
  return f;
}

void permutation_cases(std::mt19937_64& rng) {
  for (int d : {1, 2, 3, 4, 5, 6, 7}) {
    calm::IntMatrix dag;
    Eigen::MatrixXd Btrue;
    Eigen::VectorXd omega;
    Eigen::MatrixXd S = random_sigma(d, rng, &dag, &Btrue, &omega);
    // every order's regression DAG reproduces the covariance
    std::vector<int> order(d);
    for (int i = 0; i < d; ++i) order[i] = i;
    for (int rep = 0; rep < 5; ++rep) {
      std::shuffle(order.begin(), order.end(), rng);
      Eigen::VectorXd om;
      Eigen::MatrixXd B = calm::regression_dag(S, order, &om);
      CHECK(B.allFinite() && om.allFinite() && (om.array() > 0).all());
      const Eigen::MatrixXd back = population_cov(B, om);
      CHECK((back - S).cwiseAbs().maxCoeff() <= 1e-8 * (1.0 + S.cwiseAbs().maxCoeff()));
      CHECK(calm::is_dag((B.array() != 0).cast<calm::GraphEntry>().matrix()));
    }
    calm::SubsetRegressions reg(S, 1e-8);
    CHECK(reg.d() == d);
    double l1_true = Btrue.cwiseAbs().sum();
    calm::OrderEnumeration res = calm::enumerate_orders(reg, l1_true * (1 - 1e-9),
                                                      std::function<bool()>());
    CHECK(res.n_orders == factorial(d));
    CHECK(res.n_smaller <= res.n_orders);
    CHECK(res.l1_min <= l1_true * (1 + 1e-9));
    CHECK(static_cast<int>(res.order_l1_min.size()) == d);
    CHECK(static_cast<int>(res.order_l0_min.size()) == d);
    // sparsest DAG is no denser than the truth
    CHECK(res.l0_min <= static_cast<int>((Btrue.array() != 0).count()));
    CHECK(!res.interrupted);
  }
  // interrupt a search over 9! orders
  Eigen::MatrixXd S = random_sigma(9, rng);
  calm::SubsetRegressions reg(S, 0.0);
  calm::OrderEnumeration stopped = calm::enumerate_orders(reg, 0.0, [] { return true; });
  CHECK(stopped.interrupted && stopped.n_orders < factorial(9));
}

}  // namespace

int main() {
  std::mt19937_64 rng(777);
  golem_cases(rng);
  notears_cases(rng);
  box_solver_cases(rng);
  permutation_cases(rng);
  return report("driver_baselines");
}
