#include "calm_optimizer.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>

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
  return ks;
}

CalmResult fit_calm(const Eigen::MatrixXd& sigma, const Eigen::MatrixXd& mask,
                    const CalmOptions& opt, const TickFn& tick) {
  CalmResult res;
  res.problem = build_problem(mask);
  const Problem& pb = res.problem;
  const int m = pb.m();
  const KernelSetup ks = kernel_setup(pb, sigma, opt);
  std::unique_ptr<KernelBase> kernel = make_kernel(ks, opt.simd);
  res.isa = kernel->isa();

  Rng rng(opt.seed);
  const bool has_theta = gate_has_theta(opt.gate);
  // One parameter vector [theta; weight] so that a single vectorised Adam
  // call updates both (theta is left out for tanh, which has none).
  Eigen::VectorXd par(2 * m), grad = Eigen::VectorXd::Zero(2 * m);
  Eigen::VectorXd adam_m(2 * m), adam_v(2 * m), noise(m);
  double* theta = par.data();
  double* weight = par.data() + m;
  init_gate_theta(opt.gate, theta, m);
  for (int e = 0; e < m; ++e) weight[e] = rng.uniform(-opt.init_scale, opt.init_scale);
  // Required edges (background knowledge) have mask value 2: their gate is
  // held open (always in the graph) and its parameter is never updated, so
  // the sparsity penalty does not act on them (its term is a constant).
  std::vector<int> held_open;
  for (int e = 0; e < m; ++e)
    if (mask(pb.from[e], pb.to[e]) > 1.5) held_open.push_back(e);
  if (!held_open.empty()) {
    if (!has_theta) throw std::invalid_argument("required edges need a gate (gumbel or stg)");
    const double on = gate_theta_always_on(opt.gate);
    for (int e : held_open) theta[e] = on;
  }
  const int adam_off = has_theta ? 0 : m;
  const int adam_n = has_theta ? 2 * m : m;
  const double beta1 = 0.9, beta2 = 0.999, adam_eps = 1e-8;

  const Clock::time_point t_start = Clock::now();
  Clock::time_point t_tick = t_start;
  double last_h = std::numeric_limits<double>::quiet_NaN();
  const bool stochastic = opt.gate.type != Gate::tanh;

  // Round-end checks: the objective at the deterministic gate and the edge
  // set, every check_every steps (see CalmOptions).
  std::vector<char> edge_now(m), edge_prev(m);
  std::vector<double> check_obj, check_logh;
  // margins at the last patience + 1 checks (a ring), for the drift test
  const int ring = opt.early_stop ? opt.patience + 1 : 0;
  std::vector<std::vector<double>> margins(ring, std::vector<double>(m));
  auto save_margins = [&](int k) {
    std::vector<double>& out = margins[k % ring];
    for (int e = 0; e < m; ++e)
      out[e] = edge_margin(opt.gate, theta[e], weight[e], opt.threshold, opt.weight_threshold);
  };
  // Would an entry cross the threshold before the round ends, drifting on as
  // it did over the last `patience` checks (k: current check index)?
  auto crossing_ahead = [&](int k, long remaining) {
    const std::vector<double>& now = margins[k % ring];
    const std::vector<double>& then = margins[(k - opt.patience) % ring];
    const double per_step = 1.0 / (static_cast<double>(opt.patience) * opt.check_every);
    for (int e = 0; e < m; ++e) {
      const double drift = (now[e] - then[e]) * per_step * static_cast<double>(remaining);
      if ((now[e] > 0.0) != (now[e] + drift > 0.0)) return true;
    }
    return false;
  };
  auto edge_set = [&](std::vector<char>& out) {
    for (int e = 0; e < m; ++e)
      out[e] = is_edge(opt.gate, theta[e], weight[e], opt.threshold, opt.weight_threshold);
  };
  const bool checking = opt.check_every > 0 && (opt.early_stop || opt.record_checks);

  // One subproblem: at most `iters` Adam steps at penalty coefficient `coef`,
  // Adam restarted. Returns true when the tick callback asked to stop; the
  // steps run are left in *steps_run.
  auto run = [&](long iters, double coef, bool quadratic, int round, long* steps_run) -> bool {
    adam_m.setZero();
    adam_v.setZero();
    double b1t = 1.0, b2t = 1.0;
    KernelValue val;
    check_obj.clear();
    check_logh.clear();
    int last_change = 0;  // index of the last check whose edge set changed
    if (checking) edge_set(edge_prev);
    *steps_run = iters;
    // The early-stopping rule at check k (1-based) with `remaining` steps
    // left in the round: the edge set has not changed over the last
    // `patience` checks, and no entry is projected to cross its threshold by
    // the end of the round; then the round ends if h is already below h_tol
    // (the schedule has converged), or if the objective fell by less than
    // stop_tol over those checks while h, extrapolated log-linearly, would
    // not reach h_tol within the round.
    auto round_done = [&](int k, long remaining) {
      if (k <= opt.patience || k - last_change < opt.patience) return false;
      const double obj = check_obj[k - 1];
      if (!std::isfinite(obj) || crossing_ahead(k, remaining)) return false;
      const double log_tol = std::log(opt.h_tol);
      const double logh = check_logh[k - 1];
      if (logh < log_tol) return true;
      if (check_obj[k - 1 - opt.patience] - obj >= opt.stop_tol) return false;
      const double slope = (logh - check_logh[k - 1 - opt.patience]) /
                           (static_cast<double>(opt.patience) * opt.check_every);
      return !(logh + slope * static_cast<double>(remaining) < log_tol);
    };
    for (long it = 0; it < iters; ++it) {
      if (stochastic) draw_gate_noise(opt.gate, rng, noise.data(), m);
      kernel->evaluate(theta, weight, stochastic ? noise.data() : nullptr, coef, quadratic,
                       grad.data(), grad.data() + m, &val);
      for (int e : held_open) grad[e] = 0.0;
      if (!std::isfinite(val.objective) || !std::isfinite(grad.sum())) {
        ++res.skipped;
      } else {
        b1t *= beta1;
        b2t *= beta2;
        kernel->adam(par.data() + adam_off, adam_m.data() + adam_off, adam_v.data() + adam_off,
                     grad.data() + adam_off, adam_n, beta1, beta2, opt.lr / (1.0 - b1t),
                     1.0 - b2t, adam_eps);
      }
      if (checking && (it + 1) % opt.check_every == 0 && it + 1 < iters) {
        KernelValue dv;
        kernel->evaluate(theta, weight, nullptr, coef, quadratic, nullptr, nullptr, &dv);
        edge_set(edge_now);
        const bool changed = edge_now != edge_prev;
        edge_prev.swap(edge_now);
        check_obj.push_back(dv.objective);
        check_logh.push_back(dv.h > 0.0 ? std::log(dv.h) : -HUGE_VAL);
        const int k = static_cast<int>(check_obj.size());
        if (changed) last_change = k;
        if (ring > 0) save_margins(k);
        if (opt.record_checks) {
          int edges = 0;
          for (char c : edge_prev) edges += c;
          res.checks.push_back(CheckRecord{round, it + 1, dv.objective, dv.h, edges, changed});
        }
        if (opt.early_stop && quadratic && round_done(k, iters - (it + 1))) {
          *steps_run = it + 1;
          break;
        }
      }
      if ((it & 63) == 63 && tick) {
        const Clock::time_point now = Clock::now();
        if (std::chrono::duration<double>(now - t_tick).count() >= opt.tick_seconds) {
          t_tick = now;
          if (tick(Progress{round, it + 1, iters, coef, last_h})) {
            *steps_run = it + 1;
            return true;
          }
        }
      }
    }
    return false;
  };

  // The edge set at the end of a round (the previous round's is kept), its
  // size, and whether it is acyclic.
  std::vector<char> round_edges(m, 0), round_edges_prev(m, 0);
  IntMatrix adj = IntMatrix::Zero(pb.d, pb.d);
  int n_edges = 0;
  auto read_round_edges = [&]() {
    round_edges_prev.swap(round_edges);
    edge_set(round_edges);
    adj.setZero();
    n_edges = 0;
    for (int e = 0; e < m; ++e)
      if (round_edges[e]) {
        adj(pb.from[e], pb.to[e]) = 1;
        ++n_edges;
      }
    return is_dag(adj);
  };

  KernelValue det{};
  if (m == 0) {
    // Nothing to learn: the empty graph.
    kernel->evaluate(nullptr, nullptr, nullptr, 0.0, true, nullptr, nullptr, &det);
    res.converged = true;
  } else if (opt.hard) {
    double rho = opt.rho_init;
    const bool settling = opt.early_stop && opt.settle_rounds > 0;
    int unchanged = 0;  // rounds in a row that ended with the same edge set
    for (int round = 1; round <= opt.max_rounds; ++round) {
      const long skipped_before = res.skipped;
      long steps = 0;
      const bool stop = run(opt.iter_per_round, rho, true, round, &steps);
      res.steps += steps;
      if (stop) {
        res.interrupted = true;
        break;
      }
      kernel->evaluate(theta, weight, nullptr, rho, true, nullptr, nullptr, &det);
      last_h = det.h;
      const bool dag = read_round_edges();
      const bool changed = round == 1 || round_edges != round_edges_prev;
      res.trace.push_back(RoundRecord{round, rho, det.h, det.objective, n_edges,
                                      seconds_since(t_start), res.skipped - skipped_before,
                                      steps, dag, changed});
      if (tick && tick(Progress{round, opt.iter_per_round, opt.iter_per_round, rho, det.h})) {
        res.interrupted = true;
        break;
      }
      if (det.h < opt.h_tol) {
        res.converged = true;
        break;
      }
      unchanged = changed ? 0 : unchanged + 1;
      const int k = static_cast<int>(check_obj.size());
      if (settling && dag && unchanged >= opt.settle_rounds && det.h < opt.h_settle &&
          k > opt.patience && !crossing_ahead(k, opt.iter_per_round)) {
        res.converged = res.settled = true;
        break;
      }
      rho *= opt.rho_mult;
    }
  } else {
    long steps = 0;
    const bool stop = run(opt.soft_iter, opt.lambda2, false, 1, &steps);
    res.steps = steps;
    if (stop) {
      res.interrupted = true;
    } else {
      kernel->evaluate(theta, weight, nullptr, opt.lambda2, false, nullptr,
                       nullptr, &det);
      const bool dag = read_round_edges();
      res.trace.push_back(RoundRecord{1, std::numeric_limits<double>::quiet_NaN(), det.h,
                                      det.objective, n_edges, seconds_since(t_start),
                                      res.skipped, steps, dag, true});
      res.converged = true;
    }
  }
  res.final_value = det;
  res.theta.assign(theta, theta + m);
  res.weight.assign(weight, weight + m);
  return res;
}

}  // namespace calm
