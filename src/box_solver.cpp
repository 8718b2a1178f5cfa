#include "box_solver.h"

#include <cmath>
#include <exception>
#include <limits>

#include "eigen_warnings_off.h"
#include <optimization/LBFGSB.h>
#include "eigen_warnings_on.h"

namespace calm {

namespace {

struct StopRequested {};  // thrown through LBFGSpp to end a solve on interrupt

}  // namespace

BoxSolver make_lbfgspp_solver(const LbfgsbOptions& opt, const ProgressFn& progress) {
  return [opt, progress](Eigen::VectorXd& x, const Eigen::VectorXd& lower,
                         const Eigen::VectorXd& upper, const ObjectiveFn& f) {
    LBFGSpp::LBFGSBParam<double> param;
    param.m = opt.memory;
    param.epsilon = opt.pgtol;
    param.epsilon_rel = 0.0;
    param.past = 1;
    param.delta = opt.factr * std::numeric_limits<double>::epsilon();
    param.max_iterations = opt.max_iter;
    LBFGSpp::LBFGSBSolver<double> solver(param);

    BoxSolverStatus st;
    Eigen::VectorXd best = x;
    double best_value = std::numeric_limits<double>::infinity();
    auto fg = [&](const Eigen::VectorXd& z, Eigen::VectorXd& g) {
      double value = f(z, &g);
      ++st.evaluations;
      // A huge finite value makes the line search step back.
      if (!std::isfinite(value)) value = 1e300;
      for (Eigen::Index k = 0; k < g.size(); ++k) {
        if (!std::isfinite(g(k))) g(k) = 0.0;
      }
      if (value < best_value) {
        best_value = value;
        best = z;
      }
      if (progress && st.evaluations % 50 == 0) {
        Progress p;
        p.iter = st.evaluations;
        p.objective = best_value;
        if (progress(p)) throw StopRequested();
      }
      return value;
    };
    double fx = 0.0;
    try {
      const int iterations = solver.minimize(fg, x, fx, lower, upper);
      st.at_iteration_limit = iterations >= opt.max_iter;
      st.code = st.at_iteration_limit ? 1 : 0;
    } catch (const StopRequested&) {
      st.interrupted = true;
      st.code = 3;
      st.message = "interrupted";
    } catch (const std::exception& e) {
      st.code = 2;
      st.message = e.what();
    }
    // LBFGSpp returns its last iterate, which is its best; after a failed
    // line search x may hold a trial point instead.
    if (st.code != 0 && st.code != 1) x = best;
    return st;
  };
}

}  // namespace calm
