// Rcpp glue for graph_core: R matrices in, R matrices out. Argument checks
// happen in R (R/graph.R); exceptions become R errors through Rcpp.
#include "graph_core.h"
#include "rcpp_glue.h"

// [[Rcpp::depends(RcppEigen)]]

using calm_glue::nonzero;

// [[Rcpp::export(rng = false)]]
Rcpp::IntegerVector cpp_topological_order(const Eigen::Map<Eigen::MatrixXd> adj) {
  return calm_glue::one_based(calm::topological_order(nonzero(adj)));
}

// [[Rcpp::export(rng = false)]]
bool cpp_is_dag(const Eigen::Map<Eigen::MatrixXd> adj) {
  return calm::is_dag(nonzero(adj));
}

// [[Rcpp::export(rng = false)]]
Eigen::MatrixXi cpp_dag_to_cpdag(const Eigen::Map<Eigen::MatrixXd> adj) {
  return calm::dag_to_cpdag(nonzero(adj)).cast<int>();
}

// [[Rcpp::export(rng = false)]]
Eigen::MatrixXi cpp_moral_graph(const Eigen::Map<Eigen::MatrixXd> adj) {
  return calm::moral_graph(nonzero(adj)).cast<int>();
}

// [[Rcpp::export(rng = false)]]
Rcpp::List cpp_make_acyclic(Eigen::MatrixXd w) {
  std::vector<std::pair<int, int>> removed = calm::make_acyclic(w);
  Rcpp::IntegerVector from(removed.size()), to(removed.size());
  for (std::size_t k = 0; k < removed.size(); ++k) {
    from[k] = removed[k].first + 1;
    to[k] = removed[k].second + 1;
  }
  return Rcpp::List::create(Rcpp::Named("w") = w, Rcpp::Named("from") = from,
                            Rcpp::Named("to") = to);
}

// A consistent extension of a PDAG, or NULL when there is none.
// [[Rcpp::export(rng = false)]]
SEXP cpp_pdag_extension(const Eigen::Map<Eigen::MatrixXd> pdag) {
  calm::IntMatrix dag;
  if (!calm::pdag_extension(nonzero(pdag), dag)) return R_NilValue;
  Eigen::MatrixXd out = dag.cast<double>();
  return Rcpp::wrap(out);
}
