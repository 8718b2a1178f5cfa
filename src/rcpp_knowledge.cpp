// Rcpp glue for background knowledge (required and forbidden directed
// edges) in the refinement (the exact search and IAMB take it through
// cpp_exact_search() and cpp_iamb()). The knowledge is checked and
// turned into matrices in R (R/knowledge.R); C++ exceptions become R errors
// through Rcpp. CALM itself reads required edges from its mask (value 2,
// see fit_calm()).
#include <RcppEigen.h>

#include "ges_refine.h"

// [[Rcpp::depends(RcppEigen)]]

namespace {
calm::IntMatrix nonzero(const Eigen::Map<Eigen::MatrixXd>& m) {
  return (m.array() != 0).cast<int>();
}
}  // namespace

// The refinement's moves from a CPDAG, restricted to classes with a member
// that satisfies the knowledge. Returns the final CPDAG, the scores, the
// number of moves by type and a member DAG that satisfies the knowledge.
// [[Rcpp::export(rng = false)]]
Rcpp::List cpp_ges_refine_knowledge(const Eigen::Map<Eigen::MatrixXd> cov,
                                    const Eigen::Map<Eigen::MatrixXd> cpdag, double lambda,
                                    const Eigen::Map<Eigen::MatrixXd> allowed,
                                    const Eigen::Map<Eigen::MatrixXd> required,
                                    const Eigen::Map<Eigen::MatrixXd> forbidden, bool forward,
                                    int max_moves, int max_parents = -1) {
  calm::LocalScore score(cov, lambda, max_parents);
  calm::Knowledge k;
  k.required = nonzero(required);
  k.forbidden = nonzero(forbidden);
  calm::GesOptions opt;
  opt.forward = forward;
  opt.max_moves = max_moves;
  opt.knowledge = &k;
  const calm::IntMatrix start = nonzero(cpdag);
  calm::IntMatrix dag;
  if (!calm::knowledge_extension(start, k, dag))
    Rcpp::stop("the start graph does not satisfy the background knowledge");
  calm::GesResult r = calm::ges_refine(start, score, nonzero(allowed), opt,
                                       [] { Rcpp::checkUserInterrupt(); });
  if (!calm::knowledge_extension(r.cpdag, k, dag))
    Rcpp::stop("internal error: the refined graph does not satisfy the background knowledge");
  Rcpp::CharacterVector type(r.moves.size());
  Rcpp::IntegerVector from(r.moves.size()), to(r.moves.size());
  Rcpp::NumericVector delta(r.moves.size());
  for (std::size_t i = 0; i < r.moves.size(); ++i) {
    const calm::GesMoveType t = r.moves[i].type;
    type[i] = t == calm::GesMoveType::Insert ? "insert"
              : t == calm::GesMoveType::Delete ? "delete" : "turn";
    from[i] = r.moves[i].u + 1;
    to[i] = r.moves[i].v + 1;
    delta[i] = r.moves[i].delta;
  }
  return Rcpp::List::create(
      Rcpp::Named("cpdag") = Eigen::MatrixXd(r.cpdag.cast<double>()),
      Rcpp::Named("dag") = Eigen::MatrixXd(dag.cast<double>()),
      Rcpp::Named("score_before") = r.score_before, Rcpp::Named("score_after") = r.score_after,
      Rcpp::Named("moves") = Rcpp::DataFrame::create(
          Rcpp::Named("type") = type, Rcpp::Named("from") = from, Rcpp::Named("to") = to,
          Rcpp::Named("delta") = delta, Rcpp::Named("stringsAsFactors") = false));
}

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
  return Rcpp::wrap(Eigen::MatrixXd(dag.cast<double>()));
}
