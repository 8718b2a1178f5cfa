// Rcpp and RcppEigen for the glue, with Eigen's -Wignored-attributes
// warnings switched off for those headers only (see calm_eigen.h for why).
// Rcpp::compileAttributes() includes this file first in RcppExports.cpp
// (its name is Rcpp's convention), so RcppExports.cpp compiles quietly too.
//
// RcppEigen.h also brings in Eigen's unsupported IterativeSolvers module,
// which calm does not use. One class instance in it warns at a point that
// no pragma reaches (GCC 12), so the module is left out by defining its
// include guard first; were it ever needed, compilation would fail loudly.
#ifndef CALM_TYPES_H
#define CALM_TYPES_H

#include "eigen_warnings_off.h"
#ifndef EIGEN_ITERATIVE_SOLVERS_MODULE_H
#define EIGEN_ITERATIVE_SOLVERS_MODULE_H
#endif
#include <RcppEigen.h>
#include "eigen_warnings_on.h"
#include <Rcpp.h>

#endif  // CALM_TYPES_H
