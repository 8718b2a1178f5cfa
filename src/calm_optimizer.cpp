#include "calm_optimizer.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>

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
  const int adam_off = has_theta ? 0 : m;
  const int adam_n = has_theta ? 2 * m : m;
  const double beta1 = 0.9, beta2 = 0.999, adam_eps = 1e-8;

  const Clock::time_point t_start = Clock::now();
  Clock::time_point t_tick = t_start;
  double last_h = std::numeric_limits<double>::quiet_NaN();
  const bool stochastic = opt.gate.type != Gate::tanh;

  // One subproblem: `iters` Adam steps at penalty coefficient `coef`, Adam
  // restarted. Returns true when the tick callback asked to stop.
  auto run = [&](long iters, double coef, bool quadratic, int round) -> bool {
    adam_m.setZero();
    adam_v.setZero();
    double b1t = 1.0, b2t = 1.0;
    KernelValue val;
    for (long it = 0; it < iters; ++it) {
      if (stochastic) draw_gate_noise(opt.gate, rng, noise.data(), m);
      kernel->evaluate(theta, weight, stochastic ? noise.data() : nullptr, coef, quadratic,
                       grad.data(), grad.data() + m, &val);
      if (!std::isfinite(val.objective) || !std::isfinite(grad.sum())) {
        ++res.skipped;
      } else {
        b1t *= beta1;
        b2t *= beta2;
        kernel->adam(par.data() + adam_off, adam_m.data() + adam_off, adam_v.data() + adam_off,
                     grad.data() + adam_off, adam_n, beta1, beta2, opt.lr / (1.0 - b1t),
                     1.0 - b2t, adam_eps);
      }
      if ((it & 63) == 63 && tick) {
        const Clock::time_point now = Clock::now();
        if (std::chrono::duration<double>(now - t_tick).count() >= opt.tick_seconds) {
          t_tick = now;
          if (tick(Progress{round, it + 1, iters, coef, last_h})) return true;
        }
      }
    }
    return false;
  };

  auto count_edges = [&]() {
    int edges = 0;
    for (int e = 0; e < m; ++e)
      edges += is_edge(opt.gate, theta[e], weight[e], opt.threshold, opt.weight_threshold);
    return edges;
  };

  KernelValue det{};
  if (m == 0) {
    // Nothing to learn: the empty graph.
    kernel->evaluate(nullptr, nullptr, nullptr, 0.0, true, nullptr, nullptr, &det);
    res.converged = true;
  } else if (opt.hard) {
    double rho = opt.rho_init;
    for (int round = 1; round <= opt.max_rounds; ++round) {
      const long skipped_before = res.skipped;
      if (run(opt.iter_per_round, rho, true, round)) {
        res.interrupted = true;
        break;
      }
      kernel->evaluate(theta, weight, nullptr, rho, true, nullptr, nullptr, &det);
      last_h = det.h;
      res.trace.push_back(RoundRecord{round, rho, det.h, det.objective, count_edges(),
                                      seconds_since(t_start), res.skipped - skipped_before});
      if (tick && tick(Progress{round, opt.iter_per_round, opt.iter_per_round, rho, det.h})) {
        res.interrupted = true;
        break;
      }
      if (det.h < opt.h_tol) {
        res.converged = true;
        break;
      }
      rho *= opt.rho_mult;
    }
  } else {
    if (run(opt.soft_iter, opt.lambda2, false, 1)) {
      res.interrupted = true;
    } else {
      kernel->evaluate(theta, weight, nullptr, opt.lambda2, false, nullptr,
                       nullptr, &det);
      res.trace.push_back(RoundRecord{1, std::numeric_limits<double>::quiet_NaN(), det.h,
                                      det.objective, count_edges(), seconds_since(t_start),
                                      res.skipped});
      res.converged = true;
    }
  }
  res.final_value = det;
  res.theta.assign(theta, theta + m);
  res.weight.assign(weight, weight + m);
  return res;
}

}  // namespace calm
