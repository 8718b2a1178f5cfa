// Rcpp glue for the local score (src/search_score.h). Arguments are checked in
// R (R/score.R); exceptions become R errors through Rcpp.
#include "calm_types.h"

#include "search_heldout.h"
#include "search_score.h"
#include "rcpp_glue.h"

// [[Rcpp::depends(RcppEigen)]]

// Score of each node of a DAG and their sum.
// [[Rcpp::export(rng = false)]]
Rcpp::List cpp_dag_local_scores(const Rcpp::NumericMatrix cov,
                                const Eigen::Map<Eigen::MatrixXd> adj, double lambda,
                                int max_parents = -1) {
  calm::LocalScore score = calm_glue::local_score(cov, lambda, max_parents);
  const int d = score.dim();
  Rcpp::NumericVector per_node(d);
  double total = 0;
  for (int j = 0; j < d; ++j) {
    std::vector<int> pa;
    for (int i = 0; i < d; ++i)
      if (adj(i, j) != 0) pa.push_back(i);
    per_node[j] = score.local(j, pa);
    total += per_node[j];
  }
  return Rcpp::List::create(Rcpp::Named("total") = total, Rcpp::Named("local") = per_node);
}

// s(j, T) for every subset T of `candidates` (1-based), by bit mask.
// [[Rcpp::export(rng = false)]]
Rcpp::NumericVector cpp_all_subset_scores(const Rcpp::NumericMatrix cov, int j,
                                          Rcpp::IntegerVector candidates, double lambda,
                                          int max_parents = -1) {
  calm::LocalScore score = calm_glue::local_score(cov, lambda, max_parents);
  std::vector<double> out = score.all_subset_scores(j - 1, calm_glue::zero_based(candidates));
  return Rcpp::NumericVector(out.begin(), out.end());
}

// The held-out log-likelihood of `dag` fitted on covariance `s` with means
// `mu`, summed over the rows of `test` (src/search_heldout.h).
// [[Rcpp::export(rng = false)]]
double cpp_heldout_loglik(const Eigen::Map<Eigen::MatrixXd> dag,
                          const Eigen::Map<Eigen::MatrixXd> s,
                          const Eigen::Map<Eigen::VectorXd> mu,
                          const Eigen::Map<Eigen::MatrixXd> test, double floor) {
  return calm::heldout_loglik(calm_glue::nonzero(dag), s, mu, test, floor);
}
