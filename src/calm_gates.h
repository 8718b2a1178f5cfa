// Gates: how CALM turns its free parameters into the edge mask A (which
// enters the sparsity penalty and the acyclicity function) and the weighted
// adjacency B.
//
//   gumbel  A = sigmoid((U + G) / tau), G ~ Logistic(0, 1); B = A * P;
//           penalty sum(A); deterministic gate sigmoid(U / tau).
//   stg     A = clamp(mu + eps, 0, 1), eps ~ N(0, sigma^2); B = A * P;
//           penalty sum(Phi(mu / sigma)); deterministic gate clamp(mu, 0, 1)
//           (the test-time gate of stochastic gates, eps = 0).
//   tanh    no gate: B = P; the acyclicity function sees B * B;
//           penalty sum(tanh(c |B|)); an edge is |B| > weight threshold.
//
// All quantities live on the free entries only (the off-diagonal entries
// allowed by the moral graph), stored as flat arrays of length m. The
// per-step arithmetic is vectorised inside the kernel (calm_kernel_impl.h);
// this file holds what the optimizer needs around it.
#ifndef CALM_GATES_H
#define CALM_GATES_H

namespace calm {

class Rng;

enum class Gate : int { gumbel = 0, stg = 1, tanh = 2 };

// Plain aggregate (no constructors, no inline code) so that the kernel
// translation units built for other instruction sets can share it.
struct GateParams {
  Gate type;
  double tau;        // gumbel temperature
  double stg_sigma;  // stg noise standard deviation
  double stg_init;   // stg initial mean of the gates
  double tanh_c;     // tanh sharpness
};

// Whether the gate has its own parameter per entry (U or mu); tanh has not.
bool gate_has_theta(const GateParams& g);

// Draw the noise of one step for m entries, in the form the kernel expects:
// gumbel: the factor exp(-G / tau) = ((1 - u) / u)^(1 / tau), u ~ U(0, 1),
// so that the gate is 1 / (1 + exp(-U / tau) * factor) without a logarithm;
// stg: eps ~ N(0, sigma^2); tanh: nothing is drawn.
void draw_gate_noise(const GateParams& g, Rng& rng, double* noise, int m);

// Logistic noise G -> the gumbel factor exp(-G / tau) (used by tests that
// pass G explicitly).
double gumbel_factor_from_logistic(double G, double tau);

// Initial gate parameters: U = 0 (gumbel), mu = stg_init (stg).
void init_gate_theta(const GateParams& g, double* theta, int m);

// A gate parameter at which the gate is exactly 1 in double precision for
// every noise draw the generator can make, with a zero gradient: used to hold
// the gate of a required edge (background knowledge) open. gumbel: the noise
// factor is at most 2^(54 / tau), so U = 40 + 40 tau leaves exp(-U / tau) times
// it below exp(-40); stg: mu = 1 + 50 sigma. Not defined for tanh.
double gate_theta_always_on(const GateParams& g);

// Deterministic gate value of one entry (gumbel, stg) or, for tanh, the
// weight itself.
double deterministic_gate(const GateParams& g, double theta, double weight);

// The entry of the learned weighted adjacency on the support, A * P
// (gumbel, stg) or P (tanh), with the deterministic gate.
double deterministic_weight(const GateParams& g, double theta, double weight);

// Is the entry an edge of the output graph? gumbel, stg: deterministic gate
// > threshold; tanh: |weight| > weight_threshold.
bool is_edge(const GateParams& g, double theta, double weight, double threshold,
             double weight_threshold);

// Signed distance of the entry's parameter from the edge threshold, in the
// parameter's own units (positive: an edge): gumbel U - tau * logit(threshold),
// stg mu - threshold, tanh |P| - weight_threshold. Used to project, from its
// drift, whether an entry will cross the threshold.
double edge_margin(const GateParams& g, double theta, double weight, double threshold,
                   double weight_threshold);

}  // namespace calm

#endif
