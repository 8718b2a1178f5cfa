#include "search_scan.h"

#include <cmath>

#include "parallel_for.h"

namespace calm {

namespace {

// The parents of j in `dag`.
std::vector<int> parents_of(Eigen::Ref<const Eigen::MatrixXd> dag, int j) {
  std::vector<int> pa;
  for (int i = 0; i < dag.rows(); ++i)
    if (dag(i, j) != 0) pa.push_back(i);
  return pa;
}

// The tails i of head j's improving insertions, increasing. It reads
// `score`, `dag` and `allowed` only, so heads may be examined at once.
std::vector<int> improving_tails(const LocalScore& score, Eigen::Ref<const Eigen::MatrixXd> dag,
                                 Eigen::Ref<const Eigen::MatrixXd> allowed, int j) {
  const int d = score.dim();
  std::vector<int> out;
  const std::vector<int> pa = parents_of(dag, j);
  const int k = static_cast<int>(pa.size());
  const auto s = score.node_cov(j);
  if (!score.admissible(j, k + 1, s(j, j))) return out;
  Eigen::VectorXd resid_cov(d), resid_var(d);
  if (k == 0) {
    resid_cov = s.col(j);
    resid_var = s.diagonal();
  } else {
    // rows pa of S, and S_pa,pa^-1 times them
    Eigen::MatrixXd s_pa(k, d);
    for (int a = 0; a < k; ++a) s_pa.row(a) = s.row(pa[a]);
    Eigen::MatrixXd s_papa(k, k);
    for (int a = 0; a < k; ++a)
      for (int b = 0; b < k; ++b) s_papa(a, b) = s(pa[a], pa[b]);
    Eigen::LLT<Eigen::MatrixXd> llt(s_papa);
    if (llt.info() != Eigen::Success) return out;
    const Eigen::MatrixXd coef = llt.solve(s_pa);
    resid_cov = s.col(j) - s_pa.transpose() * coef.col(j);
    resid_var = s.diagonal() - s_pa.cwiseProduct(coef).colwise().sum().transpose();
  }
  const double rv_j = resid_var(j);
  if (!(rv_j > 0)) return out;
  // the fit term falls by weight/2 * -log(1 - r^2) with r the partial
  // correlation; more than lambda when r^2 > 1 - exp(-2 lambda / weight)
  const double fit_drop = score.fit_term(j, rv_j) - score.lambda();
  const double rv_needed = score.rv_below(j, fit_drop);
  const double r2_min = 1.0 - rv_needed / rv_j;
  for (int i = 0; i < d; ++i) {
    if (i == j || dag(i, j) != 0 || allowed(i, j) != 0) continue;
    const double vi = resid_var(i);
    if (!(vi > LocalScore::kAdmissibleFloor * s(i, i))) continue;
    const double r2 = resid_cov(i) * resid_cov(i) / (vi * rv_j);
    if (r2 > r2_min && score.admissible(j, k + 1, rv_j * (1.0 - r2))) out.push_back(i);
  }
  return out;
}

}  // namespace

std::vector<std::pair<int, int>> improving_insertions(const LocalScore& score,
                                                      Eigen::Ref<const Eigen::MatrixXd> dag,
                                                      Eigen::Ref<const Eigen::MatrixXd> allowed,
                                                      int threads,
                                                      const std::function<void()>& interrupt) {
  const int d = score.dim();
  // each head's pairs apart, joined in the order of the heads
  std::vector<std::vector<int>> tails(d);
  parallel_for(
      d, threads,
      [&](std::size_t j) { tails[j] = improving_tails(score, dag, allowed, static_cast<int>(j)); },
      interrupt);
  std::vector<std::pair<int, int>> out;
  for (int j = 0; j < d; ++j)
    for (int i : tails[j]) out.emplace_back(i, j);
  return out;
}

}  // namespace calm
