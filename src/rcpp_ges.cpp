// Rcpp glue for the GES-style refinement (src/ges_refine.h). Arguments are
// checked in R (R/refine.R); exceptions become R errors through Rcpp.
#include <Rcpp.h>
#include <RcppEigen.h>

#include "ges_refine.h"

// [[Rcpp::depends(RcppEigen)]]

namespace {
calm::IntMatrix to_int(const Eigen::Map<Eigen::MatrixXd>& m) {
  return (m.array() != 0).cast<int>();
}
const char* type_name(calm::GesMoveType t) {
  switch (t) {
    case calm::GesMoveType::Insert: return "insert";
    case calm::GesMoveType::Delete: return "delete";
    default: return "turn";
  }
}
Rcpp::IntegerVector one_based(const std::vector<int>& s) {
  Rcpp::IntegerVector out(s.size());
  for (std::size_t k = 0; k < s.size(); ++k) out[k] = s[k] + 1;
  return out;
}
}  // namespace

// The best operator of one type on a CPDAG (no tolerance: the best change,
// improving or not), with the CPDAG it leads to. NULL when no operator of
// that type exists.
// [[Rcpp::export(rng = false)]]
SEXP cpp_ges_best_move(const Eigen::Map<Eigen::MatrixXd> cov, const Eigen::Map<Eigen::MatrixXd> cpdag,
                       std::string type, double lambda, const Eigen::Map<Eigen::MatrixXd> allowed,
                       int max_parents = -1) {
  calm::LocalScore score(cov, lambda, max_parents);
  calm::GesMoveType t = type == "insert" ? calm::GesMoveType::Insert
                        : type == "delete" ? calm::GesMoveType::Delete
                                           : calm::GesMoveType::Turn;
  calm::IntMatrix g = to_int(cpdag);
  calm::GesMove m = calm::best_move(g, t, score, to_int(allowed), -1e300);
  if (!m.valid()) return R_NilValue;
  calm::IntMatrix next;
  bool ok = calm::apply_move(g, m, next);
  return Rcpp::List::create(
      Rcpp::Named("u") = m.u + 1, Rcpp::Named("v") = m.v + 1, Rcpp::Named("C") = one_based(m.C),
      Rcpp::Named("delta") = m.delta, Rcpp::Named("applied") = ok,
      Rcpp::Named("cpdag") = ok ? Rcpp::wrap(Eigen::MatrixXd(next.cast<double>())) : R_NilValue);
}

// Runs the refinement from a CPDAG.
// [[Rcpp::export(rng = false)]]
Rcpp::List cpp_ges_refine(const Eigen::Map<Eigen::MatrixXd> cov, const Eigen::Map<Eigen::MatrixXd> cpdag,
                          double lambda, const Eigen::Map<Eigen::MatrixXd> allowed, bool forward,
                          bool backward, bool turning, int max_moves, int max_parents = -1) {
  calm::LocalScore score(cov, lambda, max_parents);
  calm::GesOptions opt;
  opt.forward = forward;
  opt.backward = backward;
  opt.turning = turning;
  opt.max_moves = max_moves;
  calm::GesResult r = calm::ges_refine(to_int(cpdag), score, to_int(allowed), opt,
                                       [] { Rcpp::checkUserInterrupt(); });
  const std::size_t k = r.moves.size();
  Rcpp::CharacterVector type(k);
  Rcpp::IntegerVector from(k), to(k);
  Rcpp::List cl(k);
  Rcpp::NumericVector delta(k);
  for (std::size_t i = 0; i < k; ++i) {
    type[i] = type_name(r.moves[i].type);
    from[i] = r.moves[i].u + 1;
    to[i] = r.moves[i].v + 1;
    cl[i] = one_based(r.moves[i].C);
    delta[i] = r.moves[i].delta;
  }
  return Rcpp::List::create(
      Rcpp::Named("cpdag") = Eigen::MatrixXd(r.cpdag.cast<double>()),
      Rcpp::Named("score_before") = r.score_before, Rcpp::Named("score_after") = r.score_after,
      Rcpp::Named("moves") = Rcpp::List::create(Rcpp::Named("type") = type, Rcpp::Named("from") = from,
                                                Rcpp::Named("to") = to, Rcpp::Named("clique") = cl,
                                                Rcpp::Named("delta") = delta));
}
