#include "moments.h"

#include "thread_team.h"

#include <algorithm>
#include <atomic>
#include <cmath>

namespace calm {

namespace {

using RowBlock = Eigen::Map<const Eigen::MatrixXd, 0, Eigen::OuterStride<>>;

// Rows [start, start + rows) of the n x d column-major `x`, minus `centre`,
// added to the lower triangle of `S` with weight `weight`.
void add_rows(const double* x, long n, long d, long start, long rows,
              const Eigen::VectorXd& centre, double weight, Eigen::Map<Eigen::MatrixXd>& S,
              Eigen::MatrixXd& work) {
  RowBlock part(x + start, rows, d, Eigen::OuterStride<>(n));
  work = part.rowwise() - centre.transpose();
  S.selfadjointView<Eigen::Lower>().rankUpdate(work.transpose(), weight);
}

const long ROW_BLOCK = 2048;

// Above PANEL_MIN_D columns the lower triangle is summed in PANELS column
// panels of about equal area, which the threads take in turn: each panel's
// product is the same whichever thread computes it, so the covariance is
// the same, bit for bit, for any number of threads. (At 5000 variables and
// 3000 rows the one product took 6 s, a tenth of a fit on two threads.)
const long PANEL_MIN_D = 1000;
const int PANELS = 16;

// Columns [first[p], first[p + 1]) form panel p.
std::vector<long> panel_starts(long d) {
  std::vector<long> first(PANELS + 1, d);
  for (int p = 0; p < PANELS; ++p) {
    // the area of the lower triangle left of column c is d c - c^2 / 2
    const double share = static_cast<double>(p) / PANELS;
    first[p] = static_cast<long>(static_cast<double>(d) * (1.0 - std::sqrt(1.0 - share)));
  }
  return first;
}

// The panels of one row block, on a ThreadTeam: each part takes the next
// panel until none is left, and adds work[, c:d]' work[, panel] to the
// panel's rows c:d of S (the part above the diagonal is overwritten later).
struct PanelJob {
  const Eigen::MatrixXd* work;
  Eigen::Map<Eigen::MatrixXd>* S;
  const std::vector<long>* first;
  std::atomic<int> next{0};
  static void part(void* ctx, int) {
    PanelJob& j = *static_cast<PanelJob*>(ctx);
    const long d = j.S->cols();
    for (int p = j.next++; p < PANELS; p = j.next++) {
      const long c0 = (*j.first)[p], c1 = (*j.first)[p + 1];
      if (c1 <= c0) continue;
      j.S->block(c0, c0, d - c0, c1 - c0).noalias() +=
          j.work->rightCols(d - c0).transpose() * j.work->middleCols(c0, c1 - c0);
    }
  }
};

}  // namespace

void data_covariance(const double* x, long n, long d, std::vector<bool>* constant, double* out,
                     int threads) {
  using ColMap = Eigen::Map<const Eigen::VectorXd>;
  Eigen::VectorXd mean(d);
  constant->assign(d, false);
  for (long j = 0; j < d; ++j) {
    ColMap col(x + j * n, n);
    double m = col.sum() / static_cast<double>(n);
    // Second pass removes most of the rounding of the first (as R's mean()).
    m += (col.array() - m).sum() / static_cast<double>(n);
    mean[j] = m;
    const double first = col[0];
    (*constant)[j] = (col.array() == first).all();
  }
  Eigen::Map<Eigen::MatrixXd> S(out, d, d);
  S.setZero();
  Eigen::MatrixXd work;
  if (d < PANEL_MIN_D) {
    for (long start = 0; start < n; start += ROW_BLOCK) {
      add_rows(x, n, d, start, std::min(ROW_BLOCK, n - start), mean, 1.0, S, work);
    }
  } else {
    const std::vector<long> first = panel_starts(d);
    ThreadTeam team(std::max(1, std::min(threads, PANELS)));
    for (long start = 0; start < n; start += ROW_BLOCK) {
      RowBlock part(x + start, std::min(ROW_BLOCK, n - start), d, Eigen::OuterStride<>(n));
      work = part.rowwise() - mean.transpose();
      PanelJob job{&work, &S, &first};
      team.run(&PanelJob::part, &job);
    }
  }
  // in place: at 10,000 variables each copy of S is 0.8 GB
  S.triangularView<Eigen::StrictlyUpper>() = S.transpose();
  S /= static_cast<double>(n);
}

Eigen::MatrixXd data_covariance(const double* x, long n, long d, std::vector<bool>* constant,
                                int threads) {
  Eigen::MatrixXd S(d, d);
  data_covariance(x, n, d, constant, S.data(), threads);
  return S;
}

void training_covariance(const double* cov, const double* mu, long n, const double* held,
                         long nt, long d, double* out) {
  Eigen::Map<const Eigen::VectorXd> centre(mu, d);
  Eigen::Map<Eigen::MatrixXd> S(out, d, d);
  if (out != cov) S = Eigen::Map<const Eigen::MatrixXd>(cov, d, d);
  S *= static_cast<double>(n);
  Eigen::MatrixXd work;
  for (long start = 0; start < nt; start += ROW_BLOCK) {
    add_rows(held, nt, d, start, std::min(ROW_BLOCK, nt - start), centre, -1.0, S, work);
  }
  const double n_train = static_cast<double>(n - nt);
  // the training rows' mean minus the mean of all rows
  Eigen::VectorXd shift = Eigen::VectorXd::Zero(d);
  for (long j = 0; j < d; ++j) {
    Eigen::Map<const Eigen::VectorXd> col(held + j * nt, nt);
    shift[j] = -(col.array() - centre[j]).sum() / n_train;
  }
  S.triangularView<Eigen::StrictlyUpper>() = S.transpose();
  S /= n_train;
  S.noalias() -= shift * shift.transpose();
}

CovarianceCheck covariance_check(const double* s, const double* sd, long d, double dup_above) {
  CovarianceCheck out;
  // column blocks, so that the entries read across (s_ji) stay in cache
  const long block = 64;
  for (long j0 = 0; j0 < d; j0 += block) {
    const long j1 = std::min(d, j0 + block);
    for (long i = 0; i < j1; ++i) {
      for (long j = std::max(i, j0); j < j1; ++j) {
        const double up = s[i + j * d], low = s[j + i * d];
        // as R divides: by the row's sd, then by the column's
        const double r_up = up / sd[i] / sd[j], r_low = low / sd[j] / sd[i];
        if (!std::isfinite(r_up) || !std::isfinite(r_low)) out.finite = false;
        if (up != low) out.symmetric = false;
        out.asymmetry = std::max(out.asymmetry, std::fabs(r_up - r_low));
        if (i < j && std::fabs(r_up) > dup_above) ++out.duplicated;
      }
    }
  }
  return out;
}

void covariance_to_correlation(const double* s, long d, double* out) {
  std::vector<double> is(d);
  for (long i = 0; i < d; ++i) is[i] = std::sqrt(1.0 / s[i + i * d]);
  for (long j = 0; j < d; ++j) {
    for (long i = 0; i < d; ++i) out[i + j * d] = is[i] * s[i + j * d] * is[j];
    out[j + j * d] = 1.0;
  }
}

std::vector<char> empty_columns(const double* x, long n, long d) {
  std::vector<char> empty(d, 1);
  for (long j = 0; j < d; ++j) {
    const double* col = x + j * n;
    for (long i = 0; i < n; ++i)
      if (!std::isnan(col[i])) {
        empty[j] = 0;
        break;
      }
  }
  return empty;
}

std::vector<char> constant_columns(const double* x, long n, long d) {
  std::vector<char> constant(d, 1);
  for (long j = 0; j < d; ++j) {
    const double* col = x + j * n;
    for (long i = 1; i < n; ++i)
      if (col[i] != col[0]) {
        constant[j] = 0;
        break;
      }
  }
  return constant;
}

bool any_infinite(const double* x, long size) {
  for (long k = 0; k < size; ++k)
    if (std::isinf(x[k])) return true;
  return false;
}

}  // namespace calm
