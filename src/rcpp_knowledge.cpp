// Rcpp glue for background knowledge (required and forbidden directed
// edges): a member of a class that obeys it. The searches take it through
// their own entries (cpp_ges_refine(), cpp_boss(), cpp_exact_search(),
// cpp_iamb()). The knowledge is checked and
// turned into matrices in R (R/knowledge.R); C++ exceptions become R errors
// through Rcpp. CALM itself reads required edges from its mask (value 2,
// see fit_calm()).
#include "search_ges.h"
#include "rcpp_glue.h"

// [[Rcpp::depends(RcppEigen)]]

using calm_glue::nonzero;

// A DAG of the class of `cpdag` that satisfies the knowledge, or NULL.
// [[Rcpp::export(rng = false)]]
SEXP cpp_knowledge_extension(const Eigen::Map<Eigen::MatrixXd> cpdag,
                             const Eigen::Map<Eigen::MatrixXd> required,
                             const Eigen::Map<Eigen::MatrixXd> forbidden) {
  calm::Knowledge k;
  k.required = nonzero(required);
  k.forbidden = nonzero(forbidden);
  calm::IntMatrix dag;
  if (!calm::knowledge_extension(nonzero(cpdag), k, dag)) return R_NilValue;
  return Rcpp::wrap(calm_glue::as_double(dag));
}
