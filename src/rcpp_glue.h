// Helpers shared by the rcpp_*.cpp glue files: matrices from R to the pure
// C++ core and back, background knowledge, and the named options lists the
// searches take. Only glue includes this; the core never sees R types.
#ifndef CALM_RCPP_GLUE_H
#define CALM_RCPP_GLUE_H

#include "calm_types.h"

#include <cstddef>
#include <string>
#include <vector>

#include "graph_core.h"
#include "search_score.h"

namespace calm_glue {

// A 0/1 matrix: entries that are not zero.
inline calm::IntMatrix nonzero(const Eigen::Map<Eigen::MatrixXd>& m) {
  return (m.array() != 0).cast<calm::GraphEntry>();
}

inline calm::IntMatrix nonzero(const Rcpp::NumericMatrix& m) {
  calm::IntMatrix out = calm::IntMatrix::Zero(m.nrow(), m.ncol());
  for (int j = 0; j < m.ncol(); ++j)
    for (int i = 0; i < m.nrow(); ++i) out(i, j) = m(i, j) != 0;
  return out;
}

// The local score of a covariance from R. A covariance that carries the
// attribute "calm_interventional" (made by R's interventional_moments(),
// R/interventional-score.R) gives the interventional score: a list of
// `covs` (d x d matrices), `group` (0-based index into covs per node),
// `weight` (n_j / n per node) and `max_parents` (per node).
inline calm::LocalScore local_score(const Rcpp::NumericMatrix& cov, double lambda,
                                    int max_parents = -1) {
  const Eigen::Map<const Eigen::MatrixXd> s(cov.begin(), cov.nrow(), cov.ncol());
  calm::LocalScore score(s, lambda, max_parents);
  const SEXP iv = cov.attr("calm_interventional");
  if (Rf_isNull(iv)) return score;
  const Rcpp::List li(iv);
  const Rcpp::List covs = li["covs"];
  std::vector<Eigen::MatrixXd> mats;
  for (R_xlen_t g = 0; g < covs.size(); ++g) {
    const Rcpp::NumericMatrix m = covs[g];
    mats.emplace_back(Eigen::Map<const Eigen::MatrixXd>(m.begin(), m.nrow(), m.ncol()));
  }
  score.set_interventional(std::move(mats), Rcpp::as<std::vector<int>>(li["group"]),
                           Rcpp::as<std::vector<double>>(li["weight"]),
                           Rcpp::as<std::vector<int>>(li["max_parents"]));
  return score;
}

// 0-based node indices to R's 1-based ones, and back.
inline Rcpp::IntegerVector one_based(const std::vector<int>& s) {
  Rcpp::IntegerVector out(s.size());
  for (std::size_t k = 0; k < s.size(); ++k) out[k] = s[k] + 1;
  return out;
}

inline std::vector<int> zero_based(const Rcpp::IntegerVector& s) {
  std::vector<int> out(s.size());
  for (R_xlen_t k = 0; k < s.size(); ++k) out[k] = s[k] - 1;
  return out;
}

// An integer matrix as R's double matrix, written in place (one d x d
// allocation, where an Eigen cast and its wrap made two).
inline Rcpp::NumericMatrix as_double(const calm::IntMatrix& m) {
  Rcpp::NumericMatrix out(static_cast<int>(m.rows()), static_cast<int>(m.cols()));
  double* p = out.begin();
  const calm::GraphEntry* q = m.data();
  for (Eigen::Index k = 0; k < m.size(); ++k) p[k] = q[k];
  return out;
}

// Background knowledge from R's 0/1 matrices (R/knowledge.R); NULL for
// any: none of that kind.
inline calm::Knowledge knowledge(const Rcpp::Nullable<Rcpp::NumericMatrix>& required,
                                 const Rcpp::Nullable<Rcpp::NumericMatrix>& forbidden, int d,
                                 const Rcpp::Nullable<Rcpp::NumericMatrix>& precedes = R_NilValue) {
  calm::Knowledge k;
  if (required.isNotNull()) k.required = nonzero(Rcpp::NumericMatrix(required.get()));
  if (forbidden.isNotNull()) k.forbidden = nonzero(Rcpp::NumericMatrix(forbidden.get()));
  if (precedes.isNotNull()) k.precedes = nonzero(Rcpp::NumericMatrix(precedes.get()));
  for (const calm::IntMatrix* m : {&k.required, &k.forbidden, &k.precedes})
    if (m->size() != 0 && (m->rows() != d || m->cols() != d))
      Rcpp::stop("knowledge and covariance differ in size");
  return k;
}

// A search's options arrive from R as a named list. Each field the search
// reads has a row in a table (name, how to store it and, where a test reads
// the options back, how to read it); a field missing from the list, or one
// no row reads, is an error, so R is the one place that sets them (no
// silent C++ default).
template <class Options>
struct OptionField {
  const char* name;
  void (*set)(Options&, SEXP);
  SEXP (*get)(const Options&) = nullptr;
};

// How read_options() words its two errors (each a format taking the
// field's name).
struct OptionErrors {
  std::string unknown;
  std::string missing;
};

// The errors of a search's options, named after its entry point.
inline OptionErrors search_errors(const char* search) {
  return {std::string(search) + ": unknown option '%s'",
          std::string(search) + ": option '%s' is missing"};
}

template <class Options, std::size_t N>
Options read_options(const Rcpp::List& list, const OptionField<Options> (&fields)[N],
                     const OptionErrors& errors) {
  Options o{};
  if (list.size() > 0) {
    const Rcpp::CharacterVector given = list.names();
    for (R_xlen_t i = 0; i < given.size(); ++i) {
      const std::string nm = Rcpp::as<std::string>(given[i]);
      bool known = false;
      for (const OptionField<Options>& f : fields) known = known || nm == f.name;
      if (!known) Rcpp::stop(errors.unknown.c_str(), nm);
    }
  }
  for (const OptionField<Options>& f : fields) {
    if (!list.containsElementNamed(f.name)) Rcpp::stop(errors.missing.c_str(), f.name);
    f.set(o, list[f.name]);
  }
  return o;
}

template <class Options, std::size_t N>
Options read_options(const Rcpp::List& list, const OptionField<Options> (&fields)[N],
                     const char* search) {
  return read_options(list, fields, search_errors(search));
}

}  // namespace calm_glue

#endif
