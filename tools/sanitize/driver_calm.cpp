// Sanitizer driver for the CALM core (src/calm_*.{h,cpp}, src/rng.h): the
// block-wise kernel in both builds (baseline and AVX2 when the CPU has it)
// against the dense reference score and finite differences, for every gate,
// score and acyclicity function; short optimizer runs (a few hundred steps)
// for every variant on moral, full, empty and random masks; and edge cases:
// d = 2, no free entry, nearly singular covariances, extreme temperatures
// and learning rates (steps with a non-finite objective must be skipped,
// never crash), and interrupts. Built and run by tools/sanitize/run.sh.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <random>
#include <stdexcept>
#include <vector>

#include "calm_gates.h"
#include "calm_kernel.h"
#include "calm_optimizer.h"
#include "calm_score.h"
#include "graph_core.h"
#include "rng.h"
#include "calm_options.h"
#include "sanitize_check.h"
#include "sanitize_util.h"

namespace {

const calm::Gate kGates[] = {calm::Gate::gumbel, calm::Gate::stg, calm::Gate::tanh};
const calm::Score kScores[] = {calm::Score::likelihood, calm::Score::colide};
const calm::Acyclicity kAcyc[] = {calm::Acyclicity::poly, calm::Acyclicity::exp};

// A symmetric 0/1 mask with zero diagonal.
Eigen::MatrixXd random_mask(int d, double p, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(0.0, 1.0);
  Eigen::MatrixXd m = Eigen::MatrixXd::Zero(d, d);
  for (int i = 0; i < d; ++i)
    for (int j = i + 1; j < d; ++j)
      if (u(rng) < p) m(i, j) = m(j, i) = 1.0;
  return m;
}

Eigen::MatrixXd full_mask(int d) {
  Eigen::MatrixXd m = Eigen::MatrixXd::Ones(d, d);
  m.diagonal().setZero();
  return m;
}

double rel_diff(double a, double b) {
  if (a == b) return 0.0;
  return std::abs(a - b) / std::max({1.0, std::abs(a), std::abs(b)});
}

// Kernel on one problem: both builds agree, gradients are finite and match
// central differences at the deterministic gate, and the score matches the
// dense reference.
void kernel_checks(const Eigen::MatrixXd& sigma, const Eigen::MatrixXd& mask, calm::Gate gate,
                   calm::Score score, calm::Acyclicity acyc, std::mt19937_64& rng) {
  const calm::CalmOptions opt = make_options(gate, score, acyc);
  const calm::Problem pb = calm::build_problem(mask);
  const int m = pb.m();
  CHECK(m == static_cast<int>((mask.array() != 0).count()));
  if (m == 0) return;
  const calm::KernelSetup ks = calm::kernel_setup(pb, sigma, opt);
  std::unique_ptr<calm::KernelBase> base = calm::make_kernel(ks, false);
  std::unique_ptr<calm::KernelBase> fast = calm::make_kernel(ks, true);
  CHECK(std::string(base->isa()) == "generic");

  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<double> theta(m), weight(m), noise(m), gt(m), gw(m), gt2(m), gw2(m);
  for (int e = 0; e < m; ++e) {
    // away from the kinks: stg clamps at 0 and 1, tanh has |B|
    theta[e] = gate == calm::Gate::stg ? 0.15 + 0.7 * u(rng) : -2.0 + 4.0 * u(rng);
    const double mag = 0.05 + 0.3 * u(rng);
    weight[e] = u(rng) < 0.5 ? -mag : mag;
  }
  calm::Rng crng(rng());
  calm::draw_gate_noise(opt.gate, crng, noise.data(), m);
  for (int e = 0; e < m; ++e) CHECK(std::isfinite(noise[e]));
  const bool stochastic = gate != calm::Gate::tanh;

  for (bool quadratic : {true, false}) {
    const double coef = quadratic ? 3.0 : 0.1;
    calm::KernelValue v1{}, v2{};
    base->evaluate(theta.data(), weight.data(), stochastic ? noise.data() : nullptr, coef,
                   quadratic, gt.data(), gw.data(), &v1);
    fast->evaluate(theta.data(), weight.data(), stochastic ? noise.data() : nullptr, coef,
                   quadratic, gt2.data(), gw2.data(), &v2);
    CHECK(std::isfinite(v1.objective) && std::isfinite(v1.h) && v1.h >= -1e-12);
    CHECK(rel_diff(v1.objective, v2.objective) < 1e-9);
    for (int e = 0; e < m; ++e) {
      CHECK(std::isfinite(gt[e]) && std::isfinite(gw[e]));
      CHECK(rel_diff(gt[e], gt2[e]) < 1e-7 && rel_diff(gw[e], gw2[e]) < 1e-7);
    }

    // central differences at the deterministic gate, on a few entries
    calm::KernelValue v0{};
    base->evaluate(theta.data(), weight.data(), nullptr, coef, quadratic, gt.data(), gw.data(),
                   &v0);
    for (int k = 0; k < std::min(m, 4); ++k) {
      const int e = static_cast<int>(rng() % m);
      const double step = 1e-6;
      for (int which = 0; which < 2; ++which) {
        if (which == 0 && !stochastic) continue;  // tanh has no gate parameter
        std::vector<double>& x = which == 0 ? theta : weight;
        const double keep = x[e];
        calm::KernelValue vp{}, vm{};
        x[e] = keep + step;
        base->evaluate(theta.data(), weight.data(), nullptr, coef, quadratic, nullptr, nullptr,
                       &vp);
        x[e] = keep - step;
        base->evaluate(theta.data(), weight.data(), nullptr, coef, quadratic, nullptr, nullptr,
                       &vm);
        x[e] = keep;
        const double fd = (vp.objective - vm.objective) / (2 * step);
        const double an = which == 0 ? gt[e] : gw[e];
        // truncation error, plus the rounding error of the difference of two
        // large objectives (h of a dense 20-node A is large)
        const double rounding = 8 * 2.2e-16 * std::max(std::abs(vp.objective),
                                                      std::abs(vm.objective)) / step;
        const bool good = std::abs(fd - an) <= 1e-4 * std::max(1.0, std::abs(an)) + rounding;
        CHECK(good);
        if (!good)
          std::fprintf(stderr,
                       "  gate %d score %d acyc %d quad %d entry %d %s: fd %g analytic %g (f %g)\n",
                       static_cast<int>(gate), static_cast<int>(score), static_cast<int>(acyc),
                       quadratic, e, which == 0 ? "theta" : "weight", fd, an, vp.objective);
      }
    }

    // The kernel's score equals the dense score of the deterministic B.
    Eigen::MatrixXd B = Eigen::MatrixXd::Zero(sigma.rows(), sigma.cols());
    for (int e = 0; e < m; ++e)
      B(pb.from[e], pb.to[e]) = calm::deterministic_weight(opt.gate, theta[e], weight[e]);
    const double dense = calm::score_value(score, sigma, B, nullptr);
    CHECK(rel_diff(dense, v0.score) < 1e-8);
  }
}

// Edges of a result, repaired to a DAG as calm() does in R.
calm::IntMatrix result_graph(const calm::CalmResult& res, const calm::CalmOptions& opt) {
  const calm::Problem& pb = res.problem;
  Eigen::MatrixXd w = Eigen::MatrixXd::Zero(pb.d, pb.d);
  for (int e = 0; e < pb.m(); ++e) {
    if (!calm::is_edge(opt.gate, res.theta[e], res.weight[e], opt.threshold,
                       opt.weight_threshold))
      continue;
    const double b = calm::deterministic_weight(opt.gate, res.theta[e], res.weight[e]);
    w(pb.from[e], pb.to[e]) = b != 0.0 ? b : std::numeric_limits<double>::min();
  }
  calm::make_acyclic(w);
  return (w.array() != 0.0).cast<calm::GraphEntry>();
}

void check_result(const calm::CalmResult& res, const calm::CalmOptions& opt, int d) {
  const int m = res.problem.m();
  CHECK(static_cast<int>(res.theta.size()) == m && static_cast<int>(res.weight.size()) == m);
  long skipped_sum = 0;
  for (const calm::RoundRecord& r : res.trace) {
    CHECK(std::isfinite(r.h) || res.skipped > 0);
    CHECK(r.edges >= 0 && r.edges <= m);
    skipped_sum += r.skipped;
  }
  long steps_sum = 0;
  for (const calm::RoundRecord& r : res.trace) {
    const long full = opt.hard ? opt.iter_per_round : opt.soft_iter;
    CHECK(r.steps >= 1 && r.steps <= full);
    // only a round of the hard constraint with early stopping ends early,
    // and then at a check
    if (!(opt.hard && opt.early_stop)) CHECK(r.steps == full);
    if (r.steps < full) CHECK(r.steps % opt.check_every == 0);
    steps_sum += r.steps;
  }
  CHECK(steps_sum == res.steps);
  if (opt.record_checks && opt.check_every > 0) {
    for (const calm::CheckRecord& c : res.checks)
      CHECK(c.round >= 1 && c.iter % opt.check_every == 0 && c.edges >= 0 && c.edges <= m);
  } else {
    CHECK(res.checks.empty());
  }
  if (opt.hard) {
    CHECK(static_cast<int>(res.trace.size()) <= opt.max_rounds);
    CHECK(skipped_sum == res.skipped);
  }
  // A settled schedule: the last round's edge set is acyclic and the same
  // as at the end of the settle_rounds rounds before.
  if (res.settled) {
    CHECK(opt.hard && opt.early_stop && opt.settle_rounds > 0 && res.converged);
    const int r = static_cast<int>(res.trace.size());
    CHECK(r > opt.settle_rounds && res.trace.back().dag && res.trace.back().h < opt.h_settle);
    for (int i = r - opt.settle_rounds; i < r; ++i) CHECK(!res.trace[i].edges_changed);
  }
  for (std::size_t i = 0; i < res.trace.size(); ++i) {
    if (i == 0) CHECK(res.trace[i].edges_changed);
    if (i > 0 && res.trace[i].edges != res.trace[i - 1].edges)
      CHECK(res.trace[i].edges_changed);
  }
  if (res.skipped == 0) {
    for (int e = 0; e < m; ++e) CHECK(std::isfinite(res.theta[e]) && std::isfinite(res.weight[e]));
  }
  calm::IntMatrix g = result_graph(res, opt);
  CHECK(g.rows() == d && calm::is_dag(g));
  CHECK(res.isa == "generic" || res.isa == "avx2");
}

// Short fits of every variant on one problem.
void fit_checks(const Eigen::MatrixXd& sigma, const Eigen::MatrixXd& mask, std::mt19937_64& rng,
                long iters) {
  const int d = static_cast<int>(sigma.rows());
  for (calm::Gate gate : kGates)
    for (calm::Score score : kScores)
      for (bool hard : {true, false}) {
        calm::CalmOptions opt = make_options(gate, score,
                                             (rng() & 1) ? calm::Acyclicity::exp
                                                         : calm::Acyclicity::poly);
        opt.hard = hard;
        opt.iter_per_round = iters;
        opt.max_rounds = 3;
        opt.rho_mult = 10.0;
        opt.soft_iter = iters;
        opt.lr = 1e-2;
        opt.simd = (rng() & 1) != 0;
        opt.seed = rng();
        // early stopping with checks short enough to end rounds here
        opt.early_stop = (rng() & 1) != 0;
        opt.record_checks = (rng() & 1) != 0;
        opt.check_every = std::max(1L, iters / 20);
        opt.patience = 1 + static_cast<int>(rng() % 4);
        opt.stop_tol = (rng() & 1) ? 1e-4 : 1.0;
        // settling, with a threshold loose enough to end a schedule here
        opt.settle_rounds = static_cast<int>(rng() % 3);
        opt.h_settle = (rng() & 1) ? 1e-6 : 1e3;
        calm::CalmResult res = calm::fit_calm(sigma, mask, opt, calm::ProgressFn());
        CHECK(!res.interrupted);
        check_result(res, opt, d);
        // Same seed, same result.
        calm::CalmResult again = calm::fit_calm(sigma, mask, opt, calm::ProgressFn());
        CHECK(again.theta == res.theta && again.weight == res.weight);
      }
}

void edge_cases(std::mt19937_64& rng) {
  // d = 2, full mask; and no free entry at all.
  Eigen::MatrixXd s2(2, 2);
  s2 << 1.0, 0.6, 0.6, 1.0;
  fit_checks(s2, full_mask(2), rng, 200);
  for (calm::Gate gate : kGates) {
    calm::CalmOptions opt = make_options(gate, calm::Score::likelihood, calm::Acyclicity::poly);
    calm::CalmResult res = calm::fit_calm(s2, Eigen::MatrixXd::Zero(2, 2), opt, calm::ProgressFn());
    CHECK(res.converged && res.problem.m() == 0 && res.trace.empty());
    CHECK(std::isfinite(res.final_value.objective));
  }

  // Background knowledge: a required entry (mask value 2) is held open, an
  // edge of the result whatever the data; the tanh gate refuses it.
  {
    Eigen::MatrixXd c5 = to_correlation(random_covariance(5, 7, 0.1, rng));
    Eigen::MatrixXd mask = full_mask(5);
    mask(0, 4) = 2.0;
    mask(4, 0) = 0.0;
    for (calm::Gate gate : kGates) {
      calm::CalmOptions opt = make_options(gate, calm::Score::likelihood, calm::Acyclicity::poly);
      opt.iter_per_round = 300;
      opt.max_rounds = 3;
      if (gate == calm::Gate::tanh) {
        bool threw = false;
        try {
          calm::fit_calm(c5, mask, opt, calm::ProgressFn());
        } catch (const std::invalid_argument&) {
          threw = true;
        }
        CHECK(threw);
        continue;
      }
      calm::CalmResult res = calm::fit_calm(c5, mask, opt, calm::ProgressFn());
      const calm::Problem& pb = res.problem;
      for (int e = 0; e < pb.m(); ++e)
        if (pb.from[e] == 0 && pb.to[e] == 4) {
          CHECK(calm::deterministic_gate(opt.gate, res.theta[e], res.weight[e]) == 1.0);
          CHECK(calm::is_edge(opt.gate, res.theta[e], res.weight[e], opt.threshold,
                              opt.weight_threshold));
        }
    }
  }

  // Nearly singular covariance: a variable that almost duplicates another.
  Eigen::MatrixXd s = random_covariance(6, 8, 1e-3, rng);
  s.row(5) = s.row(0);
  s.col(5) = s.col(0);
  s(5, 5) = s(0, 0) * (1.0 + 1e-10);
  fit_checks(to_correlation(s), full_mask(6), rng, 150);

  // Extreme settings: the optimizer may skip steps, never crash or leave
  // non-finite numbers unreported.
  Eigen::MatrixXd c = to_correlation(random_covariance(5, 7, 0.1, rng));
  struct Extreme { double tau, lr, init_scale, stg_init, tanh_c, rho_init; };
  const Extreme extremes[] = {{1e-300, 1e-3, 1e-3, 0.5, 15, 1e-5},
                              {1e300, 1e-3, 1e-3, 0.5, 15, 1e-5},
                              {0.5, 1e10, 1e-3, 0.5, 15, 1e-5},
                              {0.5, 1e-3, 1e10, 0.5, 15, 1e-5},
                              {0.5, 1e-3, 0.0, 1e300, 1e300, 1e300}};
  for (const Extreme& x : extremes)
    for (calm::Gate gate : kGates) {
      calm::CalmOptions opt = make_options(gate, calm::Score::likelihood, calm::Acyclicity::poly);
      opt.gate.tau = x.tau;
      opt.gate.stg_init = x.stg_init;
      opt.gate.tanh_c = x.tanh_c;
      opt.lr = x.lr;
      opt.init_scale = x.init_scale;
      opt.rho_init = x.rho_init;
      opt.iter_per_round = 100;
      opt.max_rounds = 2;
      calm::CalmResult res = calm::fit_calm(c, full_mask(5), opt, calm::ProgressFn());
      CHECK(static_cast<int>(res.theta.size()) == res.problem.m());
      calm::IntMatrix g = result_graph(res, opt);
      CHECK(calm::is_dag(g));
    }

  // Interrupts: at the first tick, and at the end of the first round.
  calm::CalmOptions opt = make_options(calm::Gate::gumbel, calm::Score::likelihood,
                                       calm::Acyclicity::poly);
  opt.iter_per_round = 1000;
  opt.tick_seconds = 0.0;
  int ticks = 0;
  calm::CalmResult stopped = calm::fit_calm(c, full_mask(5), opt, [&ticks](const calm::Progress& p) {
    CHECK(p.iter >= 1 && p.iter <= p.iter_total);
    return ++ticks >= 2;
  });
  CHECK(stopped.interrupted && !stopped.converged && ticks == 2);
  opt.tick_seconds = 1e9;
  stopped = calm::fit_calm(c, full_mask(5), opt, [](const calm::Progress& p) {
    return p.iter == p.iter_total;
  });
  CHECK(stopped.interrupted && stopped.trace.size() == 1u);
}

}  // namespace

