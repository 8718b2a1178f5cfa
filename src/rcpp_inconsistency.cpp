// Rcpp glue for permutations.{h,cpp}: the enumeration of all variable
// orders in the l1-inconsistency experiment. Argument checks happen in R
// (R/inconsistency.R).
#include "calm_types.h"
#include <Rinternals.h>

#include "permutations.h"
#include "rcpp_glue.h"
#include "rcpp_interrupt.h"

// [[Rcpp::depends(RcppEigen)]]

using calm_glue::one_based;

// [[Rcpp::export(rng = false)]]
Rcpp::List cpp_enumerate_orders(const Eigen::Map<Eigen::MatrixXd> sigma, double l1_threshold,
                                double zero_tol) {
  calm::SubsetRegressions reg(sigma, zero_tol);
  std::function<bool()> interrupt = calm_glue::user_interrupted;
  calm::OrderEnumeration res = calm::enumerate_orders(reg, l1_threshold, interrupt);
  calm_glue::rethrow_interrupt(res.interrupted);
  return Rcpp::List::create(
      Rcpp::Named("n_orders") = static_cast<double>(res.n_orders),
      Rcpp::Named("n_smaller") = static_cast<double>(res.n_smaller),
      Rcpp::Named("l1_min") = res.l1_min,
      Rcpp::Named("l0_at_l1_min") = res.l0_at_l1_min,
      Rcpp::Named("order_l1_min") = one_based(res.order_l1_min),
      Rcpp::Named("l0_min") = res.l0_min,
      Rcpp::Named("l1_at_l0_min") = res.l1_at_l0_min,
      Rcpp::Named("order_l0_min") = one_based(res.order_l0_min));
}

// [[Rcpp::export(rng = false)]]
Rcpp::List cpp_regression_dag(const Eigen::Map<Eigen::MatrixXd> sigma, Rcpp::IntegerVector order) {
  const std::vector<int> ord = calm_glue::zero_based(order);
  Eigen::VectorXd omega;
  Eigen::MatrixXd B = calm::regression_dag(sigma, ord, &omega);
  return Rcpp::List::create(Rcpp::Named("B") = B, Rcpp::Named("omega") = omega);
}
