// Rcpp glue for background knowledge (required and forbidden directed
// edges) in the discrete searches and IAMB. The knowledge is checked and
// turned into matrices in R (R/knowledge.R); C++ exceptions become R errors
// through Rcpp. CALM itself reads required edges from its mask (value 2,
// see fit_calm()).
#include <RcppEigen.h>

#include "exact_search.h"
#include "ges_refine.h"
#include "iamb.h"

// [[Rcpp::depends(RcppEigen)]]

namespace {
calm::IntMatrix nonzero(const Eigen::Map<Eigen::MatrixXd>& m) {
  return (m.array() != 0).cast<int>();
}
}  // namespace

// The optimal DAG whose edges i -> j all have allowed(i, j) != 0 and that
// contains every edge with required(i, j) != 0.
// [[Rcpp::export(rng = false)]]
Rcpp::List cpp_exact_search_knowledge(const Eigen::Map<Eigen::MatrixXd> cov,
                                      const Eigen::Map<Eigen::MatrixXd> allowed,
                                      const Eigen::Map<Eigen::MatrixXd> required, double lambda,
                                      double max_bytes) {
  calm::LocalScore score(cov, lambda);
  const calm::IntMatrix mask = nonzero(allowed), req = nonzero(required);
  const calm::ExactResult r =
      calm::exact_search(score, mask, &req, max_bytes, [] { Rcpp::checkUserInterrupt(); });
  const int d = static_cast<int>(r.dag.rows());
  Rcpp::IntegerMatrix amat(d, d);
  for (int j = 0; j < d; ++j)
    for (int i = 0; i < d; ++i) amat(i, j) = r.dag(i, j);
  Rcpp::IntegerVector order(d);
  for (int k = 0; k < d; ++k) order[k] = r.order[k] + 1;
  return Rcpp::List::create(Rcpp::Named("amat") = amat, Rcpp::Named("score") = r.score,
                            Rcpp::Named("order") = order, Rcpp::Named("bytes") = r.bytes);
}

// The refinement's moves from a CPDAG, restricted to classes with a member
// that satisfies the knowledge. Returns the final CPDAG, the scores, the
// number of moves by type and a member DAG that satisfies the knowledge.
// [[Rcpp::export(rng = false)]]
Rcpp::List cpp_ges_refine_knowledge(const Eigen::Map<Eigen::MatrixXd> cov,
                                    const Eigen::Map<Eigen::MatrixXd> cpdag, double lambda,
                                    const Eigen::Map<Eigen::MatrixXd> allowed,
                                    const Eigen::Map<Eigen::MatrixXd> required,
                                    const Eigen::Map<Eigen::MatrixXd> forbidden, bool forward,
                                    int max_moves) {
  calm::LocalScore score(cov, lambda);
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

// IAMB blankets with the adjacencies of `keep` (symmetric 0/1) forced in.
// [[Rcpp::export(rng = false)]]
Rcpp::List cpp_iamb_keep(const Eigen::Map<Eigen::MatrixXd> corr, double n, double alpha,
                         double zero_tol, int max_size, const Eigen::Map<Eigen::MatrixXd> keep) {
  calm::IambOptions options;
  options.test.n = R_finite(n) ? n : std::numeric_limits<double>::infinity();
  options.test.alpha = alpha;
  options.test.zero_tol = zero_tol;
  options.max_size = max_size;
  options.keep = (keep.array() != 0).cast<int>();
  const Eigen::MatrixXd c = corr;
  calm::IambResult res = calm::iamb_all(c, options, [] { return false; });
  const int d = static_cast<int>(c.rows());
  Rcpp::List blankets(d);
  Rcpp::LogicalVector capped(d);
  for (int t = 0; t < d; ++t) {
    const std::vector<int>& mb = res.blankets[t];
    Rcpp::IntegerVector v(mb.size());
    for (std::size_t i = 0; i < mb.size(); ++i) v[i] = mb[i] + 1;
    blankets[t] = v;
    capped[t] = res.capped[t];
  }
  return Rcpp::List::create(Rcpp::Named("blankets") = blankets,
                            Rcpp::Named("n_tests") = static_cast<double>(res.n_tests),
                            Rcpp::Named("capped") = capped);
}
