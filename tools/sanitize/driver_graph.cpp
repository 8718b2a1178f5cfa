// Sanitizer driver for the pure C++ graph core and acyclicity functions:
// exercises them on random and adversarial inputs, checking results that
// are known, so that AddressSanitizer / UndefinedBehaviorSanitizer see every
// code path. Built and run by tools/sanitize/run.sh.
#include <cmath>
#include <cstdio>
#include <random>
#include <stdexcept>

#include "acyclicity.h"
#include "adam.h"
#include "graph_core.h"
#include "sanitize_check.h"

using calm::IntMatrix;

static IntMatrix random_dag(int d, double p, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<int> perm(d);
  for (int i = 0; i < d; ++i) perm[i] = i;
  std::shuffle(perm.begin(), perm.end(), rng);
  IntMatrix a = IntMatrix::Zero(d, d);
  for (int i = 0; i < d; ++i)
    for (int j = i + 1; j < d; ++j)
      if (u(rng) < p) a(perm[i], perm[j]) = 1;
  return a;
}

int main() {
  std::mt19937_64 rng(42);
  for (int rep = 0; rep < 300; ++rep) {
    int d = 1 + static_cast<int>(rng() % 40);
    IntMatrix a = random_dag(d, 0.15, rng);
    CHECK(calm::is_dag(a));
    std::vector<int> ord = calm::topological_order(a);
    CHECK(static_cast<int>(ord.size()) == d);
    IntMatrix cp = calm::dag_to_cpdag(a);
    // every DAG edge is kept (directed or undirected), nothing is added
    for (int i = 0; i < d; ++i)
      for (int j = 0; j < d; ++j) {
        if (a(i, j)) CHECK(cp(i, j) == 1);
        if (cp(i, j) && !cp(j, i)) CHECK(a(i, j) == 1);
      }
    IntMatrix m = calm::moral_graph(a);
    CHECK(m == m.transpose());
    // a cycle: add a back edge along the order, then repair it
    Eigen::MatrixXd w = a.cast<double>();
    if (d >= 2) w(ord[d - 1], ord[0]) = 0.01;
    auto removed = calm::make_acyclic(w);
    IntMatrix wa = (w.array() != 0).cast<calm::GraphEntry>();
    CHECK(calm::is_dag(wa));
    bool threw = false;
    if (d >= 2 && removed.empty()) {
      try {
        calm::dag_to_cpdag((w.array() != 0).cast<calm::GraphEntry>());
      } catch (const std::invalid_argument&) {
        threw = true;
      }
      CHECK(!threw);
    }
    // acyclicity: zero on DAGs, positive with a cycle, gradient finite
    Eigen::MatrixXd A = a.cast<double>() * 0.7;
    Eigen::MatrixXd g;
    CHECK(std::abs(calm::h_poly(A, &g)) < 1e-8 * (1 + d));
    CHECK(g.allFinite());
    CHECK(std::abs(calm::h_exp(A, &g)) < 1e-8 * (1 + d));
    if (d >= 2) {
      A(ord[0], ord[1]) = 0.5;  // a 2-cycle
      A(ord[1], ord[0]) = 0.5;
      CHECK(calm::h_poly(A, nullptr) > 0);
      CHECK(calm::h_exp(A, nullptr) > 0);
    }
  }
  // cycles are rejected, empty graphs accepted
  IntMatrix cyc = IntMatrix::Zero(3, 3);
  cyc(0, 1) = cyc(1, 2) = cyc(2, 0) = 1;
  CHECK(!calm::is_dag(cyc));
  bool threw = false;
  try {
    calm::dag_to_cpdag(cyc);
  } catch (const std::invalid_argument&) {
    threw = true;
  }
  CHECK(threw);
  CHECK(calm::is_dag(IntMatrix::Zero(0, 0)));
  // Adam on a quadratic converges
  Eigen::MatrixXd x = Eigen::MatrixXd::Constant(3, 3, 5.0), grad(3, 3);
  calm::Adam<Eigen::MatrixXd> opt(3, 3, 0.1);
  for (int t = 0; t < 2000; ++t) {
    grad = 2 * x;
    opt.step(x, grad);
  }
  CHECK(x.cwiseAbs().maxCoeff() < 1e-2);
  return report("driver_graph");
}
