#ifndef CALM_MOMENTS_H
#define CALM_MOMENTS_H

// Moments of data: the covariance of all rows, and the covariance of the
// training rows of one fold from it. Both write into memory the caller
// owns (an R matrix, through the glue), so that at 10,000 variables each
// costs the one d x d matrix it returns (0.8 GB) and no copy of it.

#include "calm_eigen.h"

#include <vector>

namespace calm {

// Covariance of the columns of the n x d column-major matrix `x`, divided by
// n, written to the d x d column-major `out`; computed in row blocks so no
// centred copy of the data is made. constant[j] is set when column j takes
// a single value. `threads`: the threads that share the products from 1000
// columns up; the result is the same for any number.
void data_covariance(const double* x, long n, long d, std::vector<bool>* constant, double* out,
                     int threads = 1);

// The same, returned as a new matrix.
Eigen::MatrixXd data_covariance(const double* x, long n, long d, std::vector<bool>* constant,
                                int threads = 1);

// The covariance (divided by n - nt) of the rows of a data set of n rows
// that are not among the nt x d rows `held` (column-major), from the
// covariance `cov` (divided by n) and the column means `mu` of all n rows,
// written to `out` (d x d, column-major; may be `cov` itself):
// (n cov - sum over held rows r of (r - mu)(r - mu)') / (n - nt)
// - (mu_train - mu)(mu_train - mu)'.
void training_covariance(const double* cov, const double* mu, long n, const double* held,
                         long nt, long d, double* out);

// What check_covariance() (R/utils-checks.R) asks of a d x d matrix `s`
// with a positive diagonal, on the correlation scale r_ij = s_ij / sd_i /
// sd_j, in one pass and without a d x d copy (at 10,000 variables R's
// checks made five, and took seconds).
struct CovarianceCheck {
  bool finite = true;      // every r_ij is finite
  bool symmetric = true;   // s_ij == s_ji exactly
  double asymmetry = 0.0;  // the largest |r_ij - r_ji|
  long duplicated = 0;     // pairs i < j with |r_ij| > dup_above
};
CovarianceCheck covariance_check(const double* s, const double* sd, long d, double dup_above);

// The correlation matrix of the covariance `s` (d x d, positive diagonal)
// into `out`: (is_i s_ij) is_j with is_i = sqrt(1 / s_ii), and a unit
// diagonal, as stats::cov2cor() computes it.
void covariance_to_correlation(const double* s, long d, double* out);

// Facts about the columns of the n x d column-major data `x` that the
// checks of R/utils-checks.R ask, each column read only until its answer is
// known (most columns: one or two entries); R's own took a d x n logical
// matrix each, a second of a fit at 5000 variables, on one thread.
// empty[j]: every entry of column j is NA or NaN.
std::vector<char> empty_columns(const double* x, long n, long d);
// constant[j]: every entry of column j equals its first (!= as in R, for
// data without NA).
std::vector<char> constant_columns(const double* x, long n, long d);
// Whether any of the `size` values is infinite.
bool any_infinite(const double* x, long size);

}  // namespace calm

#endif
