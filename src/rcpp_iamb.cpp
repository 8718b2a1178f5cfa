// Rcpp glue for the moral graph estimators in iamb.{h,cpp}. Arguments are
// checked in R (R/moral.R); C++ exceptions become R errors through Rcpp.
#include "calm_types.h"

#include <limits>

#include "iamb.h"
#include "rcpp_glue.h"
#include "rcpp_interrupt.h"

// [[Rcpp::depends(RcppEigen)]]

namespace {

calm::CiTest make_test(double n, double alpha, double zero_tol) {
  calm::CiTest test;
  test.n = R_finite(n) ? n : std::numeric_limits<double>::infinity();
  test.alpha = alpha;
  test.zero_tol = zero_tol;
  return test;
}

}  // namespace

// [[Rcpp::export(rng = false)]]
Rcpp::List cpp_iamb(const Eigen::Map<Eigen::MatrixXd> corr, double n, double alpha,
                    double zero_tol, int max_size,
                    Rcpp::Nullable<Rcpp::NumericMatrix> keep = R_NilValue, int first = 1,
                    int last = -1, int threads = 1) {
  calm::IambOptions options;
  options.test = make_test(n, alpha, zero_tol);
  options.max_size = max_size;
  // background knowledge: adjacencies forced into the blankets
  if (keep.isNotNull()) options.keep = calm_glue::nonzero(Rcpp::NumericMatrix(keep.get())).cast<int>();
  const Eigen::Map<Eigen::MatrixXd>& c = corr;
  // first and last (1-based, inclusive; last < 0: the last node): the
  // targets searched
  calm::IambResult res = calm::iamb_all(c, options, calm_glue::user_interrupted, first - 1, last,
                                           threads);
  calm_glue::rethrow_interrupt(res.interrupted);

  const int d = static_cast<int>(c.rows());
  Rcpp::List blankets(d);
  Rcpp::LogicalVector capped(d);
  for (int t = 0; t < d; ++t) {
    blankets[t] = calm_glue::one_based(res.blankets[t]);
    capped[t] = res.capped[t];
  }
  return Rcpp::List::create(Rcpp::Named("blankets") = blankets,
                            Rcpp::Named("n_tests") = static_cast<double>(res.n_tests),
                            Rcpp::Named("capped") = capped);
}

// [[Rcpp::export(rng = false)]]
Rcpp::List cpp_precision_support(const Eigen::Map<Eigen::MatrixXd> corr, double n,
                                 double alpha, double zero_tol) {
  calm::PrecisionResult res = calm::precision_support(corr, make_test(n, alpha, zero_tol));
  return Rcpp::List::create(Rcpp::Named("adjacency") = res.adjacency,
                            Rcpp::Named("partial_cor") = res.partial_cor,
                            Rcpp::Named("n_tests") = static_cast<double>(res.n_tests));
}

