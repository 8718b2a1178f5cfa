#include "calm_optimizer.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>

#include "adam.h"
#include "early_stop.h"
#include "graph_core.h"
#include "rng.h"

namespace calm {

namespace {

int find_root(std::vector<int>& parent, int i) {
  while (parent[i] != i) {
    parent[i] = parent[parent[i]];
    i = parent[i];
  }
  return i;
}

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

}  // namespace

Problem build_problem(const Eigen::MatrixXd& mask, int merge_below) {
  const int d = static_cast<int>(mask.rows());
  if (mask.cols() != d) throw std::invalid_argument("mask must be square");
  std::vector<int> parent(d);
  std::iota(parent.begin(), parent.end(), 0);
  std::vector<char> touched(d, 0);
  for (int j = 0; j < d; ++j)
    for (int i = 0; i < d; ++i)
      if (i != j && mask(i, j) != 0) {
        touched[i] = touched[j] = 1;
        const int a = find_root(parent, i), b = find_root(parent, j);
        if (a != b) parent[std::max(a, b)] = std::min(a, b);
      }
  // Components (with at least one free entry), as sorted node lists.
  std::vector<std::vector<int>> comps;
  std::vector<int> comp_of_root(d, -1);
  for (int i = 0; i < d; ++i) {
    if (!touched[i]) continue;
    const int r = find_root(parent, i);
    if (comp_of_root[r] < 0) {
      comp_of_root[r] = static_cast<int>(comps.size());
      comps.emplace_back();
    }
    comps[comp_of_root[r]].push_back(i);
  }
  // Pack small components together, in the order of their smallest node.
  std::vector<std::vector<int>> blocks;
  std::vector<int> current;
  for (const auto& comp : comps) {
    if (static_cast<int>(comp.size()) >= merge_below) {
      blocks.push_back(comp);
      continue;
    }
    if (static_cast<int>(current.size() + comp.size()) > merge_below) {
      blocks.push_back(current);
      current.clear();
    }
    current.insert(current.end(), comp.begin(), comp.end());
  }
  if (!current.empty()) blocks.push_back(current);

  Problem pb;
  pb.d = d;
  pb.node_ptr.push_back(0);
  pb.entry_ptr.push_back(0);
  for (auto& nodes : blocks) {
    std::sort(nodes.begin(), nodes.end());
    // entries of the block, column by column (child), then parent
    for (int j : nodes)
      for (int i : nodes)
        if (i != j && mask(i, j) != 0) {
          pb.from.push_back(i);
          pb.to.push_back(j);
        }
    pb.block_nodes.insert(pb.block_nodes.end(), nodes.begin(), nodes.end());
    pb.node_ptr.push_back(static_cast<int>(pb.block_nodes.size()));
    pb.entry_ptr.push_back(static_cast<int>(pb.from.size()));
  }
  return pb;
}

KernelSetup kernel_setup(const Problem& pb, const Eigen::MatrixXd& sigma,
                         const CalmOptions& opt) {
  KernelSetup ks;
  ks.d = pb.d;
  ks.m = pb.m();
  ks.from = pb.from.data();
  ks.to = pb.to.data();
  ks.n_blocks = pb.n_blocks();
  ks.node_ptr = pb.node_ptr.data();
  ks.block_nodes = pb.block_nodes.data();
  ks.entry_ptr = pb.entry_ptr.data();
  ks.sigma = sigma.data();
  ks.gate = opt.gate;
  ks.score = opt.score;
  ks.acyclicity = opt.acyclicity;
  ks.lambda1 = opt.lambda1;
  ks.threads = opt.threads;
  ks.poly_series = opt.poly_series;
  return ks;
}

namespace {

// The state of one fit and its three parts: a round of Adam steps with its
// round-end checks (run_round), the schedule of the hard constraint
// (run_hard: rounds, rho, h_tol and the settling rule) and the single run of
// the soft constraint (run_soft). The early-stopping and settling rules are
// the small types of early_stop.h.
class Optimizer {
 public:
  Optimizer(const Eigen::MatrixXd& sigma, const CalmOptions& opt, const ProgressFn& progress,
            CalmResult& res);
  void run_hard();
  void run_soft();
  void run_empty();  // no free entry: the empty graph
  void finish();     // copy the parameters into the result
  // Required edges (background knowledge): the gates of these entries are
  // held open (always in the graph) and their parameters never updated, so
  // the sparsity penalty does not act on them (its term is a constant).
  void hold_open(std::vector<int> entries);

 private:
  // At most `iters` Adam steps at penalty coefficient `coef`, Adam
  // restarted. Returns true when the progress callback asked to stop; the steps
  // run are left in *steps_run.
  bool run_round(long iters, double coef, bool quadratic, int round, long* steps_run);
  // One Adam step (skipped, and counted, when the objective or the gradient
  // is not finite).
  void step(double coef, bool quadratic);
  // The round-end check after `done` steps; true when the round may end.
  bool check(double coef, bool quadratic, int round, long done, long iters);
  // Calls the progress callback when tick_seconds have passed since the last.
  bool tick_due(int round, long done, long iters, double coef);
  void edge_set(std::vector<char>& out) const;
  // The edge set at the end of a round (the previous round's is kept), its
  // size in n_edges_, and whether it is acyclic.
  bool read_round_edges();
  RoundRecord round_record(int round, double rho, long skipped_before, long steps, bool dag,
                           bool changed) const;

