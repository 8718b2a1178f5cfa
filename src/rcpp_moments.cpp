// Rcpp glue for the data moments in moments.{h,cpp}. Arguments are checked
// in R; the results are written straight into R matrices.
#include "moments.h"

// [[Rcpp::depends(RcppEigen)]]
#include <RcppEigen.h>

#include <vector>

namespace {

// The data matrix `x` as read-only doubles: takes the SEXP and reads it
// through REAL_RO(), since the data may arrive as an ALTREP wrapper
// (storage.mode<- returns one), and asking for a writable pointer, as
// Rcpp's Map does, would copy the whole matrix.
const double* data_pointer(SEXP x, const char* what) {
  if (TYPEOF(x) != REALSXP || !Rf_isMatrix(x)) {
    Rcpp::stop("internal error: %s needs a double matrix", what);
  }
  return REAL_RO(x);
}

}  // namespace

// list(cov = the covariance of the columns of `x` (divided by n),
// constant = whether each column takes a single value), on `threads`
// threads (the same result for any number).
// [[Rcpp::export(rng = false)]]
Rcpp::List cpp_data_covariance(SEXP x, int threads = 1) {
  const double* px = data_pointer(x, "cpp_data_covariance()");
  const long n = Rf_nrows(x), d = Rf_ncols(x);
  std::vector<bool> constant;
  Rcpp::NumericMatrix out(d, d);
  calm::data_covariance(px, n, d, &constant, out.begin(), threads);
  Rcpp::LogicalVector cst(constant.begin(), constant.end());
  return Rcpp::List::create(Rcpp::Named("cov") = out, Rcpp::Named("constant") = cst);
}

// calm::covariance_check() of the square double matrix `s` with standard
// deviations `sd` (sqrt of its positive diagonal), as a list.
// [[Rcpp::export(rng = false)]]
Rcpp::List cpp_covariance_check(SEXP s, Rcpp::NumericVector sd, double dup_above) {
  const double* ps = data_pointer(s, "cpp_covariance_check()");
  const long d = Rf_ncols(s);
  if (Rf_nrows(s) != d || sd.size() != d) {
    Rcpp::stop("internal error: cpp_covariance_check() needs a square matrix and its sds");
  }
  const calm::CovarianceCheck c = calm::covariance_check(ps, sd.begin(), d, dup_above);
  return Rcpp::List::create(Rcpp::Named("finite") = c.finite,
                            Rcpp::Named("symmetric") = c.symmetric,
                            Rcpp::Named("asymmetry") = c.asymmetry,
                            Rcpp::Named("duplicated") = static_cast<double>(c.duplicated));
}

// The correlation matrix of the covariance `s` (square, positive diagonal),
// with its dimnames.
// [[Rcpp::export(rng = false)]]
Rcpp::NumericMatrix cpp_cov2cor(SEXP s) {
  const double* ps = data_pointer(s, "cpp_cov2cor()");
  const long d = Rf_ncols(s);
  if (Rf_nrows(s) != d) Rcpp::stop("internal error: cpp_cov2cor() needs a square matrix");
  Rcpp::NumericMatrix out(d, d);
  calm::covariance_to_correlation(ps, d, out.begin());
  SEXP dn = Rf_getAttrib(s, R_DimNamesSymbol);
  if (!Rf_isNull(dn)) out.attr("dimnames") = dn;
  return out;
}

// The covariance of the training rows of a fold: all `n` rows have
// covariance `cov` (divided by n) and means `mu`; `held` holds the fold's
// held-out rows.
// [[Rcpp::export(rng = false)]]
Rcpp::NumericMatrix cpp_training_covariance(SEXP cov, Rcpp::NumericVector mu, double n, SEXP held) {
  const double* pc = data_pointer(cov, "cpp_training_covariance()");
  const double* ph = data_pointer(held, "cpp_training_covariance()");
  const long d = Rf_ncols(cov), nt = Rf_nrows(held);
  if (Rf_nrows(cov) != d || Rf_ncols(held) != d || mu.size() != d || !(nt < n)) {
    Rcpp::stop("internal error: cpp_training_covariance() was given mismatched moments");
  }
  Rcpp::NumericMatrix out(d, d);
  calm::training_covariance(pc, mu.begin(), static_cast<long>(n), ph, nt, d, out.begin());
  return out;
}

// calm::empty_columns(), calm::constant_columns() and calm::any_infinite()
// of the double matrix `x`, for the checks of R/utils-checks.R.
// [[Rcpp::export(rng = false)]]
Rcpp::LogicalVector cpp_empty_columns(SEXP x) {
  const double* px = data_pointer(x, "cpp_empty_columns()");
  const std::vector<char> e = calm::empty_columns(px, Rf_nrows(x), Rf_ncols(x));
  return Rcpp::LogicalVector(e.begin(), e.end());
}

// [[Rcpp::export(rng = false)]]
Rcpp::LogicalVector cpp_constant_columns(SEXP x) {
  const double* px = data_pointer(x, "cpp_constant_columns()");
  const std::vector<char> c = calm::constant_columns(px, Rf_nrows(x), Rf_ncols(x));
  return Rcpp::LogicalVector(c.begin(), c.end());
}

// [[Rcpp::export(rng = false)]]
bool cpp_any_infinite(SEXP x) {
  if (TYPEOF(x) != REALSXP) Rcpp::stop("internal error: cpp_any_infinite() needs doubles");
  return calm::any_infinite(REAL_RO(x), static_cast<long>(XLENGTH(x)));
}
