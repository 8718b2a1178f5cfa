// Rcpp glue for graph_core: R matrices in, R matrices out. Argument checks
// happen in R (R/graph.R); exceptions become R errors through Rcpp.
#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "graph_core.h"
#include "parallel_for.h"
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

// A consistent extension of a PDAG, or NULL when there is none
// (written from the parents' lists: a dense result converted to doubles
// and copied into R took 0.2 s a call at 5000 variables, on one thread)
// [[Rcpp::export(rng = false)]]
SEXP cpp_pdag_extension(const Eigen::Map<Eigen::MatrixXd> pdag) {
  std::vector<std::vector<int>> parents;
  if (!calm::pdag_extension(nonzero(pdag), parents)) return R_NilValue;
  const int d = static_cast<int>(pdag.rows());
  Rcpp::NumericMatrix out(d, d);
  for (int j = 0; j < d; ++j)
    for (int i : parents[j]) out(i, j) = 1;
  return out;
}

// The symmetric 0/1 matrix of the pairs adjacent in `adj` or with a common
// neighbour there (each vertex's neighbourhood made a clique), without a
// diagonal and with the dimnames of `adj`: column b holds the neighbours
// of b and of each of b's neighbours, so that columns are written apart on
// `threads` threads (the same result for any number), at a cost of the sum
// of the squared degrees (an estimated moral graph of 5000 variables at
// n = 3000 had 87 neighbours a vertex: 0.6 s on one thread).
// [[Rcpp::export(rng = false)]]
Rcpp::NumericMatrix cpp_two_hop_pairs(const Rcpp::NumericMatrix adj, int threads = 1) {
  std::vector<std::vector<int>> into, from, nb;
  calm::edge_lists(nonzero(adj), into, from, &nb);
  std::vector<std::vector<int>>().swap(into);
  std::vector<std::vector<int>>().swap(from);
  const int d = adj.ncol();
  Rcpp::NumericMatrix out(d, d);
  double* po = out.begin();
  calm::parallel_for(
      static_cast<std::size_t>(d), threads,
      [&](std::size_t b) {
        double* col = po + b * static_cast<std::size_t>(d);
        for (int k : nb[b]) {
          col[k] = 1;
          for (int a : nb[k]) col[a] = 1;
        }
        col[b] = 0;
      },
      {});
  const SEXP dn = Rf_getAttrib(adj, R_DimNamesSymbol);
  if (!Rf_isNull(dn)) out.attr("dimnames") = dn;
  return out;
}
