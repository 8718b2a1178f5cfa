// The CALM optimizer: Adam on the gate parameters and weights of the free
// entries, under the quadratic-penalty schedule (hard constraint) or a
// single soft-penalised run.
//
// Hard constraint: rho starts at rho_init; each round runs iter_per_round
// Adam steps on  score + lambda1 * penalty + rho / 2 * h(A)^2  (Adam's
// moments restart with each round), then evaluates h at the deterministic
// gate; the schedule stops as soon as that h is below h_tol, otherwise rho is
// multiplied by rho_mult, for at most max_rounds rounds. With early_stop,
// rounds may end before iter_per_round steps and the schedule may end once
// the learned graph has settled (see CalmOptions).
// Soft constraint: one run of soft_iter steps on
// score + lambda1 * penalty + lambda2 * h(A).
#ifndef CALM_OPTIMIZER_H
#define CALM_OPTIMIZER_H

#include "calm_eigen.h"
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "calm_kernel.h"
#include "progress.h"

namespace calm {

// Every field is set from calm_control() by calm_options() in
// src/rcpp_calm.cpp: the struct deliberately has no defaults of its own, so
// that calm_control() is the single source of them (a default written here
// too would drift). The fields are documented in R/control.R.
struct CalmOptions {
  GateParams gate;
  Score score;
  Acyclicity acyclicity;
  bool hard;  // constraint = "hard" (quadratic-penalty schedule) or "soft"
  double lambda1;
  double rho_init;
  double rho_mult;
  long iter_per_round;
  int max_rounds;
  double h_tol;
  double lr;
  double lambda2;
  long soft_iter;
  double init_scale;
  double threshold;         // gate threshold for edges
  double weight_threshold;  // |B| threshold for the tanh gate
  bool poly_series;         // poly: the power series on sparse blocks (KernelSetup)
  bool simd;
  int threads;              // threads of the kernel's large products (KernelSetup)
  std::uint64_t seed;
  double tick_seconds;      // how often the progress callback runs
  // Round-end checks: every check_every steps the objective and h at the
  // deterministic gate are evaluated (no gradient) and the edge set is read.
  // With early_stop, a round of the hard constraint may end at a check by
  // the rule of EarlyStop (src/early_stop.h).
  long check_every;
  bool early_stop;
  int patience;
  double stop_tol;
  bool record_checks;       // keep every check in CalmResult::checks
  // Settling (with early_stop): the schedule also ends, converged, after a
  // round at whose end the edge set is acyclic and the same as at the end of
  // the last settle_rounds rounds, h is below h_settle, and no gate
  // parameter, drifting on as over the round's last patience checks, would
  // cross the edge threshold within another iter_per_round steps.
  // settle_rounds = 0 turns it off.
  int settle_rounds;
  double h_settle;
};

// The free entries (moral-graph edges, both directions) grouped in blocks of
// connected components; see KernelSetup.
struct Problem {
  int d = 0;
  std::vector<int> from, to;
  std::vector<int> node_ptr, block_nodes, entry_ptr;
  int m() const { return static_cast<int>(from.size()); }
  int n_blocks() const { return static_cast<int>(node_ptr.size()) - 1; }
};

// mask: d x d, nonzero off-diagonal entries are free. Connected components
// (of the mask read as undirected) smaller than merge_below are packed
// together into blocks of at most merge_below nodes, which saves per-block
// overhead and changes nothing in the result.
Problem build_problem(const Eigen::MatrixXd& mask, int merge_below = 8);

KernelSetup kernel_setup(const Problem& pb, const Eigen::MatrixXd& sigma,
                         const CalmOptions& opt);

struct RoundRecord {
  int round;
  double rho;  // NaN for the soft constraint
  double h;
  double objective;
  int edges;
  double seconds;
  long skipped;
  long steps;  // Adam steps run in this round (fewer than a round's with early_stop)
  bool dag;            // the thresholded graph (edges) is acyclic
  bool edges_changed;  // the edge set differs from the previous round's
};

// One round-end check (kept with CalmOptions::record_checks).
struct CheckRecord {
  int round;
  long iter;
  double objective;  // at the deterministic gate, with the round's coefficient
  double h;
  int edges;
  bool edges_changed;  // since the previous check of the round
};

// fit_calm() calls its ProgressFn (progress.h) every opt.tick_seconds and
// after each round (report = true), with round, iter (steps done in this
// round), iter_total (steps of a round), rho and h (at the deterministic
// gate after the last round); returning true stops the optimizer.

struct CalmResult {
  Problem problem;
  std::vector<double> theta, weight;  // per free entry
  std::vector<RoundRecord> trace;
  KernelValue final_value;  // at the deterministic gate, last rho
  bool converged = false;
  bool settled = false;  // converged by the settling rule, h may exceed h_tol
  bool interrupted = false;
  long skipped = 0;  // steps skipped for a non-finite objective
  long steps = 0;    // Adam steps run in all
  std::vector<CheckRecord> checks;
  std::string isa;
};

CalmResult fit_calm(const Eigen::MatrixXd& sigma, const Eigen::MatrixXd& mask,
                    const CalmOptions& opt, const ProgressFn& progress);

}  // namespace calm

#endif
