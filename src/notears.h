// NOTEARS, linear least-squares version (Zheng, Aragam, Ravikumar and Xing,
// 2018): min 1/2 tr((I-W)^T S (I-W)) + l1_weight ||W||_1 s.t. h_exp(W * W) = 0,
// solved by the augmented Lagrangian method with W = W+ - W- (both >= 0) and
// a box-constrained quasi-Newton solver for each subproblem. The solver is
// injected by the caller (the R glue passes LBFGSpp's L-BFGS-B from
// box_solver.h, or R's own), which keeps this core free of R. Pure C++
// (Eigen).
#ifndef CALM_NOTEARS_H
#define CALM_NOTEARS_H

#include "calm_eigen.h"
#include <functional>
#include <string>
#include <vector>

#include "progress.h"

namespace calm {

// l1_weight, max_iter, h_tol, rho_max and edge_threshold have no default here:
// the caller sets them (from R, notears_control() is their one source).
struct NotearsOptions {
  double l1_weight = 0;
  int max_iter = 0;            // outer (dual) iterations
  double h_tol = 0;            // stop when h <= h_tol
  double rho_max = 0;          // stop when rho >= rho_max
  double rho_init = 1.0;
  double rho_mult = 10.0;      // rho grows by this factor ...
  double progress = 0.25;      // ... until h has dropped below progress * previous h
  double edge_threshold = 0;   // |W_ij| above this counts as an edge in the trace
};

// Augmented Lagrangian at w = (vec(W+), vec(W-)) (column-major, length
// 2 d^2): 1/2 tr((I-W)^T S (I-W)) + rho/2 h^2 + alpha h + l1_weight sum(w).
// grad (if not null) receives the gradient in w; h and loss the parts.
double notears_objective(const Eigen::MatrixXd& S, const Eigen::VectorXd& w, double l1_weight,
                         double rho, double alpha, Eigen::VectorXd* grad, double* h,
                         double* loss);

// W = W+ - W- from the stacked vector.
Eigen::MatrixXd notears_weights(const Eigen::VectorXd& w, Eigen::Index d);

// f(x, grad): objective value, gradient written to *grad.
using ObjectiveFn = std::function<double(const Eigen::VectorXd&, Eigen::VectorXd*)>;

struct BoxSolverStatus {
  int evaluations = 0;
  int code = 0;             // solver's own code (0 = converged)
  bool at_iteration_limit = false;  // stopped by its iteration cap, not converged
  std::string message;
  bool interrupted = false; // the caller's interrupt stopped the solver
};

// Minimises f over lower <= x <= upper (entries may be +-Inf), starting from
// and overwriting x.
using BoxSolver = std::function<BoxSolverStatus(Eigen::VectorXd& x, const Eigen::VectorXd& lower,
                                                const Eigen::VectorXd& upper,
                                                const ObjectiveFn& f)>;

struct NotearsTraceRow {
  int round;
  double rho, alpha, h, objective, loss;
  int edges, evaluations;
  double seconds;
};

struct NotearsResult {
  Eigen::MatrixXd W;        // final weights (not thresholded)
  double h = 0.0, rho = 0.0, alpha = 0.0;
  int rounds = 0;
  int evaluations = 0;
  int subproblems = 0;           // solver calls
  int subproblems_at_limit = 0;  // of which stopped by the solver's iteration cap
  bool converged = false;   // h <= h_tol reached
  bool interrupted = false;
  std::vector<NotearsTraceRow> trace;
};

// `progress` (may be empty; progress.h) is called after each round with its
// trace row (report = true: round, rho, h, objective, edges, and the
// round's evaluations as iter); returning true stops the fit. A solver may
// stop early too (BoxSolverStatus::interrupted), e.g. through the same
// callback (the R glue's L-BFGS-B calls it every 50 evaluations).
NotearsResult notears_linear_fit(const Eigen::MatrixXd& S, const NotearsOptions& opt,
                                 const BoxSolver& solver, const ProgressFn& progress);

}  // namespace calm

#endif