  const CalmOptions& opt_;
  const ProgressFn& progress_;
  CalmResult& res_;
  const Problem& pb_;
  const int m_;
  std::unique_ptr<KernelBase> kernel_;
  Rng rng_;
  const bool stochastic_;
  // One parameter vector [theta; weight] so that a single vectorised Adam
  // call updates both (theta is left out for tanh, which has none).
  Eigen::VectorXd par_, grad_, adam_m_, adam_v_, noise_;
  double* theta_;
  double* weight_;
  int adam_off_, adam_n_;
  AdamBias bias_;
  const bool checking_;
  EarlyStop early_;
  std::vector<char> edge_now_, edge_prev_;
  std::vector<double> margin_;
  std::vector<char> round_edges_, round_edges_prev_;
  IntMatrix adj_;
  int n_edges_ = 0;
  KernelValue det_{};
  double last_h_;
  Clock::time_point t_start_, t_tick_;
  std::vector<int> held_open_;
};

void Optimizer::hold_open(std::vector<int> entries) {
  if (entries.empty()) return;
  if (!gate_has_theta(opt_.gate)) throw std::invalid_argument("required edges need a gate (gumbel or stg)");
  const double on = gate_theta_always_on(opt_.gate);
  for (int e : entries) theta_[e] = on;
  held_open_ = std::move(entries);
}

Optimizer::Optimizer(const Eigen::MatrixXd& sigma, const CalmOptions& opt,
                     const ProgressFn& progress, CalmResult& res)
    : opt_(opt), progress_(progress), res_(res), pb_(res.problem), m_(res.problem.m()),
      kernel_(make_kernel(kernel_setup(res.problem, sigma, opt), opt.simd)), rng_(opt.seed),
      stochastic_(opt.gate.type != Gate::tanh), par_(2 * m_),
      grad_(Eigen::VectorXd::Zero(2 * m_)), adam_m_(2 * m_), adam_v_(2 * m_), noise_(m_),
      theta_(par_.data()), weight_(par_.data() + m_),
      checking_(opt.check_every > 0 && (opt.early_stop || opt.record_checks)),
      early_(EarlyStopParams{opt.patience, opt.check_every, opt.stop_tol, opt.h_tol}, m_),
      edge_now_(m_), edge_prev_(m_), margin_(m_), round_edges_(m_, 0), round_edges_prev_(m_, 0),
      adj_(IntMatrix::Zero(res.problem.d, res.problem.d)),
      last_h_(std::numeric_limits<double>::quiet_NaN()) {
  res_.isa = kernel_->isa();
  const bool has_theta = gate_has_theta(opt.gate);
  init_gate_theta(opt.gate, theta_, m_);
  for (int e = 0; e < m_; ++e) weight_[e] = rng_.uniform(-opt.init_scale, opt.init_scale);
  adam_off_ = has_theta ? 0 : m_;
  adam_n_ = has_theta ? 2 * m_ : m_;
  t_start_ = t_tick_ = Clock::now();
}

void Optimizer::step(double coef, bool quadratic) {
  KernelValue val;
  if (stochastic_) draw_gate_noise(opt_.gate, rng_, noise_.data(), m_);
  kernel_->evaluate(theta_, weight_, stochastic_ ? noise_.data() : nullptr, coef, quadratic,
                    grad_.data(), grad_.data() + m_, &val);
  for (int e : held_open_) grad_[e] = 0.0;
  if (!std::isfinite(val.objective) || !std::isfinite(grad_.sum())) {
    ++res_.skipped;
    return;
  }
  bias_.advance(kAdamBeta1, kAdamBeta2);
  kernel_->adam(par_.data() + adam_off_, adam_m_.data() + adam_off_, adam_v_.data() + adam_off_,
                grad_.data() + adam_off_, adam_n_, kAdamBeta1, kAdamBeta2, bias_.step(opt_.lr),
                bias_.c2(), kAdamEps);
}

bool Optimizer::check(double coef, bool quadratic, int round, long done, long iters) {
  KernelValue dv;
  kernel_->evaluate(theta_, weight_, nullptr, coef, quadratic, nullptr, nullptr, &dv);
  edge_set(edge_now_);
  const bool changed = edge_now_ != edge_prev_;
  edge_prev_.swap(edge_now_);
  if (opt_.early_stop)
    for (int e = 0; e < m_; ++e)
      margin_[e] = edge_margin(opt_.gate, theta_[e], weight_[e], opt_.threshold,
                               opt_.weight_threshold);
  early_.record(dv.objective, dv.h, changed, margin_);
  if (opt_.record_checks) {
    int edges = 0;
    for (char c : edge_prev_) edges += c;
    res_.checks.push_back(CheckRecord{round, done, dv.objective, dv.h, edges, changed});
  }
  return opt_.early_stop && quadratic && early_.round_done(iters - done);
}

bool Optimizer::tick_due(int round, long done, long iters, double coef) {
  if (!progress_) return false;
  const Clock::time_point now = Clock::now();
  if (std::chrono::duration<double>(now - t_tick_).count() < opt_.tick_seconds) return false;
  t_tick_ = now;
  return progress_(Progress{round, done, iters, coef, last_h_});
}

bool Optimizer::run_round(long iters, double coef, bool quadratic, int round, long* steps_run) {
  adam_m_.setZero();
  adam_v_.setZero();
  bias_.restart();
  early_.start_round();
  if (checking_) edge_set(edge_prev_);
  *steps_run = iters;
  for (long it = 0; it < iters; ++it) {
    step(coef, quadratic);
    const long done = it + 1;
    if (checking_ && done % opt_.check_every == 0 && done < iters &&
        check(coef, quadratic, round, done, iters)) {
      *steps_run = done;
      break;
    }
    if ((it & 63) == 63 && tick_due(round, done, iters, coef)) {
      *steps_run = done;
      return true;
    }
  }
  return false;
}

void Optimizer::edge_set(std::vector<char>& out) const {
  for (int e = 0; e < m_; ++e)
    out[e] = is_edge(opt_.gate, theta_[e], weight_[e], opt_.threshold, opt_.weight_threshold);
}

bool Optimizer::read_round_edges() {
  round_edges_prev_.swap(round_edges_);
  edge_set(round_edges_);
  adj_.setZero();
  n_edges_ = 0;
  for (int e = 0; e < m_; ++e)
    if (round_edges_[e]) {
      adj_(pb_.from[e], pb_.to[e]) = 1;
      ++n_edges_;
    }
  return is_dag(adj_);
}

RoundRecord Optimizer::round_record(int round, double rho, long skipped_before, long steps,
                                    bool dag, bool changed) const {
  return RoundRecord{round, rho, det_.h, det_.objective, n_edges_, seconds_since(t_start_),
                     res_.skipped - skipped_before, steps, dag, changed};
}

void Optimizer::run_hard() {
  double rho = opt_.rho_init;
  SettleRule settle(opt_.early_stop ? opt_.settle_rounds : 0, opt_.h_settle, opt_.patience);
  for (int round = 1; round <= opt_.max_rounds; ++round) {
    const long skipped_before = res_.skipped;
    long steps = 0;
    const bool stop = run_round(opt_.iter_per_round, rho, true, round, &steps);
    res_.steps += steps;
    if (stop) {
      res_.interrupted = true;
      return;
    }
    kernel_->evaluate(theta_, weight_, nullptr, rho, true, nullptr, nullptr, &det_);
    last_h_ = det_.h;
    const bool dag = read_round_edges();
    const bool changed = round == 1 || round_edges_ != round_edges_prev_;
    res_.trace.push_back(round_record(round, rho, skipped_before, steps, dag, changed));
    if (progress_ && progress_(Progress{round, opt_.iter_per_round, opt_.iter_per_round, rho,
                                        det_.h, det_.objective, n_edges_, true})) {
      res_.interrupted = true;
      return;
    }
    if (det_.h < opt_.h_tol) {
      res_.converged = true;
      return;
    }
    if (settle.settled(dag, changed, det_.h, early_, opt_.iter_per_round)) {
      res_.converged = res_.settled = true;
      return;
    }
    rho *= opt_.rho_mult;
  }
}

void Optimizer::run_soft() {
  long steps = 0;
  const bool stop = run_round(opt_.soft_iter, opt_.lambda2, false, 1, &steps);
  res_.steps = steps;
  if (stop) {
    res_.interrupted = true;
    return;
  }
  kernel_->evaluate(theta_, weight_, nullptr, opt_.lambda2, false, nullptr, nullptr, &det_);
  const bool dag = read_round_edges();
  res_.trace.push_back(
      round_record(1, std::numeric_limits<double>::quiet_NaN(), 0, steps, dag, true));
  res_.converged = true;
}

void Optimizer::run_empty() {
  kernel_->evaluate(nullptr, nullptr, nullptr, 0.0, true, nullptr, nullptr, &det_);
  res_.converged = true;
}

void Optimizer::finish() {
  res_.final_value = det_;
  res_.theta.assign(theta_, theta_ + m_);
  res_.weight.assign(weight_, weight_ + m_);
}

}  // namespace

CalmResult fit_calm(const Eigen::MatrixXd& sigma, const Eigen::MatrixXd& mask,
                    const CalmOptions& opt, const ProgressFn& progress) {
  CalmResult res;
  res.problem = build_problem(mask);
  Optimizer optimizer(sigma, opt, progress, res);
  // mask value 2: a required edge (background knowledge)
  std::vector<int> required;
  for (int e = 0; e < res.problem.m(); ++e)
    if (mask(res.problem.from[e], res.problem.to[e]) > 1.5) required.push_back(e);
  optimizer.hold_open(std::move(required));
  if (res.problem.m() == 0) {
    optimizer.run_empty();
  } else if (opt.hard) {
    optimizer.run_hard();
  } else {
    optimizer.run_soft();
  }
  optimizer.finish();
  return res;
}

}  // namespace calm
