#include "calm_gates.h"

#include <algorithm>
#include <cmath>

#include "rng.h"

namespace calm {

bool gate_has_theta(const GateParams& g) { return g.type != Gate::tanh; }

double gumbel_factor_from_logistic(double G, double tau) { return std::exp(-G / tau); }

void draw_gate_noise(const GateParams& g, Rng& rng, double* noise, int m) {
  switch (g.type) {
    case Gate::gumbel: {
      // exp(-G / tau) with G = log(u) - log(1 - u) is ((1 - u) / u)^(1 / tau);
      // for the usual temperatures 1 / tau is a small integer and the power
      // is a few multiplications instead of a log and an exp per entry.
      const double inv_tau = 1.0 / g.tau;
      const double k = std::round(inv_tau);
      if (std::abs(inv_tau - k) < 1e-12 && k >= 1 && k <= 8) {
        const int ik = static_cast<int>(k);
        for (int e = 0; e < m; ++e) {
          const double u = rng.uniform_open();
          const double r = (1.0 - u) / u;
          double f = r;
          for (int i = 1; i < ik; ++i) f *= r;
          noise[e] = f;
        }
      } else {
        for (int e = 0; e < m; ++e) {
          const double u = rng.uniform_open();
          noise[e] = std::pow((1.0 - u) / u, inv_tau);
        }
      }
      break;
    }
    case Gate::stg:
      for (int e = 0; e < m; ++e) noise[e] = g.stg_sigma * rng.normal();
      break;
    case Gate::tanh:
      break;
  }
}

void init_gate_theta(const GateParams& g, double* theta, int m) {
  const double v = g.type == Gate::stg ? g.stg_init : 0.0;
  std::fill(theta, theta + m, v);
}

double deterministic_gate(const GateParams& g, double theta, double weight) {
  switch (g.type) {
    case Gate::gumbel:
      return 1.0 / (1.0 + std::exp(-theta / g.tau));
    case Gate::stg:
      return std::min(1.0, std::max(0.0, theta));
    case Gate::tanh:
      return weight;
  }
  return 0.0;
}

double deterministic_weight(const GateParams& g, double theta, double weight) {
  if (g.type == Gate::tanh) return weight;
  return deterministic_gate(g, theta, weight) * weight;
}

bool is_edge(const GateParams& g, double theta, double weight, double threshold,
             double weight_threshold) {
  if (g.type == Gate::tanh) return std::abs(weight) > weight_threshold;
  return deterministic_gate(g, theta, weight) > threshold;
}

double edge_margin(const GateParams& g, double theta, double weight, double threshold,
                   double weight_threshold) {
  switch (g.type) {
    case Gate::gumbel:
      return theta - g.tau * std::log(threshold / (1.0 - threshold));
    case Gate::stg:
      return theta - threshold;
    case Gate::tanh:
      return std::abs(weight) - weight_threshold;
  }
  return 0.0;
}

double gate_theta_always_on(const GateParams& g) {
  return g.type == Gate::stg ? 1.0 + 50.0 * g.stg_sigma : 40.0 + 40.0 * g.tau;
}

}  // namespace calm
