// Rcpp glue for graph_core: R matrices in, R matrices out. Argument checks
// happen in R (R/graph.R); exceptions become R errors through Rcpp.
#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

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

// The CPDAG as a double matrix written straight from the 1-byte graph (at
// 10,000 variables an integer matrix on the way, in C++ and again in R, and
// its conversion to double held 1.6 GB more at the fit's peak).
// [[Rcpp::export(rng = false)]]
Rcpp::NumericMatrix cpp_dag_to_cpdag_double(const Eigen::Map<Eigen::MatrixXd> adj) {
  return calm_glue::as_double(calm::dag_to_cpdag(nonzero(adj)));
}

// The nonzero entries of `m` off its diagonal as a two-column matrix (row,
// column; 1-based), ordered by row and then column; without the d x d
// logical matrices which() and row()/col() would make.
// [[Rcpp::export(rng = false)]]
Rcpp::IntegerMatrix cpp_nonzero_pairs(const Eigen::Map<Eigen::MatrixXd> m) {
  std::vector<std::pair<int, int>> at;
  for (Eigen::Index j = 0; j < m.cols(); ++j)
    for (Eigen::Index i = 0; i < m.rows(); ++i)
      if (i != j && m(i, j) != 0 && !std::isnan(m(i, j))) at.emplace_back(static_cast<int>(i), static_cast<int>(j));
  std::sort(at.begin(), at.end());
  Rcpp::IntegerMatrix out(static_cast<int>(at.size()), 2);
  for (std::size_t k = 0; k < at.size(); ++k) {
    out(k, 0) = at[k].first + 1;
    out(k, 1) = at[k].second + 1;
  }
  return out;
}

// Whether every entry of `m` is 0 or 1 (no copy of m).
// [[Rcpp::export(rng = false)]]
bool cpp_is_zero_one(const Eigen::Map<Eigen::MatrixXd> m) {
  const double* v = m.data();
  const Eigen::Index n = m.size();
  for (Eigen::Index k = 0; k < n; ++k)
    if (v[k] != 0 && v[k] != 1) return false;
  return true;
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
