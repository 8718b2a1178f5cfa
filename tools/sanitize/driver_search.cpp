// Sanitizer driver for the discrete searches on the local score: GES moves
// (ges_refine), the order search and the exact search, on random linear
// Gaussian covariances, checking properties that must hold (scores never
// worsen, results are DAGs, the exact optimum is never beaten). Built and run
// by tools/sanitize/run.sh.
#include <algorithm>
#include <cmath>
#include <random>

#include "search_boss.h"
#include "search_exact.h"
#include "search_ges.h"
#include "graph_core.h"
#include "search_score.h"
#include "search_order.h"
#include "search_scan.h"
#include "sanitize_check.h"

using calm::IntMatrix;

int main() {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (int rep = 0; rep < 40; ++rep) {
    const int d = 2 + static_cast<int>(rng() % 9);
    // random DAG in the identity order, weights +-[0.5, 2], data covariance
    Eigen::MatrixXd B = Eigen::MatrixXd::Zero(d, d);
    for (int i = 0; i < d; ++i)
      for (int j = i + 1; j < d; ++j)
        if (u(rng) < 0.3) B(i, j) = (u(rng) < 0.5 ? -1 : 1) * (0.5 + 1.5 * u(rng));
    const int n = 200;
    std::normal_distribution<double> z(0.0, 1.0);
    Eigen::MatrixXd X(n, d);
    for (int r = 0; r < n; ++r)
      for (int j = 0; j < d; ++j) {
        double v = z(rng);
        for (int i = 0; i < j; ++i) v += B(i, j) * X(r, i);
        X(r, j) = v;
      }
    Eigen::RowVectorXd mean = X.colwise().mean();
    X.rowwise() -= mean;
    Eigen::MatrixXd S = X.transpose() * X / n;
    calm::LocalScore score(S, 0.01);
    IntMatrix full = IntMatrix::Ones(d, d);
    for (int i = 0; i < d; ++i) full(i, i) = 0;
    calm::GesOptions opt;
    opt.forward = true;
    calm::GesResult g = calm::ges_refine(IntMatrix::Zero(d, d), score, full, opt, {});
    CHECK(g.score_after <= g.score_before + 1e-12);
    IntMatrix ext;
    CHECK(calm::pdag_extension(g.cpdag, ext));
    {
      // the scan beyond the pairs: nothing where every pair is allowed, and
      // with none allowed only new edges, each lowering its head's score
      const Eigen::MatrixXd dag = ext.cast<double>();
      const Eigen::MatrixXd all = full.cast<double>();
      CHECK(calm::improving_insertions(score, dag, all, 1, {}).empty());
      const Eigen::MatrixXd none = Eigen::MatrixXd::Zero(d, d);
      for (const auto& ij : calm::improving_insertions(score, dag, none, 2, {})) {
        CHECK(ij.first != ij.second && ext(ij.first, ij.second) == 0);
        std::vector<int> pa;
        for (int i = 0; i < d; ++i)
          if (ext(i, ij.second) != 0) pa.push_back(i);
        const double before = score.local(ij.second, pa);
        pa.push_back(ij.first);
        CHECK(score.local(ij.second, pa) < before);
      }
    }
    CHECK(calm::is_dag(ext));
    std::vector<int> order(d);
    for (int i = 0; i < d; ++i) order[i] = d - 1 - i;
    // grow-shrink trees with the plain and the longer grow step (grow_ratio)
    const double grow_ratio = rep % 4 < 2 ? 1.0 : 0.5;
    calm::OrderSearchResult o =
        calm::order_search(score, full, order, 50, 1e-10, rep % 2 ? 14 : 0, grow_ratio, {});
    CHECK(o.score <= o.score_start + 1e-12);
    CHECK(calm::is_dag(o.dag));
    calm::ExactResult e = calm::exact_search(score, full);
    CHECK(e.score <= g.score_after + 1e-9);
    CHECK(e.score <= o.score + 1e-9);
    CHECK(std::abs(score.dag_score(e.dag) - e.score) < 1e-9);
    // BOSS from two starts, grow-shrink trees (rep odd) or exact tables
    std::vector<std::vector<int>> starts = {order, std::vector<int>(d)};
    for (int i = 0; i < d; ++i) starts[1][i] = i;
    calm::BossOptions bo;
    bo.max_sweeps = 50;
    bo.tol = 1e-10;
    bo.exact_parents_max = rep % 2 ? 0 : 14;
    bo.grow_ratio = grow_ratio;
    bo.keep_graphs = true;  // every start's graph, as the minimum-risk step asks
    calm::BossResult b = calm::boss_search(score, full, starts, bo, {});
    CHECK(b.starts.size() == 2);
    for (const calm::BossStart& st : b.starts) CHECK(st.cpdag.rows() == d && st.cpdag.cols() == d);
    CHECK(b.starts[b.best_start].cpdag == b.cpdag);
    bo.keep_graphs = false;
    CHECK(calm::is_dag(b.dag));
    CHECK(b.score >= e.score - 1e-9);
    CHECK(std::abs(score.dag_score(b.dag) - b.score) < 1e-9);
    // kicks from the best order (moves to the first and last positions
    // included), alternating two grow ratios: never worse than the starts
    std::vector<calm::Kick> kicks(3);
    for (int k = 0; k < 3; ++k) {
      kicks[k].from = {k % d, d - 1, 0};
      kicks[k].to = {d - 1, 0, (k + 1) % d};
    }
    bo.kick_grow_ratios = {1.0, 0.5};
    calm::BossResult bk = calm::boss_search(score, full, starts, bo, {}, kicks);
    CHECK(bk.kick_scores.size() == 3);
    CHECK(bk.score <= b.score + 1e-12);
    CHECK(bk.score >= e.score - 1e-9);
    CHECK(calm::is_dag(bk.dag));
    CHECK(std::abs(score.dag_score(bk.dag) - bk.score) < 1e-9);
    std::vector<int> kicked = order;
    calm::apply_kick(kicked, kicks[0]);
    std::vector<int> sorted = kicked;
    std::sort(sorted.begin(), sorted.end());
    for (int i = 0; i < d; ++i) CHECK(sorted[i] == i);
    // background knowledge: require the reverse of one edge of the exact
    // optimum and forbid the edge itself; the constrained optima obey it
    // and never beat the free one
    if (d >= 2) {
      int ki = -1, kj = -1;
      for (int i = 0; i < d && ki < 0; ++i)
        for (int j = 0; j < d; ++j)
          if (e.dag(i, j) != 0) { ki = i; kj = j; break; }
      if (ki < 0) { ki = 0; kj = 1; }
      calm::Knowledge k;
      k.required = IntMatrix::Zero(d, d);
      k.forbidden = IntMatrix::Zero(d, d);
      k.required(kj, ki) = 1;
      k.forbidden(ki, kj) = 1;
      IntMatrix allowed = full;
      allowed(ki, kj) = 0;
      calm::ExactResult ek = calm::exact_search(score, allowed, &k.required, 1e9, {});
      CHECK(ek.dag(kj, ki) == 1 && ek.dag(ki, kj) == 0);
      CHECK(ek.score >= e.score - 1e-9);
      IntMatrix start_dag;
      const IntMatrix start = calm::dag_to_cpdag(ek.dag);
      CHECK(calm::knowledge_extension(start, k, start_dag));
      calm::GesOptions ko;
      ko.forward = true;
      ko.knowledge = &k;
      calm::GesResult gk = calm::ges_refine(start, score, full, ko, {});
      IntMatrix kdag;
      CHECK(calm::knowledge_extension(gk.cpdag, k, kdag));
      CHECK(kdag(kj, ki) == 1 && kdag(ki, kj) == 0);
      CHECK(gk.score_after >= ek.score - 1e-9);
    }
  }
  return report("driver_search");
}
