// Rcpp glue for the order search (src/search_order.h), for the tests: BOSS
// (rcpp_search_boss.cpp) runs it through boss_search(). Arguments are checked in R;
// exceptions become R errors through Rcpp.
#include "search_order.h"
#include "rcpp_glue.h"
#include "rcpp_interrupt.h"

// [[Rcpp::depends(RcppEigen)]]

namespace {
using calm_glue::OptionField;

// the arguments of calm::order_search() after the start order
struct OrderLocalSearchOptions {
  int max_sweeps = 0;
  double tol = 0;
  int exact_parents_max = 0;
  double grow_ratio = 1.0;
};

const OptionField<OrderLocalSearchOptions> kOrderFields[] = {
    {"max_sweeps", [](OrderLocalSearchOptions& o, SEXP v) { o.max_sweeps = Rcpp::as<int>(v); }},
    {"tol", [](OrderLocalSearchOptions& o, SEXP v) { o.tol = Rcpp::as<double>(v); }},
    {"exact_parents_max", [](OrderLocalSearchOptions& o, SEXP v) { o.exact_parents_max = Rcpp::as<int>(v); }},
    {"grow_ratio", [](OrderLocalSearchOptions& o, SEXP v) { o.grow_ratio = Rcpp::as<double>(v); }},
};
}  // namespace

// One start of the order search from `order` (1-based). `options`: named
// list, see kOrderFields (as cpp_boss()'s, without bes and kicks).
// [[Rcpp::export(rng = false)]]
Rcpp::List cpp_order_local_search(const Rcpp::NumericMatrix cov,
                                  const Eigen::Map<Eigen::MatrixXd> allowed, double lambda,
                                  Rcpp::IntegerVector order, Rcpp::List options) {
  const OrderLocalSearchOptions opt =
      calm_glue::read_options(options, kOrderFields, "cpp_order_local_search");
  calm::LocalScore score = calm_glue::local_score(cov, lambda);
  const std::vector<int> ord = calm_glue::zero_based(order);
  const calm::IntMatrix mask = calm_glue::nonzero(allowed);
  calm::OrderSearchResult r =
      calm::order_search(score, mask, ord, opt.max_sweeps, opt.tol, opt.exact_parents_max,
                         opt.grow_ratio, calm_glue::interrupt_check);
  return Rcpp::List::create(Rcpp::Named("dag") = calm_glue::as_double(r.dag),
                            Rcpp::Named("score_start") = r.score_start, Rcpp::Named("score") = r.score,
                            Rcpp::Named("order") = calm_glue::one_based(r.order), Rcpp::Named("moves") = r.moves);
}
