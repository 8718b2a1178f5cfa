// Rcpp glue for the scan beyond the refinement's pairs (src/search_scan.h).
// Arguments are checked in R (R/search-scan.R); exceptions become R errors
// through Rcpp.
#include "search_scan.h"
#include "rcpp_glue.h"
#include "rcpp_interrupt.h"

// [[Rcpp::depends(RcppEigen)]]

// The improving insertions as a two-column matrix (from, to), 1-based.
// [[Rcpp::export(rng = false)]]
Rcpp::IntegerMatrix cpp_improving_insertions(const Rcpp::NumericMatrix cov,
                                             const Eigen::Map<Eigen::MatrixXd> dag,
                                             const Eigen::Map<Eigen::MatrixXd> allowed,
                                             double lambda, int max_parents = -1,
                                             int threads = 1) {
  const calm::LocalScore score = calm_glue::local_score(cov, lambda, max_parents);
  const std::vector<std::pair<int, int>> hits =
      calm::improving_insertions(score, dag, allowed, threads, calm_glue::interrupt_check);
  Rcpp::IntegerMatrix out(static_cast<int>(hits.size()), 2);
  for (std::size_t k = 0; k < hits.size(); ++k) {
    out(k, 0) = hits[k].first + 1;
    out(k, 1) = hits[k].second + 1;
  }
  return out;
}
