// Rcpp glue for the order search (src/order_search.h). Arguments are checked
// in R (R/refine.R); exceptions become R errors through Rcpp.
#include <Rcpp.h>
#include <RcppEigen.h>

#include "order_search.h"

// [[Rcpp::depends(RcppEigen)]]

// [[Rcpp::export(rng = false)]]
Rcpp::List cpp_order_local_search(const Eigen::Map<Eigen::MatrixXd> cov, const Eigen::Map<Eigen::MatrixXd> allowed,
                            double lambda, Rcpp::IntegerVector order, int max_sweeps, int exact_limit,
                            double grow_ratio) {
  calm::LocalScore score(cov, lambda);
  std::vector<int> ord(order.size());
  for (R_xlen_t k = 0; k < order.size(); ++k) ord[k] = order[k] - 1;
  calm::IntMatrix mask = (allowed.array() != 0).cast<int>();
  calm::OrderSearchResult r = calm::order_search(score, mask, ord, max_sweeps, 1e-10, exact_limit,
                                                 grow_ratio, [] { Rcpp::checkUserInterrupt(); });
  Rcpp::IntegerVector out(r.order.size());
  for (std::size_t k = 0; k < r.order.size(); ++k) out[k] = r.order[k] + 1;
  return Rcpp::List::create(Rcpp::Named("dag") = Eigen::MatrixXd(r.dag.cast<double>()),
                            Rcpp::Named("score_start") = r.score_start, Rcpp::Named("score") = r.score,
                            Rcpp::Named("order") = out, Rcpp::Named("moves") = r.moves);
}
