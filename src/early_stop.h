// The rules that end a round of the hard constraint early, and the whole
// schedule once the learned graph has settled (calm_control(early_stop,
// settle_rounds)). They see the optimizer only through what it records at
// each round-end check, so they are tested on their own
// (cpp_early_stop_trial(), test-calm-early-stop.R).
#ifndef CALM_EARLY_STOP_H
#define CALM_EARLY_STOP_H

#include <vector>

namespace calm {

struct EarlyStopParams {
  int patience;      // checks the rule looks back over
  long check_every;  // steps between two checks
  double stop_tol;   // smallest decrease of the objective that is progress
  double h_tol;      // the schedule's tolerance on h
};

// The round-end checks of one round and the rule that ends it.
class EarlyStop {
 public:
  // m: the number of free entries (gate parameters) whose margins are kept.
  EarlyStop(const EarlyStopParams& p, int m);

  // Forget the previous round's checks.
  void start_round();

  // Record a check: the objective and h at the deterministic gate, whether
  // the edge set changed since the previous check, and each entry's margin
  // to its edge threshold (positive on the edge side).
  void record(double objective, double h, bool edges_changed, const std::vector<double>& margin);

  // Number of checks recorded in this round.
  int checks() const { return static_cast<int>(obj_.size()); }

  // The rule at the latest check, with `remaining` steps left in the round:
  // the edge set has not changed over the last `patience` checks and no
  // entry is projected to cross its threshold by the end of the round; then
  // the round ends if h is already below h_tol (the schedule has converged),
  // or if the objective fell by less than stop_tol over those checks while
  // h, extrapolated log-linearly, would not reach h_tol within the round.
  bool round_done(long remaining) const;

  // Would an entry cross its threshold within `remaining` steps, drifting
  // on at its pace over the last `patience` checks? False with fewer than
  // patience + 1 checks recorded.
  bool crossing_ahead(long remaining) const;

 private:
  EarlyStopParams p_;
  std::vector<double> obj_, logh_;
  int last_change_ = 0;  // index (1-based) of the last check whose edge set changed
  // margins at the last patience + 1 checks, a ring indexed by check number
  std::vector<std::vector<double>> ring_;
};

// The settling rule, applied at the end of each round that did not meet
// h_tol: the edge set is acyclic and unchanged over the last settle_rounds
// rounds, h < h_settle, and no entry is about to cross its threshold within
// another round (EarlyStop::crossing_ahead over the round's last checks).
class SettleRule {
 public:
  SettleRule(int settle_rounds, double h_settle, int patience)
      : rounds_(settle_rounds), h_settle_(h_settle), patience_(patience) {}

  // Called once per round, in order; true when the schedule may end.
  bool settled(bool dag, bool edges_changed, double h, const EarlyStop& checks,
               long round_steps);

 private:
  int rounds_;
  double h_settle_;
  int patience_;
  int unchanged_ = 0;  // rounds in a row that ended with the same edge set
};

}  // namespace calm

#endif
