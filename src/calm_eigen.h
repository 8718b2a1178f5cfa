// Eigen for the pure C++ core. Eigen 3.3 passes SSE/AVX vector types that
// carry attributes as template arguments, and GCC (>= 6) warns about each
// such use (-Wignored-attributes): thousands of lines per build, all about
// Eigen's own headers. The warning is switched off for Eigen's headers only,
// by pragma rather than a compiler flag (R CMD check --as-cran rejects
// -Wno-* flags), so calm's own code keeps every warning. The templates'
// later instances are reported at their lines in Eigen's headers, so the
// pragma covers them too.
#ifndef CALM_EIGEN_H
#define CALM_EIGEN_H

#include "eigen_warnings_off.h"
#include <Eigen/Dense>
#include "eigen_warnings_on.h"

#endif  // CALM_EIGEN_H
