// Profiled scores of a linear Gaussian SEM with non-equal noise variances,
// as functions of the weighted adjacency B (B[i, j] is the edge i -> j) and
// the covariance S. With W = I - B and q_j = (W^T S W)_jj, the residual
// variance of node j:
//
//   likelihood (GOLEM-NV with the noise variances profiled out):
//     L(B) = 1/2 sum_j log q_j - log|det W|,
//     dL/dB = -S W diag(1 / q) + W^{-T}.
//   colide (CoLiDE-NV with Omega profiled out): minimising
//     sum_j q_j / (2 s_j) + s_j / 2 over s_j = omega_j^(1/2) > 0 gives
//     s_j = sqrt(q_j), so the profiled score is
//     C(B) = sum_j sqrt(q_j),  dC/dB = -S W diag(1 / sqrt(q)).
//
// These dense versions are the reference used by the tests, by the final
// objective and by GOLEM-NV (whose likelihood is L); the optimizer uses the block-wise kernel
// (calm_kernel.h), which computes the same quantities.
#ifndef CALM_SCORE_H
#define CALM_SCORE_H

#include "calm_eigen.h"

#include "calm_kernel.h"

namespace calm {

// The pieces the profiled scores (and GOLEM's likelihoods, src/golem.cpp)
// are made of, at B: T = S W, the residual variances q and, with_lu, the LU
// factors of W and log|det W|.
struct ProfiledTerms {
  Eigen::MatrixXd T;
  Eigen::ArrayXd q;
  Eigen::PartialPivLU<Eigen::MatrixXd> lu;
  double logdet = 0.0;
};
ProfiledTerms profiled_terms(const Eigen::MatrixXd& S, const Eigen::MatrixXd& B, bool with_lu);

// Value of the score; grad (if not null) receives its gradient wrt B.
// Returns +Inf when I - B is singular (likelihood), and then leaves grad
// unchanged.
double score_value(Score score, const Eigen::MatrixXd& S, const Eigen::MatrixXd& B,
                   Eigen::MatrixXd* grad);

}  // namespace calm

#endif
