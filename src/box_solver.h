// Box-constrained quasi-Newton solver for NOTEARS's subproblems (notears.h):
// L-BFGS-B as implemented by the LBFGSpp library (Yixuan Qiu; header-only,
// Eigen-based, reached through the RcppNumerical package's headers). On
// badly scaled problems it gets much further within an iteration cap than
// R's lbfgsb() (the f2c translation of L-BFGS-B 2.3), which the Rcpp glue
// offers as the other solver. Pure C++ (Eigen).
#ifndef CALM_BOX_SOLVER_H
#define CALM_BOX_SOLVER_H

#include "notears.h"
#include "progress.h"

namespace calm {

// Stopping rules in R's optim() terms, so that both solvers read the same
// settings: stop when the largest projected-gradient entry is <= pgtol, when
// one iteration lowers the objective by less than factr * machine epsilon
// (relative), or after max_iter iterations.
struct LbfgsbOptions {
  int memory = 10;
  double factr = 1e7;
  double pgtol = 1e-5;
  int max_iter = 15000;
};

// `progress` (may be empty) is polled every 50 evaluations; returning true
// stops the solver at the best point seen, with `interrupted` set. A line
// search that fails ends the solve at the best point seen too (code 2).
BoxSolver make_lbfgspp_solver(const LbfgsbOptions& opt, const ProgressFn& progress);

}  // namespace calm

#endif
