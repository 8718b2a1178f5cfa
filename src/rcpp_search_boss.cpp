// Rcpp glue for BOSS (src/search_boss.h). Arguments are checked in R (R/search-boss.R);
// exceptions become R errors through Rcpp.
#include "search_boss.h"
#include "rcpp_glue.h"
#include "rcpp_interrupt.h"

// [[Rcpp::depends(RcppEigen)]]

namespace {
using calm_glue::OptionField;
// the options boss_search() in R/search-boss.R builds
const OptionField<calm::BossOptions> kBossFields[] = {
    {"max_sweeps", [](calm::BossOptions& o, SEXP v) { o.max_sweeps = Rcpp::as<int>(v); }},
    {"tol", [](calm::BossOptions& o, SEXP v) { o.tol = Rcpp::as<double>(v); }},
    {"exact_parents_max", [](calm::BossOptions& o, SEXP v) { o.exact_parents_max = Rcpp::as<int>(v); }},
    {"bes", [](calm::BossOptions& o, SEXP v) { o.bes = Rcpp::as<bool>(v); }},
    {"grow_ratio", [](calm::BossOptions& o, SEXP v) { o.grow_ratio = Rcpp::as<double>(v); }},
    {"kick_grow_ratios",
     [](calm::BossOptions& o, SEXP v) { o.kick_grow_ratios = Rcpp::as<std::vector<double>>(v); }},
    {"cache_budget", [](calm::BossOptions& o, SEXP v) { o.cache_budget = Rcpp::as<double>(v); }},
    {"keep_graphs", [](calm::BossOptions& o, SEXP v) { o.keep_graphs = Rcpp::as<bool>(v); }},
    {"kick_local", [](calm::BossOptions& o, SEXP v) { o.kick_local = Rcpp::as<bool>(v); }},
    {"threads", [](calm::BossOptions& o, SEXP v) { o.threads = Rcpp::as<int>(v); }},
};
}  // namespace

// `starts`: an integer matrix with one start order (1-based) per column.
// `options`: named list, see kBossFields. `kick_moves`: one kick per column, 2m
// rows: the m positions to take nodes from, then the m positions to put them
// back at (1-based, see search_boss.h); zero columns for none. `required`,
// `forbidden`, `precedes`: background knowledge (0/1 matrices, see
// calm::Knowledge) or NULL.
// [[Rcpp::export(rng = false)]]
Rcpp::List cpp_boss(const Rcpp::NumericMatrix cov, const Eigen::Map<Eigen::MatrixXd> allowed,
                    double lambda, Rcpp::IntegerMatrix starts, Rcpp::List options,
                    Rcpp::IntegerMatrix kick_moves,
                    Rcpp::Nullable<Rcpp::NumericMatrix> required = R_NilValue,
                    Rcpp::Nullable<Rcpp::NumericMatrix> forbidden = R_NilValue,
                    Rcpp::Nullable<Rcpp::NumericMatrix> precedes = R_NilValue,
                    int max_parents = -1, bool with_dag = true) {
  calm::LocalScore score = calm_glue::local_score(cov, lambda, max_parents);
  const int d = score.dim();
  if (starts.nrow() != d) throw std::invalid_argument("start orders have the wrong length");
  std::vector<std::vector<int>> st(starts.ncol(), std::vector<int>(d));
  for (int k = 0; k < starts.ncol(); ++k)
    for (int p = 0; p < d; ++p) st[k][p] = starts(p, k) - 1;
  calm::IntMatrix mask = calm_glue::nonzero(allowed);
  calm::BossOptions opt = calm_glue::read_options(options, kBossFields, "cpp_boss");
  const calm::Knowledge kn = calm_glue::knowledge(required, forbidden, d, precedes);
  opt.knowledge = &kn;
  if (kick_moves.ncol() > 0 && kick_moves.nrow() % 2 != 0)
    throw std::invalid_argument("kick_moves needs an even number of rows");
  const int m = kick_moves.nrow() / 2;
  std::vector<calm::Kick> kk(kick_moves.ncol());
  for (int k = 0; k < kick_moves.ncol(); ++k) {
    for (int i = 0; i < m; ++i) {
      kk[k].from.push_back(kick_moves(i, k) - 1);
      kk[k].to.push_back(kick_moves(m + i, k) - 1);
    }
  }
  calm::BossResult r =
      calm::boss_search(score, mask, st, opt, calm_glue::interrupt_check, kk);
  // each d x d matrix is freed as soon as R has its copy (0.1 GB apiece in
  // C++, 0.8 GB in R, at 10,000 variables)
  mask = calm::IntMatrix();
  // with_dag = false: no member DAG for R (NULL), one d x d matrix less
  const Rcpp::RObject dag = with_dag ? Rcpp::RObject(calm_glue::as_double(r.dag)) : Rcpp::RObject();
  r.dag = calm::IntMatrix();
  Rcpp::NumericMatrix cpdag = calm_glue::as_double(r.cpdag);
  r.cpdag = calm::IntMatrix();
  const std::size_t ns = r.starts.size();
  Rcpp::NumericVector order_score(ns), final_score(ns);
  Rcpp::IntegerVector moves(ns), bes_moves(ns);
  Rcpp::IntegerMatrix orders(d, static_cast<int>(ns));
  Rcpp::List graphs(opt.keep_graphs ? ns : 0);
  for (std::size_t k = 0; k < ns; ++k) {
    order_score[k] = r.starts[k].order_score;
    final_score[k] = r.starts[k].score;
    moves[k] = r.starts[k].moves;
    bes_moves[k] = r.starts[k].bes_moves;
    for (int p = 0; p < d; ++p) orders(p, static_cast<int>(k)) = r.starts[k].order[p] + 1;
    if (opt.keep_graphs) graphs[k] = calm_glue::as_double(r.starts[k].cpdag);
  }
  return Rcpp::List::create(
      Rcpp::Named("dag") = dag, Rcpp::Named("cpdag") = cpdag,
      Rcpp::Named("score") = r.score, Rcpp::Named("order") = calm_glue::one_based(r.order),
      Rcpp::Named("best_start") = r.best_start + 1, Rcpp::Named("orders") = orders,
      Rcpp::Named("kick_scores") = r.kick_scores, Rcpp::Named("kicks_improved") = r.kicks_improved,
      Rcpp::Named("cache_clears") = r.cache_clears, Rcpp::Named("start_cpdags") = graphs,
      Rcpp::Named("starts") = Rcpp::DataFrame::create(
          Rcpp::Named("order_score") = order_score, Rcpp::Named("score") = final_score,
          Rcpp::Named("moves") = moves, Rcpp::Named("bes_moves") = bes_moves));
}