int main() {
  std::mt19937_64 rng(424242);
  std::printf("AVX2 kernel %s\n", calm::simd_available() ? "available: both builds checked"
                                                           : "not available: baseline only");
  int problems = 0;
  for (int d : {2, 3, 5, 8, 12, 20}) {
    for (int kind = 0; kind < 4; ++kind) {
      calm::IntMatrix a = random_dag_matrix(d, std::min(1.0, 3.0 / d), rng);
      Eigen::MatrixXd sigma = population_cov(random_weights(a, rng), noise_variances(d, 16.0, rng));
      Eigen::MatrixXd mask;
      switch (kind) {
        case 0: mask = calm::moral_graph(a).cast<double>(); break;
        case 1: mask = full_mask(d); break;
        case 2: mask = random_mask(d, 0.3, rng); break;
        default: mask = Eigen::MatrixXd::Zero(d, d); break;
      }
      // standardized, and raw on a large scale
      const Eigen::MatrixXd cov = kind == 2 ? Eigen::MatrixXd(sigma * 1e8) : to_correlation(sigma);
      for (calm::Gate gate : kGates)
        for (calm::Score score : kScores)
          for (calm::Acyclicity acyc : kAcyc) kernel_checks(cov, mask, gate, score, acyc, rng);
      if (d <= 12) fit_checks(cov, mask, rng, d <= 5 ? 300 : 100);
      ++problems;
    }
  }
  edge_cases(rng);
  std::printf("%d problems\n", problems);
  return report("driver_calm");
}
