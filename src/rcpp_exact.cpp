// Rcpp glue for the exact search (src/exact_search.h). Arguments are checked
// in R (R/exact.R); exceptions become R errors through Rcpp.
#include <Rcpp.h>
#include <RcppEigen.h>

#include "exact_search.h"

// [[Rcpp::depends(RcppEigen)]]

// The optimal DAG inside the mask `allowed`: list(amat (0/1, i -> j),
// score (the optimum), order (1-based topological order)).
// [[Rcpp::export(rng = false)]]
Rcpp::List cpp_exact_search(const Eigen::Map<Eigen::MatrixXd> cov,
                            const Eigen::Map<Eigen::MatrixXd> allowed, double lambda,
                            double max_bytes,
                            Rcpp::Nullable<Rcpp::NumericMatrix> required = R_NilValue,
                            int max_parents = -1) {
  calm::LocalScore score(cov, lambda, max_parents);
  const calm::IntMatrix mask = (allowed.array() != 0).cast<int>().matrix();
  // with background knowledge (required edges), `allowed` may be asymmetric
  calm::IntMatrix req;
  if (required.isNotNull()) {
    const Rcpp::NumericMatrix rq(required.get());
    req = calm::IntMatrix::Zero(rq.nrow(), rq.ncol());
    for (int j = 0; j < rq.ncol(); ++j)
      for (int i = 0; i < rq.nrow(); ++i) req(i, j) = rq(i, j) != 0;
  }
  const calm::ExactResult r =
      calm::exact_search(score, mask, required.isNotNull() ? &req : nullptr, max_bytes,
                         [] { Rcpp::checkUserInterrupt(); });
  const int d = static_cast<int>(r.dag.rows());
  Rcpp::IntegerMatrix amat(d, d);
  for (int j = 0; j < d; ++j)
    for (int i = 0; i < d; ++i) amat(i, j) = r.dag(i, j);
  Rcpp::IntegerVector order(d);
  for (int k = 0; k < d; ++k) order[k] = r.order[k] + 1;
  return Rcpp::List::create(Rcpp::Named("amat") = amat, Rcpp::Named("score") = r.score,
                            Rcpp::Named("order") = order, Rcpp::Named("bytes") = r.bytes);
}

// Memory (bytes) the exact search needs for the mask `allowed`.
// [[Rcpp::export(rng = false)]]
double cpp_exact_search_bytes(const Eigen::Map<Eigen::MatrixXd> allowed) {
  const calm::IntMatrix mask = (allowed.array() != 0).cast<int>().matrix();
  return calm::exact_search_bytes(mask);
}
