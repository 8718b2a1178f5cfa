// Baseline build of the step kernel, and the run-time choice between it and
// the AVX2 build (calm_kernel_avx2.cpp).
#include <cmath>
#include <limits>
#include <vector>

#include "calm_eigen.h"

#include "calm_kernel.h"

#define CALM_KERNEL_NS generic
#define CALM_KERNEL_ISA "generic"
#include "calm_kernel_impl.h"
#undef CALM_KERNEL_NS
#undef CALM_KERNEL_ISA

namespace calm {

KernelBase::~KernelBase() = default;

bool simd_available() {
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && !defined(_WIN32) && \
    !defined(CALM_NO_AVX2)
  static const bool ok = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  return ok;
#else
  return false;
#endif
}

std::unique_ptr<KernelBase> make_kernel(const KernelSetup& setup, bool simd) {
  if (simd && simd_available()) {
    KernelBase* k = avx2::make_kernel(setup);
    if (k != nullptr) return std::unique_ptr<KernelBase>(k);
  }
  return std::unique_ptr<KernelBase>(generic::make_kernel(setup));
}

}  // namespace calm
