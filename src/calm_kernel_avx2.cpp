// AVX2 + FMA build of the step kernel, chosen at run time by make_kernel()
// when the CPU supports it (about 2.3 times faster matrix products than the
// baseline SSE2 build on x86-64).
//
// How it stays safe on CPUs without AVX2: the instruction set is switched on
// for this file only, after every standard header has been included (so no
// shared inline std code is compiled for AVX2), and Eigen is included under
// the name calm_eigen_avx2, so that none of its template instances can be
// merged by the linker with the baseline ones. Nothing outside namespace
// calm::avx2 is defined after the switch. GCC does not define the __AVX__
// family of macros for a target pragma, so they are set here for Eigen.
#include <algorithm>
#include <cassert>
#include <cfloat>
#include <climits>
#include <cmath>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <iosfwd>
#include <iostream>
#include <limits>
#include <memory>
#include <new>
#include <sstream>
#include <string>
#include <vector>

#include "calm_kernel.h"

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && !defined(_WIN32) && \
    !defined(CALM_NO_AVX2)

#pragma GCC push_options
#pragma GCC target("avx2,fma")
#ifndef __AVX__
#define __AVX__ 1
#endif
#ifndef __AVX2__
#define __AVX2__ 1
#endif
#ifndef __FMA__
#define __FMA__ 1
#endif

#define Eigen calm_eigen_avx2
#include "eigen_warnings_off.h"
#include <Eigen/Dense>
#include "eigen_warnings_on.h"

#define CALM_KERNEL_NS avx2
#define CALM_KERNEL_ISA "avx2"
#include "calm_kernel_impl.h"

#pragma GCC pop_options

#else

namespace calm {
namespace avx2 {
KernelBase* make_kernel(const KernelSetup&) { return nullptr; }
}  // namespace avx2
}  // namespace calm

#endif
