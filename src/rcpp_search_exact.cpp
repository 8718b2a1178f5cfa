// Rcpp glue for the exact search (src/search_exact.h). Arguments are checked
// in R (R/search-exact.R); exceptions become R errors through Rcpp.
#include "calm_types.h"

#include "search_exact.h"
#include "rcpp_glue.h"
#include "rcpp_interrupt.h"

// [[Rcpp::depends(RcppEigen)]]

// The optimal DAG inside the mask `allowed`: list(amat (0/1, i -> j),
// score (the optimum), order (1-based topological order)).
// [[Rcpp::export(rng = false)]]
Rcpp::List cpp_exact_search(const Rcpp::NumericMatrix cov,
                            const Eigen::Map<Eigen::MatrixXd> allowed, double lambda,
                            double max_bytes,
                            Rcpp::Nullable<Rcpp::NumericMatrix> required = R_NilValue,
                            int max_parents = -1) {
  calm::LocalScore score = calm_glue::local_score(cov, lambda, max_parents);
  const calm::IntMatrix mask = calm_glue::nonzero(allowed);
  // with background knowledge (required edges), `allowed` may be asymmetric
  calm::IntMatrix req;
  if (required.isNotNull()) req = calm_glue::nonzero(Rcpp::NumericMatrix(required.get()));
  const calm::ExactResult r =
      calm::exact_search(score, mask, required.isNotNull() ? &req : nullptr, max_bytes,
                         calm_glue::interrupt_check);
  const int d = static_cast<int>(r.dag.rows());
  Rcpp::IntegerMatrix amat(d, d);
  for (int j = 0; j < d; ++j)
    for (int i = 0; i < d; ++i) amat(i, j) = r.dag(i, j);
  return Rcpp::List::create(Rcpp::Named("amat") = amat, Rcpp::Named("score") = r.score,
                            Rcpp::Named("order") = calm_glue::one_based(r.order), Rcpp::Named("bytes") = r.bytes);
}

// Memory (bytes) the exact search needs for the mask `allowed`.
// [[Rcpp::export(rng = false)]]
double cpp_exact_search_bytes(const Eigen::Map<Eigen::MatrixXd> allowed) {
  const calm::IntMatrix mask = calm_glue::nonzero(allowed);
  return calm::exact_search_bytes(mask);
}
