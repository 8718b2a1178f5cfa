// The one progress convention of the iterative optimizers (CALM, GOLEM,
// NOTEARS): the core calls a ProgressFn now and then with where it is, and
// the callback returns true to stop (a user interrupt); the optimizer then
// returns what it has, with `interrupted` set. Pure C++: the Rcpp glue
// builds the callback (calm_glue::progress_callback() in rcpp_interrupt.h),
// which checks for R's interrupt and passes reports to the user's function.
#ifndef CALM_PROGRESS_H
#define CALM_PROGRESS_H

#include <functional>
#include <limits>

namespace calm {

struct Progress {
  int round = 0;         // round (CALM, NOTEARS); 1 for GOLEM
  long iter = 0;         // steps done in this round (GOLEM: in all; NOTEARS: evaluations)
  long iter_total = 0;   // steps of a round (GOLEM: in all; NOTEARS: 0)
  double rho = std::numeric_limits<double>::quiet_NaN();  // penalty coefficient
  double h = std::numeric_limits<double>::quiet_NaN();    // acyclicity, when known
  double objective = std::numeric_limits<double>::quiet_NaN();
  int edges = -1;        // edges of the current graph, when counted
  bool report = false;   // a result worth reporting (a round's end, a trace
                         // row), not only a periodic check
};

// Returns true to stop the optimizer.
using ProgressFn = std::function<bool(const Progress&)>;

}  // namespace calm

#endif
