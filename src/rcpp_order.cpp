// Rcpp glue for the order search (src/order_search.h). Arguments are checked
// in R (R/refine.R); exceptions become R errors through Rcpp.
#include "order_search.h"
#include "rcpp_glue.h"

// [[Rcpp::depends(RcppEigen)]]

// [[Rcpp::export(rng = false)]]
Rcpp::List cpp_order_local_search(const Eigen::Map<Eigen::MatrixXd> cov, const Eigen::Map<Eigen::MatrixXd> allowed,
                            double lambda, Rcpp::IntegerVector order, int max_sweeps, int exact_limit,
                            double grow_ratio) {
  calm::LocalScore score(cov, lambda);
  const std::vector<int> ord = calm_glue::zero_based(order);
  const calm::IntMatrix mask = calm_glue::nonzero(allowed);
  calm::OrderSearchResult r = calm::order_search(score, mask, ord, max_sweeps, calm::kScoreTol, exact_limit,
                                                 grow_ratio, [] { Rcpp::checkUserInterrupt(); });
  return Rcpp::List::create(Rcpp::Named("dag") = calm_glue::as_double(r.dag),
                            Rcpp::Named("score_start") = r.score_start, Rcpp::Named("score") = r.score,
                            Rcpp::Named("order") = calm_glue::one_based(r.order), Rcpp::Named("moves") = r.moves);
}
