// Sanitizer driver for the moral graph core (src/iamb.{h,cpp}): IAMB with
// Fisher-z and exact tests, the precision-matrix support and the blocked
// covariance of data, on random covariances, population covariances of
// random DAGs and edge cases (d = 1 and 2, nearly singular matrices, blanket
// caps, the smallest sample sizes a test allows, interrupts). Results that
// are known are checked: exact IAMB and the precision support both return the
// moral graph of a (faithful) DAG. Built and run by tools/sanitize/run.sh.
#include <cmath>
#include <cstdio>
#include <limits>
#include <random>
#include <stdexcept>

#include "graph_core.h"
#include "iamb.h"
#include "moments.h"
#include "sanitize_check.h"
#include "sanitize_util.h"

namespace {

const double kInf = std::numeric_limits<double>::infinity();

// Blankets are valid index sets: in range, no duplicates, never the target,
// no larger than the cap; the capped flags only where the cap was reached.
void check_blankets(const calm::IambResult& res, int d, int cap) {
  CHECK(static_cast<int>(res.blankets.size()) == d);
  CHECK(static_cast<int>(res.capped.size()) == d);
  for (int t = 0; t < d; ++t) {
    std::vector<char> seen(d, 0);
    const auto& mb = res.blankets[t];
    CHECK(static_cast<int>(mb.size()) <= cap);
    for (int v : mb) {
      CHECK(v >= 0 && v < d);
      if (v < 0 || v >= d) continue;
      CHECK(v != t);
      CHECK(!seen[v]);
      seen[v] = 1;
    }
  }
}

calm::IntMatrix and_graph(const calm::IambResult& res, int d) {
  calm::IntMatrix in = calm::IntMatrix::Zero(d, d);
  for (int t = 0; t < d; ++t)
    for (int v : res.blankets[t]) in(t, v) = 1;
  return in.cwiseProduct(in.transpose());
}

calm::IambOptions options(double n, double alpha, int max_size) {
  calm::IambOptions o;
  o.test.n = n;
  o.test.alpha = alpha;
  o.max_size = max_size;
  return o;
}

const std::function<bool()> never = [] { return false; };

// Population covariances of random DAGs: exact tests recover the moral graph.
void population_cases(std::mt19937_64& rng) {
  int mismatches = 0, runs = 0;
  for (int rep = 0; rep < 60; ++rep) {
    const int d = 2 + static_cast<int>(rng() % 29);
    const double p = std::min(1.0, (1.0 + rep % 3) * 2.0 / std::max(d - 1, 1));
    calm::IntMatrix a = random_dag_matrix(d, p, rng);
    Eigen::MatrixXd B = random_weights(a, rng);
    Eigen::MatrixXd corr = to_correlation(population_cov(B, noise_variances(d, 16.0, rng)));
    const Eigen::MatrixXi truth = calm::moral_graph(a).cast<int>();

    calm::IambResult res = calm::iamb_all(corr, options(kInf, 0.01, -1), never);
    check_blankets(res, d, d - 1);
    CHECK(!res.interrupted);
    calm::PrecisionResult prec = calm::precision_support(corr, calm::CiTest());
    CHECK(prec.adjacency == prec.adjacency.transpose());
    CHECK(prec.partial_cor.allFinite());
    CHECK(prec.n_tests == static_cast<long long>(d) * (d - 1) / 2);
    ++runs;
    // Random weights are faithful with probability one, but an exact zero
    // test with a tolerance can still, rarely, disagree: count, do not fail.
    if (!(and_graph(res, d).cast<int>() == truth) || !(prec.adjacency == truth)) ++mismatches;

    // A huge finite n runs ordinary Fisher-z tests on the same matrix.
    calm::IambResult big = calm::iamb_all(corr, options(1e12, 0.01, -1), never);
    check_blankets(big, d, d - 1);
  }
  std::printf("population covariances: %d of %d runs differ from the moral graph\n",
              mismatches, runs);
  CHECK(mismatches <= runs / 20);
}

// Random covariances with finite n, several alphas and caps.
void random_cases(std::mt19937_64& rng) {
  for (int rep = 0; rep < 120; ++rep) {
    const int d = 1 + static_cast<int>(rng() % 40);
    const int k = 1 + static_cast<int>(rng() % (2 * d));
    Eigen::MatrixXd corr = to_correlation(random_covariance(d, k, 1e-3, rng));
    const double n = d + 5.0 + static_cast<double>(rng() % 500);
    const double alpha = (rep % 4 == 0) ? 0.5 : 0.01;
    // The R side caps blankets so that every test keeps n - s - 3 > 0.
    const int n_cap = static_cast<int>(std::ceil(n - 2.0)) - 1;
    int max_size = (rep % 5 == 0) ? static_cast<int>(rng() % 4) : -1;
    int cap = (max_size < 0 || max_size > d - 1) ? d - 1 : max_size;
    if (cap > n_cap) {
      cap = n_cap;
      max_size = n_cap;
    }
    calm::IambResult res = calm::iamb_all(corr, options(n, alpha, max_size), never);
    check_blankets(res, d, cap);
    // Growth stopped by the cap (the shrink phase may remove members later).
    for (int t = 0; t < d; ++t)
      if (res.capped[t]) CHECK(cap < d - 1);

    if (d >= 3) {
      Eigen::MatrixXd s = random_covariance(d, d + 3, 0.1, rng);
      calm::PrecisionResult prec = calm::precision_support(to_correlation(s),
                                                            options(d + 2.0, alpha, -1).test);
      CHECK(prec.adjacency == prec.adjacency.transpose());
      CHECK(prec.adjacency.diagonal().isZero());
    }
  }
}

void edge_cases(std::mt19937_64& rng) {
  // d = 1: nothing to test.
  Eigen::MatrixXd one = Eigen::MatrixXd::Ones(1, 1);
  calm::IambResult r1 = calm::iamb_all(one, options(kInf, 0.01, -1), never);
  CHECK(r1.blankets.size() == 1 && r1.blankets[0].empty());
  CHECK(calm::precision_support(one, calm::CiTest()).n_tests == 0);

  // d = 2: independent, dependent, nearly collinear.
  for (double r : {0.0, 0.3, -0.9, 1.0 - 1e-12}) {
    Eigen::MatrixXd c(2, 2);
    c << 1.0, r, r, 1.0;
    for (double n : {4.0, 10.0, 1e6, kInf}) {
      calm::IambResult res = calm::iamb_all(c, options(n, 0.01, -1), never);
      check_blankets(res, 2, 1);
      if (n == kInf) CHECK(res.blankets[0].size() == (r != 0.0 ? 1u : 0u));
    }
  }

  // Nearly singular: an exact copy of a variable plus a tiny perturbation,
  // and a matrix whose smallest eigenvalue is 1e-13 of the largest.
  for (int rep = 0; rep < 20; ++rep) {
    const int d = 3 + static_cast<int>(rng() % 15);
    Eigen::MatrixXd s = random_covariance(d, d + 2, 1e-2, rng);
    s.row(d - 1) = s.row(0);
    s.col(d - 1) = s.col(0);
    s(d - 1, d - 1) = s(0, 0) * (1.0 + 1e-10);
    Eigen::MatrixXd c = to_correlation(s);
    for (double n : {static_cast<double>(d + 10), kInf}) {
      calm::IambResult res = calm::iamb_all(c, options(n, 0.05, -1), never);
      check_blankets(res, d, d - 1);
    }
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(random_covariance(d, d, 0.0, rng));
    Eigen::VectorXd ev = es.eigenvalues();
    ev[0] = ev[d - 1] * 1e-13;
    Eigen::MatrixXd ill = to_correlation(es.eigenvectors() * ev.asDiagonal() *
                                         es.eigenvectors().transpose());
    ill = 0.5 * (ill + ill.transpose());
    calm::IambResult res = calm::iamb_all(ill, options(kInf, 0.01, -1), never);
    check_blankets(res, d, d - 1);
    // The precision support either succeeds or refuses with an exception.
    try {
      calm::PrecisionResult prec = calm::precision_support(ill, calm::CiTest());
      CHECK(prec.adjacency == prec.adjacency.transpose());
    } catch (const std::invalid_argument&) {
    }
  }

  // Not positive definite: the precision support throws, IAMB stays in bounds.
  Eigen::MatrixXd bad(3, 3);
  bad << 1, 0.9, 0.9, 0.9, 1, -0.9, 0.9, -0.9, 1;
  bool threw = false;
  try {
    calm::precision_support(bad, calm::CiTest());
  } catch (const std::invalid_argument&) {
    threw = true;
  }
  CHECK(threw);
  check_blankets(calm::iamb_all(bad, options(kInf, 0.01, -1), never), 3, 2);

  // NaN entries (kept out by the R checks) must not send the search out of
  // bounds either.
  Eigen::MatrixXd nan = Eigen::MatrixXd::Identity(4, 4);
  nan(0, 1) = nan(1, 0) = std::numeric_limits<double>::quiet_NaN();
  check_blankets(calm::iamb_all(nan, options(50.0, 0.01, -1), never), 4, 3);

  // Caps: 0 (no growth at all), 1, and beyond d - 1.
  Eigen::MatrixXd c = to_correlation(random_covariance(12, 4, 0.05, rng));
  for (int cap : {0, 1, 2, 11, 50}) {
    calm::IambResult res = calm::iamb_all(c, options(kInf, 0.01, cap), never);
    check_blankets(res, 12, std::min(cap, 11));
  }

  // A blanket of size m needs n > m + 2 (every test keeps n - s - 3 > 0):
  // at that boundary the search runs; with n <= 3 even the first test has no
  // degrees of freedom and refuses with an exception, never undefined
  // behaviour (the R side rejects such n before calling).
  for (int m = 1; m <= 4; ++m) {
    calm::IambResult res = calm::iamb_all(c, options(m + 2.5, 0.5, m), never);
    check_blankets(res, 12, m);
  }
  for (double n : {3.0, 2.0, 0.5, -1.0}) {
    threw = false;
    try {
      calm::iamb_all(c, options(n, 0.5, -1), never);
    } catch (const std::invalid_argument&) {
      threw = true;
    }
    CHECK(threw);
  }

  // Interrupts: stop after three targets.
  int polls = 0;
  calm::IambResult stopped = calm::iamb_all(
      c, options(kInf, 0.01, -1), [&polls] { return ++polls > 3; });
  CHECK(stopped.interrupted);
  CHECK(polls == 4);
}

// The blocked covariance of data matches a direct computation, across block
// boundaries, with constant columns flagged.
void covariance_cases(std::mt19937_64& rng) {
  for (int n : {1, 2, 7, 2047, 2048, 2049, 5000}) {
    const int d = 1 + static_cast<int>(rng() % 6);
    calm::IntMatrix a = random_dag_matrix(d, 0.5, rng);
    Eigen::MatrixXd x = sem_data(random_weights(a, rng), noise_variances(d, 16.0, rng), n, rng);
    x.array() += 1e3;  // an offset, so that centring matters
    if (d >= 2) x.col(d - 1).setConstant(3.25);
    std::vector<bool> constant;
    Eigen::MatrixXd s = calm::data_covariance(x.data(), n, d, &constant);
    Eigen::MatrixXd centred = x.rowwise() - x.colwise().mean();
    Eigen::MatrixXd ref = centred.transpose() * centred / static_cast<double>(n);
    CHECK(s.allFinite());
    CHECK((s - ref).cwiseAbs().maxCoeff() <= 1e-9 * (1.0 + ref.cwiseAbs().maxCoeff()));
    CHECK(static_cast<int>(constant.size()) == d);
    if (d >= 2) CHECK(constant[d - 1]);
    if (n == 1)
      for (int j = 0; j < d; ++j) CHECK(constant[j]);
  }
}

}  // namespace

int main() {
  std::mt19937_64 rng(20250107);
  population_cases(rng);
  random_cases(rng);
  edge_cases(rng);
  covariance_cases(rng);
  return report("driver_iamb");
}
