// Rcpp glue for the GES-style refinement (src/search_ges.h). Arguments are
// checked in R (R/search-refine.R); exceptions become R errors through Rcpp.
#include "search_ges.h"
#include "rcpp_glue.h"
#include "rcpp_interrupt.h"

// [[Rcpp::depends(RcppEigen)]]

namespace {
using calm_glue::nonzero;
using calm_glue::one_based;
using calm_glue::OptionField;

const char* type_name(calm::GesMoveType t) {
  switch (t) {
    case calm::GesMoveType::Insert: return "insert";
    case calm::GesMoveType::Delete: return "delete";
    default: return "turn";
  }
}

// the options ges_options() in R/search-refine.R builds
const OptionField<calm::GesOptions> kGesFields[] = {
    {"forward", [](calm::GesOptions& o, SEXP v) { o.forward = Rcpp::as<bool>(v); }},
    {"backward", [](calm::GesOptions& o, SEXP v) { o.backward = Rcpp::as<bool>(v); }},
    {"turning", [](calm::GesOptions& o, SEXP v) { o.turning = Rcpp::as<bool>(v); }},
    {"max_moves", [](calm::GesOptions& o, SEXP v) { o.max_moves = Rcpp::as<int>(v); }},
    {"tol", [](calm::GesOptions& o, SEXP v) { o.tol = Rcpp::as<double>(v); }},
    {"cached_inserts", [](calm::GesOptions& o, SEXP v) { o.cached_inserts = Rcpp::as<bool>(v); }},
    {"cache_budget",
     [](calm::GesOptions& o, SEXP v) { o.cache_budget = static_cast<std::size_t>(Rcpp::as<double>(v)); }},
    {"threads", [](calm::GesOptions& o, SEXP v) { o.threads = Rcpp::as<int>(v); }},
};
}  // namespace

// The best operator of one type on a CPDAG (no tolerance: the best change,
// improving or not), with the CPDAG it leads to. NULL when no operator of
// that type exists.
// [[Rcpp::export(rng = false)]]
SEXP cpp_ges_best_move(const Rcpp::NumericMatrix cov, const Eigen::Map<Eigen::MatrixXd> cpdag,
                       std::string type, double lambda, const Eigen::Map<Eigen::MatrixXd> allowed,
                       int max_parents = -1) {
  calm::LocalScore score = calm_glue::local_score(cov, lambda, max_parents);
  calm::GesMoveType t = type == "insert" ? calm::GesMoveType::Insert
                        : type == "delete" ? calm::GesMoveType::Delete
                                           : calm::GesMoveType::Turn;
  calm::IntMatrix g = nonzero(cpdag);
  calm::GesMove m = calm::best_move(g, t, score, nonzero(allowed), -1e300);
  if (!m.valid()) return R_NilValue;
  calm::IntMatrix next;
  bool ok = calm::apply_move(g, m, next);
  return Rcpp::List::create(
      Rcpp::Named("u") = m.u + 1, Rcpp::Named("v") = m.v + 1, Rcpp::Named("C") = one_based(m.C),
      Rcpp::Named("delta") = m.delta, Rcpp::Named("applied") = ok,
      Rcpp::Named("cpdag") = ok ? Rcpp::wrap(Eigen::MatrixXd(next.cast<double>())) : R_NilValue);
}

// Runs the refinement from a CPDAG. `options`: named list, see kGesFields.
// With background knowledge (`required`, `forbidden`: 0/1 matrices) the
// start's class must have a member that obeys it, and only moves to such
// classes are made. Returns the final CPDAG, a member DAG (obeying the
// knowledge), the scores and the moves. A 0 x 0 `cpdag` is the empty graph
// (R need not make a d x d matrix of zeros); `with_dag = false` returns no
// member DAG (NULL), one d x d matrix less for R at scale.
// [[Rcpp::export(rng = false)]]
Rcpp::List cpp_ges_refine(const Rcpp::NumericMatrix cov, const Eigen::Map<Eigen::MatrixXd> cpdag,
                          double lambda, const Eigen::Map<Eigen::MatrixXd> allowed, Rcpp::List options,
                          Rcpp::Nullable<Rcpp::NumericMatrix> required = R_NilValue,
                          Rcpp::Nullable<Rcpp::NumericMatrix> forbidden = R_NilValue,
                          int max_parents = -1, bool with_dag = true) {
  calm::LocalScore score = calm_glue::local_score(cov, lambda, max_parents);
  calm::GesOptions opt = calm_glue::read_options(options, kGesFields, "cpp_ges_refine");
  const int d = score.dim();
  const calm::Knowledge kn = calm_glue::knowledge(required, forbidden, d);
  if (!kn.empty()) opt.knowledge = &kn;
  const calm::IntMatrix start = cpdag.size() == 0 ? calm::IntMatrix(calm::IntMatrix::Zero(d, d))
                                                  : nonzero(cpdag);
  calm::IntMatrix dag;
  if (opt.knowledge && !calm::knowledge_extension(start, kn, dag))
    Rcpp::stop("the start graph does not satisfy the background knowledge");
  calm::GesResult r = calm::ges_refine(start, score, nonzero(allowed), opt,
                                       calm_glue::interrupt_check);
  if (with_dag) {
    const bool ok = opt.knowledge ? calm::knowledge_extension(r.cpdag, kn, dag)
                                  : calm::pdag_extension(r.cpdag, dag);
    if (!ok) Rcpp::stop("internal error: the refined graph has no member that obeys the knowledge");
  }
  const Rcpp::RObject dag_r = with_dag ? Rcpp::RObject(calm_glue::as_double(dag)) : Rcpp::RObject();
  dag = calm::IntMatrix();
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
      Rcpp::Named("cpdag") = calm_glue::as_double(r.cpdag),
      Rcpp::Named("dag") = dag_r,
      Rcpp::Named("score_before") = r.score_before, Rcpp::Named("score_after") = r.score_after,
      Rcpp::Named("moves") = Rcpp::List::create(Rcpp::Named("type") = type, Rcpp::Named("from") = from,
                                                Rcpp::Named("to") = to, Rcpp::Named("clique") = cl,
                                                Rcpp::Named("delta") = delta));
}
