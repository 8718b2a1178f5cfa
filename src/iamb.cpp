#include "iamb.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <exception>
#include <stdexcept>
#include <thread>
#include <utility>

namespace calm {

namespace {

// Residual variances below this (on the correlation scale) mean a variable
// is, to working precision, a linear function of the conditioning set; such
// a candidate carries no further information and is not tested.
constexpr double kDetermined = 1e-13;

double clamp_cor(double r) {
  if (!(r == r)) return 0.0;  // NaN from 0/0: no evidence of dependence
  return std::max(-1.0, std::min(1.0, r));
}

double residual_df(double n, int s) {
  double df = n - s - 3.0;
  if (!(df > 0.0)) {
    throw std::invalid_argument(
        "sample size too small for a Fisher-z test with this conditioning set");
  }
  return df;
}

}  // namespace

double CiTest::strength(double r, int s) const {
  r = clamp_cor(r);
  if (exact()) return std::abs(r);
  return std::abs(std::atanh(r)) * std::sqrt(residual_df(n, s));
}

double CiTest::p_value(double r, int s) const {
  r = clamp_cor(r);
  if (exact()) return std::abs(r) > zero_tol ? 0.0 : 1.0;
  double z = strength(r, s);
  return std::erfc(z / std::sqrt(2.0));
}

// Grow-shrink search for the blanket of one target t.
//
// Growth needs, for every candidate c, the partial correlation of t and c
// given the current blanket S. Both come from the residual covariance
// R = C - C[., S] C[S, S]^{-1} C[S, .], kept as C - U U^T where column k of U
// is the k-th column of the Cholesky factor of C in the order the members
// entered (a pivoted Cholesky factorisation, stopped after |S| steps).
// Adding a variable appends one column (O(d |S|)); the residual row of t and
// the residual variances then change by a rank-one term, so a growth step
// costs O(d |S|) instead of d fresh solves.
//
// Shrinking needs the partial correlation of t and each member j given the
// other members, -K[t, j] / sqrt(K[t, t] K[j, j]) with K the inverse of
// C[Q, Q], Q = S + {t}. The rows of U for Q already form the Cholesky factor
// of C[Q, Q], so K comes from one triangular inverse per target (no new
// factorisation); a member that leaves is removed from K by a Schur
// complement. (Building K by bordering during growth is cheaper still, but
// loses too much accuracy for the exact tests on ill-conditioned population
// covariances.)
namespace {
// Grow: add the candidate most dependent on the target given the blanket
// (or the first `keep` one) until none is dependent or the cap is reached.
// Returns the members in order of entry; column k of U is the k-th column of
// the partial Cholesky factor.
std::vector<int> grow_blanket(const Eigen::Ref<const Eigen::MatrixXd>& corr, int target, const IambOptions& options,
                              int cap, Eigen::MatrixXd& U, long long* n_tests, bool* capped) {
  const int d = static_cast<int>(corr.rows());
  const CiTest& test = options.test;
  std::vector<int> members;  // S, in order of entry
  std::vector<char> in_blanket(d, 0);
  in_blanket[target] = 1;
  Eigen::VectorXd res_t = corr.col(target);        // R[t, c]
  Eigen::VectorXd res_var = corr.diagonal();       // R[c, c]
  for (;;) {
    const int k = static_cast<int>(members.size());
    if (k >= cap) {
      *capped = k < d - 1;
      break;
    }
    // the blanket already determines the target (possible when n <= d): no
    // partial correlation with it is defined, and none is tested
    if (!(res_var[target] > kDetermined)) break;
    int best = -1;
    double best_strength = -1.0;
    const bool keeping = options.keep.size() != 0;
    if (keeping)
      for (int c = 0; c < d && best < 0; ++c)
        if (!in_blanket[c] && options.keep(target, c) != 0 && res_var[c] > kDetermined) best = c;
    const bool forced = best >= 0;
    for (int c = 0; c < d && !forced; ++c) {
      if (in_blanket[c] || !(res_var[c] > kDetermined)) continue;
      double r = res_t[c] / std::sqrt(res_var[target] * res_var[c]);
      ++*n_tests;
      if (!test.dependent(r, k)) continue;
      double st = test.strength(r, k);
      if (st > best_strength) {
        best_strength = st;
        best = c;
      }
    }
    if (best < 0) break;

    Eigen::VectorXd col = corr.col(best);
    if (k > 0) col.noalias() -= U.leftCols(k) * U.row(best).head(k).transpose();
    const double pivot = col[best];
    if (!(pivot > kDetermined)) break;  // only for a singular input (n <= d)
    col /= std::sqrt(pivot);
    res_t -= col * col[target];
    res_var -= col.cwiseAbs2();
    U.col(k) = col;
    members.push_back(best);
    in_blanket[best] = 1;
  }
  return members;
}

// Shrink: drop the weakest member while it is independent of the target
// given the others (members in `keep` stay), from the factor U of grow_blanket().
std::vector<int> shrink_blanket(const Eigen::Ref<const Eigen::MatrixXd>& corr, int target, const IambOptions& options,
                                std::vector<int> members, const Eigen::MatrixXd& U,
                                long long* n_tests) {
  const CiTest& test = options.test;
  // Q is ordered (members..., t): t sits at index m.
  int m = static_cast<int>(members.size());
  Eigen::MatrixXd L = Eigen::MatrixXd::Zero(m + 1, m + 1);
  for (int i = 0; i < m; ++i) L.row(i).head(i + 1) = U.row(members[i]).head(i + 1);
  L.row(m).head(m) = U.row(target).head(m);
  L(m, m) = std::sqrt(std::max(corr(target, target) - U.row(target).head(m).squaredNorm(),
                               kDetermined));
  Eigen::MatrixXd L_inv = L.triangularView<Eigen::Lower>().solve(
      Eigen::MatrixXd::Identity(m + 1, m + 1));
  Eigen::MatrixXd K = L_inv.transpose() * L_inv;

  while (m > 0) {
    const int s = m - 1;
    int weakest = -1;
    double weakest_strength = std::numeric_limits<double>::infinity();
    double weakest_r = 0.0;
    for (int i = 0; i < m; ++i) {
      if (options.keep.size() != 0 && options.keep(target, members[i]) != 0) continue;
      double r = -K(m, i) / std::sqrt(K(m, m) * K(i, i));
      ++*n_tests;
      double st = test.strength(r, s);
      if (st < weakest_strength) {
        weakest_strength = st;
        weakest = i;
        weakest_r = r;
      }
    }
    if (weakest < 0 || test.dependent(weakest_r, s)) break;

    // Inverse of C[Q \ j, Q \ j] from K by a Schur complement.
    std::vector<int> keep;
    keep.reserve(m);
    for (int i = 0; i <= m; ++i) if (i != weakest) keep.push_back(i);
    Eigen::MatrixXd K_new(m, m);
    const double kjj = K(weakest, weakest);
    for (int a = 0; a < m; ++a) {
      for (int c = 0; c < m; ++c) {
        K_new(a, c) = K(keep[a], keep[c]) - K(keep[a], weakest) * K(weakest, keep[c]) / kjj;
      }
    }
    K.swap(K_new);
    members.erase(members.begin() + weakest);
    --m;
  }
  return members;
}
}  // namespace

std::vector<int> iamb_target(const Eigen::Ref<const Eigen::MatrixXd>& corr, int target,
                             const IambOptions& options, long long* n_tests,
                             bool* capped) {
  const int d = static_cast<int>(corr.rows());
  const int cap = (options.max_size < 0 || options.max_size > d - 1)
                      ? d - 1 : options.max_size;
  *capped = false;
  Eigen::MatrixXd U(d, std::max(cap, 1));
  std::vector<int> members = grow_blanket(corr, target, options, cap, U, n_tests, capped);
  if (members.empty()) return members;
  return shrink_blanket(corr, target, options, std::move(members), U, n_tests);
}

IambResult iamb_all(const Eigen::Ref<const Eigen::MatrixXd>& corr, const IambOptions& options,
                    const std::function<bool()>& interrupted, int first, int last, int threads) {
  const int d = static_cast<int>(corr.rows());
  if (last < 0 || last > d) last = d;
  if (first < 0) first = 0;
  IambResult out;
  out.blankets.resize(d);
  std::vector<char> capped(d, 0);  // (vector<bool> packs bits: not one per thread)
  // the targets in turn, each taken by the next free thread; only the
  // caller's thread polls `interrupted` (it may call R), the helper stops
  // when the caller has
  std::atomic<int> next{first};
  std::atomic<bool> stop{false};
  auto run = [&](long long* n_tests, bool caller) {
    for (int t = next++; t < last; t = next++) {
      if (caller && interrupted && interrupted()) {
        stop.store(true);
        return;
      }
      if (!caller && stop.load()) return;
      bool c = false;
      out.blankets[t] = iamb_target(corr, t, options, n_tests, &c);
      capped[t] = c;
    }
  };
  long long helper_tests = 0;
  std::exception_ptr error;
  std::thread helper;
  if (threads > 1 && last - first > 1) {
    helper = std::thread([&] {
      try {
        run(&helper_tests, false);
      } catch (...) {
        error = std::current_exception();
      }
    });
  }
  try {
    run(&out.n_tests, true);
  } catch (...) {
    stop.store(true);
    if (helper.joinable()) helper.join();
    throw;
  }
  if (helper.joinable()) helper.join();
  if (error) std::rethrow_exception(error);
  out.n_tests += helper_tests;
  out.interrupted = stop.load();
  out.capped.assign(capped.begin(), capped.end());
  return out;
}

PrecisionResult precision_support(const Eigen::Ref<const Eigen::MatrixXd>& corr, const CiTest& test) {
  const int d = static_cast<int>(corr.rows());
  PrecisionResult out;
  Eigen::LLT<Eigen::MatrixXd> llt(corr);
  if (llt.info() != Eigen::Success) {
    throw std::invalid_argument("covariance matrix is not positive definite");
  }
  Eigen::MatrixXd K = llt.solve(Eigen::MatrixXd::Identity(d, d));
  Eigen::VectorXd scale = K.diagonal().cwiseSqrt().cwiseInverse();
  out.partial_cor = -(scale.asDiagonal() * K * scale.asDiagonal());
  out.partial_cor.diagonal().setZero();
  out.adjacency = Eigen::MatrixXi::Zero(d, d);
  const int s = d - 2;
  for (int j = 1; j < d; ++j) {
    for (int i = 0; i < j; ++i) {
      // Average the two triangles so the result is exactly symmetric.
      double r = 0.5 * (out.partial_cor(i, j) + out.partial_cor(j, i));
      out.partial_cor(i, j) = out.partial_cor(j, i) = r;
      ++out.n_tests;
      if (test.dependent(r, s)) out.adjacency(i, j) = out.adjacency(j, i) = 1;
    }
  }
  return out;
}

}  // namespace calm
