// The CALM objective of one optimizer step, with its analytic gradient:
//
//   score(B; Sigma) + lambda1 * penalty(gate) + c(h(A)),
//   c(h) = coef / 2 * h^2 (hard constraint, coef = rho) or coef * h (soft,
//   coef = lambda2),
//
// evaluated on the free entries only. The kernel works block by block on
// the connected components of the moral graph: B and A are block diagonal
// after a permutation, so the score, log|det(I - B)|, (I - B)^{-1} and the
// powers (or exponential) of I + A / d are block diagonal too and are
// computed exactly, per block, at a fraction of the dense cost.
//
// The same source (calm_kernel_impl.h) is compiled twice: for the baseline
// instruction set and, on x86-64 with GCC, for AVX2 + FMA under a renamed
// Eigen namespace; make_kernel() picks the AVX2 build at run time when the
// CPU has it. This header is free of Eigen and of inline code so that both
// builds can include it.
#ifndef CALM_KERNEL_H
#define CALM_KERNEL_H

#include <memory>

#include "calm_gates.h"

namespace calm {

enum class Score : int { likelihood = 0, colide = 1 };
enum class Acyclicity : int { poly = 0, exp = 1 };

// The problem as the kernel sees it. Free entries are numbered 0..m-1 and
// must be grouped by block: block b owns the entries
// [entry_ptr[b], entry_ptr[b + 1]) and the nodes
// block_nodes[node_ptr[b] .. node_ptr[b + 1]). Entry e is the edge
// from[e] -> to[e] (0-based node indices, both in the entry's block).
// Nodes in no block have no free entry; they add a constant to the score.
struct KernelSetup {
  int d;
  int m;
  const int* from;
  const int* to;
  int n_blocks;
  const int* node_ptr;
  const int* block_nodes;
  const int* entry_ptr;
  const double* sigma;  // d x d, column-major
  GateParams gate;
  Score score;
  Acyclicity acyclicity;
  double lambda1;
  int threads = 1;  // threads for the products of large blocks (ThreadTeam)
  bool poly_series = true;  // poly: the power series on sparse blocks (series_block)
};

// The parts of the objective at one point.
struct KernelValue {
  double objective;
  double score;
  double sparsity;    // lambda1 * penalty
  double h;           // acyclicity function of A
  double constraint;  // coef / 2 * h^2 or coef * h
};

class KernelBase {
 public:
  virtual ~KernelBase();
  // theta: gate parameters (U or mu; ignored for tanh), weight: P, both of
  // length m. noise: one step's noise as drawn by draw_gate_noise(), or
  // nullptr for the deterministic gate. quadratic: hard (coef / 2 * h^2) or
  // soft (coef * h). grad_theta / grad_weight: outputs of length m, or
  // nullptr to skip the gradient.
  virtual void evaluate(const double* theta, const double* weight, const double* noise,
                        double coef, bool quadratic, double* grad_theta,
                        double* grad_weight, KernelValue* value) = 0;
  // One Adam update of n parameters (Kingma and Ba, 2015), vectorised like
  // the rest of the kernel: m1 = beta1 m1 + (1 - beta1) g,
  // m2 = beta2 m2 + (1 - beta2) g^2, param -= step * m1 / (sqrt(m2 / c2) + eps)
  // with step = lr / (1 - beta1^t) and c2 = 1 - beta2^t: calm::adam_update()
  // of adam.h, the update GOLEM uses too.
  virtual void adam(double* param, double* m1, double* m2, const double* grad, int n,
                    double beta1, double beta2, double step, double c2, double eps) = 0;
  virtual const char* isa() const = 0;
};

namespace generic {
KernelBase* make_kernel(const KernelSetup& setup);
}
namespace avx2 {
// nullptr when the AVX2 build is not compiled in (other compilers or CPUs).
KernelBase* make_kernel(const KernelSetup& setup);
}

// True when the AVX2 + FMA build is compiled in and the CPU supports it.
bool simd_available();

// The fastest available kernel (simd = true) or the baseline one.
std::unique_ptr<KernelBase> make_kernel(const KernelSetup& setup, bool simd);

}  // namespace calm

#endif
