// Random inputs shared by the sanitizer drivers: DAGs, linear Gaussian SEMs
// and their population covariances, and random covariance matrices.
#ifndef CALM_SANITIZE_UTIL_H
#define CALM_SANITIZE_UTIL_H
#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include <Eigen/Dense>

#include "graph_core.h"

// ER DAG on d nodes along a random order; each forward pair is an edge with
// probability p.
static calm::IntMatrix random_dag_matrix(int d, double p, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<int> perm(d);
  for (int i = 0; i < d; ++i) perm[i] = i;
  std::shuffle(perm.begin(), perm.end(), rng);
  calm::IntMatrix a = calm::IntMatrix::Zero(d, d);
  for (int i = 0; i < d; ++i)
    for (int j = i + 1; j < d; ++j)
      if (u(rng) < p) a(perm[i], perm[j]) = 1;
  return a;
}

// Weights uniform on [-2, -0.5] U [0.5, 2] on the edges of `a` (the paper's
// simulation design).
static Eigen::MatrixXd random_weights(const calm::IntMatrix& a, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> mag(0.5, 2.0);
  std::bernoulli_distribution sign(0.5);
  Eigen::MatrixXd B = Eigen::MatrixXd::Zero(a.rows(), a.cols());
  for (int i = 0; i < a.rows(); ++i)
    for (int j = 0; j < a.cols(); ++j)
      if (a(i, j)) B(i, j) = sign(rng) ? mag(rng) : -mag(rng);
  return B;
}

// (I - B)^{-T} diag(omega) (I - B)^{-1}.
static Eigen::MatrixXd population_cov(const Eigen::MatrixXd& B, const Eigen::VectorXd& omega) {
  const int d = static_cast<int>(B.rows());
  Eigen::MatrixXd inv = (Eigen::MatrixXd::Identity(d, d) - B).inverse();
  Eigen::MatrixXd s = inv.transpose() * omega.asDiagonal() * inv;
  return 0.5 * (s + s.transpose());
}

static Eigen::VectorXd noise_variances(int d, double ratio, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(1.0, ratio);
  Eigen::VectorXd omega(d);
  for (int i = 0; i < d; ++i) omega[i] = u(rng);
  return omega;
}

static Eigen::MatrixXd to_correlation(const Eigen::MatrixXd& s) {
  Eigen::VectorXd inv_sd = s.diagonal().cwiseSqrt().cwiseInverse();
  Eigen::MatrixXd c = inv_sd.asDiagonal() * s * inv_sd.asDiagonal();
  c.diagonal().setOnes();
  return c;
}

// A random positive definite matrix: G G^T / k + ridge I with G d x k Gaussian.
static Eigen::MatrixXd random_covariance(int d, int k, double ridge, std::mt19937_64& rng) {
  std::normal_distribution<double> z(0.0, 1.0);
  Eigen::MatrixXd g(d, k);
  for (int i = 0; i < d; ++i)
    for (int j = 0; j < k; ++j) g(i, j) = z(rng);
  Eigen::MatrixXd s = g * g.transpose() / k;
  s.diagonal().array() += ridge;
  return s;
}

// n x d data of the SEM, column-major, for covariance accumulation tests.
static Eigen::MatrixXd sem_data(const Eigen::MatrixXd& B, const Eigen::VectorXd& omega, int n,
                                std::mt19937_64& rng) {
  const int d = static_cast<int>(B.rows());
  std::normal_distribution<double> z(0.0, 1.0);
  Eigen::MatrixXd noise(n, d);
  for (int j = 0; j < d; ++j)
    for (int i = 0; i < n; ++i) noise(i, j) = z(rng) * std::sqrt(omega[j]);
  // rows x = x B + e  =>  x = e (I - B)^{-1}
  Eigen::MatrixXd inv = (Eigen::MatrixXd::Identity(d, d) - B).inverse();
  return noise * inv;
}
#endif
