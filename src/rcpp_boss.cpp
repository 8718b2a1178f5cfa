// Rcpp glue for BOSS (src/boss.h). Arguments are checked in R (R/boss.R);
// exceptions become R errors through Rcpp.
#include <Rcpp.h>
#include <RcppEigen.h>

#include "boss.h"

// [[Rcpp::depends(RcppEigen)]]

// `starts`: an integer matrix with one start order (1-based) per column.
// `kicks`: one kick per column, 2m rows: the m positions to take nodes from,
// then the m positions to put them back at (1-based, see boss.h); zero
// columns for none. `kick_grow_ratios`: see BossOptions (may be empty).
// [[Rcpp::export(rng = false)]]
Rcpp::List cpp_boss(const Eigen::Map<Eigen::MatrixXd> cov, const Eigen::Map<Eigen::MatrixXd> allowed,
                    double lambda, Rcpp::IntegerMatrix starts, int max_sweeps, int exact_limit,
                    bool bes, double grow_ratio, Rcpp::IntegerMatrix kicks,
                    Rcpp::NumericVector kick_grow_ratios, int max_parents = -1) {
  calm::LocalScore score(cov, lambda, max_parents);
  const int d = score.dim();
  if (starts.nrow() != d) throw std::invalid_argument("start orders have the wrong length");
  std::vector<std::vector<int>> st(starts.ncol(), std::vector<int>(d));
  for (int k = 0; k < starts.ncol(); ++k)
    for (int p = 0; p < d; ++p) st[k][p] = starts(p, k) - 1;
  calm::IntMatrix mask = (allowed.array() != 0).cast<int>();
  calm::BossOptions opt;
  opt.max_sweeps = max_sweeps;
  opt.tol = 1e-10;
  opt.exact_limit = exact_limit;
  opt.bes = bes;
  opt.grow_ratio = grow_ratio;
  opt.kick_grow_ratios.assign(kick_grow_ratios.begin(), kick_grow_ratios.end());
  if (kicks.ncol() > 0 && kicks.nrow() % 2 != 0)
    throw std::invalid_argument("kicks need an even number of rows");
  const int m = kicks.nrow() / 2;
  std::vector<calm::Kick> kk(kicks.ncol());
  for (int k = 0; k < kicks.ncol(); ++k) {
    for (int i = 0; i < m; ++i) {
      kk[k].from.push_back(kicks(i, k) - 1);
      kk[k].to.push_back(kicks(m + i, k) - 1);
    }
  }
  calm::BossResult r =
      calm::boss_search(score, mask, st, opt, [] { Rcpp::checkUserInterrupt(); }, kk);
  const std::size_t ns = r.starts.size();
  Rcpp::NumericVector order_score(ns), final_score(ns);
  Rcpp::IntegerVector moves(ns), bes_moves(ns);
  Rcpp::IntegerMatrix orders(d, static_cast<int>(ns));
  for (std::size_t k = 0; k < ns; ++k) {
    order_score[k] = r.starts[k].order_score;
    final_score[k] = r.starts[k].score;
    moves[k] = r.starts[k].moves;
    bes_moves[k] = r.starts[k].bes_moves;
    for (int p = 0; p < d; ++p) orders(p, static_cast<int>(k)) = r.starts[k].order[p] + 1;
  }
  Rcpp::IntegerVector order(r.order.size());
  for (std::size_t p = 0; p < r.order.size(); ++p) order[p] = r.order[p] + 1;
  return Rcpp::List::create(
      Rcpp::Named("dag") = Eigen::MatrixXd(r.dag.cast<double>()),
      Rcpp::Named("cpdag") = Eigen::MatrixXd(r.cpdag.cast<double>()),
      Rcpp::Named("score") = r.score, Rcpp::Named("order") = order,
      Rcpp::Named("best_start") = r.best_start + 1, Rcpp::Named("orders") = orders,
      Rcpp::Named("kick_scores") = r.kick_scores, Rcpp::Named("kicks_improved") = r.kicks_improved,
      Rcpp::Named("starts") = Rcpp::DataFrame::create(
          Rcpp::Named("order_score") = order_score, Rcpp::Named("score") = final_score,
          Rcpp::Named("moves") = moves, Rcpp::Named("bes_moves") = bes_moves));
}
