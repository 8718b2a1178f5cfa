// Implementation of the CALM step kernel (see calm_kernel.h). Included by
// calm_kernel.cpp and calm_kernel_avx2.cpp, each with its own
// CALM_KERNEL_NS / CALM_KERNEL_ISA and after <Eigen/Dense>; everything
// defined here lives in calm::CALM_KERNEL_NS so that the two builds never
// share a symbol. Only Eigen and kernel-local types may be used here (no
// std containers of plain types, whose instantiations would be shared;
// std::vector<Block> is fine, Block being local).
//
// Notation per block (n nodes, entries e = (r_e, c_e) in local indices):
//   W = I - B, T = S W, q_c = (W^T S W)_cc = T_cc - sum_{e in column c} b_e T_{r_e c}
//   likelihood: 1/2 sum log q - log|det W|; d/dB_rc = -T_rc / q_c + (W^{-1})_cr
//   colide:     sum sqrt(q);                 d/dB_rc = -T_rc / sqrt(q_c)
//   poly:  X = I + A / d, R = X^(d-1), h = tr(R X) - n, dh/dA_rc = R_cr
//   exp:   R = exp(A), h = tr(R) - n, dh/dA_rc = R_cr
// (d is the number of nodes of the whole graph, also inside a block.)

#ifndef CALM_KERNEL_NS
#error "define CALM_KERNEL_NS before including calm_kernel_impl.h"
#endif

#include "adam.h"  // kernel-safe: templates only (see there)
#include "thread_team.h"  // kernel-safe: no inline code

namespace calm {
namespace CALM_KERNEL_NS {

using Mat = Eigen::MatrixXd;
using Vec = Eigen::VectorXd;
using Arr = Eigen::ArrayXd;
using IVec = Eigen::VectorXi;

struct Block {
  int n = 0;
  int e0 = 0;
  int ne = 0;
  bool sparse = false;  // few entries: use column updates instead of products
  bool full = false;    // every off-diagonal pair is an entry, column by column
  bool series = false;  // poly: h by its power series in sparse products (series_block)
  int series_skip = 0;  // steps left before the series is tried again
  IVec r, c;            // local row / column of each entry
  IVec lin, lin_t;      // linear index of (r, c) and of (c, r) in an n x n matrix
  IVec col_ptr, col_ent;  // entries of column j: col_ent[col_ptr[j] .. col_ptr[j + 1])
  Mat S, W, T, Winv, X, R, tmp;
  Mat Ht;                  // transposed half power (poly, blocks that are not complete)
  Mat e2, e4, e6, eu, ev;  // workspace of the matrix exponential
  Vec q, q_inv;
  Vec sel;                 // R[c, r] at the free entries (poly, selected last product)
  Vec rs, cs;              // row and column sums of N (poly, series_budget())
  Mat pack;                // series_part()'s packed row panels, one column per thread
  Eigen::PartialPivLU<Mat> lu;
  Eigen::PartialPivLU<Mat> lu_exp;
};

class Kernel final : public KernelBase {
 public:
  explicit Kernel(const KernelSetup& s)
      : d_(s.d), m_(s.m), gate_(s.gate), score_(s.score), acyc_(s.acyclicity),
        lambda1_(s.lambda1), poly_series_(s.poly_series), team_(team_size(s)) {
    inv_d_ = 1.0 / static_cast<double>(d_);
    a_.resize(m_);
    oma_.resize(m_);
    z_.resize(m_);
    b_.resize(m_);
    h_a_.resize(m_);
    g_b_.resize(m_);
    g_h_.resize(m_);
    IVec local = IVec::Constant(d_, -1);
    Eigen::Matrix<bool, Eigen::Dynamic, 1> in_block =
        Eigen::Matrix<bool, Eigen::Dynamic, 1>::Constant(d_, false);
    blocks_.resize(s.n_blocks);
    for (int b = 0; b < s.n_blocks; ++b) {
      Block& bk = blocks_[b];
      const int n0 = s.node_ptr[b];
      bk.n = s.node_ptr[b + 1] - n0;
      for (int i = 0; i < bk.n; ++i) {
        local(s.block_nodes[n0 + i]) = i;
        in_block(s.block_nodes[n0 + i]) = true;
      }
      index_block(bk, s, b, local);
      size_workspace(bk);
    }
    // Nodes without free entries: q_j = S_jj and no determinant term.
    const_score_ = 0.0;
    for (int j = 0; j < d_; ++j) {
      if (in_block(j)) continue;
      const double v = s.sigma[j + static_cast<long>(d_) * j];
      const_score_ += score_ == Score::likelihood ? 0.5 * std::log(v) : std::sqrt(v);
    }
  }

  // Block b's covariance and the index tables of its entries (local row and
  // column, linear indices, entries by column, and the sparse / full flags);
  // `local` maps the block's nodes to 0..n-1.
  void index_block(Block& bk, const KernelSetup& s, int b, const IVec& local) const {
    const int n0 = s.node_ptr[b];
    bk.S.resize(bk.n, bk.n);
    for (int j = 0; j < bk.n; ++j)
      for (int i = 0; i < bk.n; ++i)
        bk.S(i, j) = s.sigma[s.block_nodes[n0 + i] +
                             static_cast<long>(d_) * s.block_nodes[n0 + j]];
    bk.e0 = s.entry_ptr[b];
    bk.ne = s.entry_ptr[b + 1] - bk.e0;
    bk.r.resize(bk.ne);
    bk.c.resize(bk.ne);
    bk.lin.resize(bk.ne);
    bk.lin_t.resize(bk.ne);
    for (int k = 0; k < bk.ne; ++k) {
      bk.r(k) = local(s.from[bk.e0 + k]);
      bk.c(k) = local(s.to[bk.e0 + k]);
      bk.lin(k) = bk.r(k) + bk.n * bk.c(k);
      bk.lin_t(k) = bk.c(k) + bk.n * bk.r(k);
    }
    bk.col_ptr = IVec::Zero(bk.n + 1);
    for (int k = 0; k < bk.ne; ++k) ++bk.col_ptr(bk.c(k) + 1);
    for (int j = 0; j < bk.n; ++j) bk.col_ptr(j + 1) += bk.col_ptr(j);
    bk.col_ent.resize(bk.ne);
    {
      IVec next = bk.col_ptr.head(bk.n);
      for (int k = 0; k < bk.ne; ++k) bk.col_ent(next(bk.c(k))++) = k;
    }
    // A product costs n^3, column updates n * ne and vectorise less well.
    bk.sparse = 4L * bk.ne < static_cast<long>(bk.n) * bk.n;
    // Entries of a complete block in column-major order (as build_problem
    // lays them out) are contiguous column segments.
    bk.full = bk.ne == bk.n * (bk.n - 1);
    for (int k = 0; bk.full && k < bk.ne; ++k) {
      const int c = k / (bk.n - 1), i = k % (bk.n - 1);
      bk.full = bk.c(k) == c && bk.r(k) == (i < c ? i : i + 1);
    }
  }

  // The block's workspace, allocated once so that a step allocates nothing.
  void size_workspace(Block& bk) const {
    bk.W.resize(bk.n, bk.n);
    bk.T.resize(bk.n, bk.n);
    bk.Winv.resize(bk.n, bk.n);
    bk.X.resize(bk.n, bk.n);
    bk.R.resize(bk.n, bk.n);
    bk.tmp.resize(bk.n, bk.n);
    if (acyc_ == Acyclicity::poly && !bk.full) {
      bk.Ht.resize(bk.n, bk.n);
      bk.sel.resize(bk.ne);
    }
    bk.series = acyc_ == Acyclicity::poly && bk.sparse && poly_series_;
    if (bk.series) {
      bk.rs.resize(bk.n);
      bk.cs.resize(bk.n);
      // series_part()'s packed panels, one per thread (four packets of rows)
      const int rows = 4 * Eigen::internal::packet_traits<double>::size;
      bk.pack.resize(static_cast<Eigen::Index>(rows) * bk.n, team_.size());
    }
    if (acyc_ == Acyclicity::exp) {
      bk.e2.resize(bk.n, bk.n);
      bk.e4.resize(bk.n, bk.n);
      bk.e6.resize(bk.n, bk.n);
      bk.eu.resize(bk.n, bk.n);
      bk.ev.resize(bk.n, bk.n);
      bk.lu_exp = Eigen::PartialPivLU<Mat>(bk.n);
    }
    bk.q.resize(bk.n);
    bk.q_inv.resize(bk.n);
    bk.lu = Eigen::PartialPivLU<Mat>(bk.n);
  }

  const char* isa() const override { return CALM_KERNEL_ISA; }

  void adam(double* param, double* m1, double* m2, const double* grad, int n, double beta1,
            double beta2, double step, double c2, double eps) override {
    Eigen::Map<Arr> p(param, n), mm(m1, n), vv(m2, n);
    Eigen::Map<const Arr> g(grad, n);
    adam_update(p, mm, vv, g, beta1, beta2, step, c2, eps);
  }

  // The per-step hot path: gate forward, score and acyclicity per block,
  // gate backward. Each gate's forward and backward pass are side by side
  // in calm_kernel_gates.h, so that a gate changes in one place.
  void evaluate(const double* theta, const double* weight, const double* noise, double coef,
                bool quadratic, double* grad_theta, double* grad_weight,
                KernelValue* value) override {
    const bool want_grad = grad_weight != nullptr;
    Eigen::Map<const Arr> P(weight, m_);
    // a_ = A on the entries, b_ = B, h_a_ = what h() sees
    const double sparsity = gate_forward(theta, noise, P);

    double score = const_score_;
    double h = 0.0;
    bool finite = true;
    for (Block& bk : blocks_) {
      if (!score_block(bk, want_grad)) {
        finite = false;
        break;
      }
      score += block_score_;
      h += acyc_ == Acyclicity::poly ? poly_block(bk, want_grad) : exp_block(bk, want_grad);
    }
    if (!finite) {
      const double inf = std::numeric_limits<double>::infinity();
      value->objective = value->score = inf;
      value->sparsity = sparsity;
      value->h = value->constraint = std::numeric_limits<double>::quiet_NaN();
      return;
    }
    const double constraint = quadratic ? 0.5 * coef * h * h : coef * h;
    value->score = score;
    value->sparsity = sparsity;
    value->h = h;
    value->constraint = constraint;
    value->objective = score + sparsity + constraint;
    if (!want_grad) return;
    // chain rule back to the free parameters
    gate_backward(theta, P, quadratic ? coef * h : coef, grad_theta, grad_weight);
  }

 private:
  // The gates' forward passes fill a_, oma_, z_, b_ and h_a_ from the
  // parameters and return the sparsity penalty; the backward passes take
  // g_b_ and g_h_ (the score's and h's gradients wrt B and h's input) back
  // to the weights and the gate parameters (calm_kernel_gates.h).
  double gate_forward(const double* theta, const double* noise, const Eigen::Map<const Arr>& P);
  void gate_backward(const double* theta, const Eigen::Map<const Arr>& P, double dcoef,
                     double* grad_theta, double* grad_weight);
  double gumbel_forward(const double* theta, const double* noise, const Eigen::Map<const Arr>& P);
  void gumbel_backward(const Eigen::Map<const Arr>& P, double dcoef, double* grad_theta,
                       double* grad_weight);
  double stg_forward(const double* theta, const double* noise, const Eigen::Map<const Arr>& P);
  void stg_backward(const double* theta, const Eigen::Map<const Arr>& P, double dcoef,
                    double* grad_theta, double* grad_weight);
  double tanh_forward(const Eigen::Map<const Arr>& P);
  void tanh_backward(const Eigen::Map<const Arr>& P, double dcoef, double* grad_theta,
                     double* grad_weight);

  // Blocks of at least this many nodes have their matrix products, the
  // triangular solve of W's inverse and the selected last product split by
  // columns (entries) among the team's threads. Below it the hand-overs cost
  // what the split saves: whole fits on 2 cores took 1.09 times longer with
  // 2 threads at 100 nodes, the same at 130 and 160, 0.85 times as long at
  // 200 and 0.7 at 500 (inst/bench/bench_scaling.R, default vs default1).
  static constexpr int kParallelMin = 180;

  static int team_size(const KernelSetup& s) {
    if (s.threads < 2) return 1;
    for (int b = 0; b < s.n_blocks; ++b)
      if (s.node_ptr[b + 1] - s.node_ptr[b] >= kParallelMin) return s.threads;
    return 1;
  }

  // First column of part `part` of n columns split in `parts`: multiples of
  // 8, so that no part has a narrower panel than Eigen's kernel would use.
  // A column of a product, or of a triangular solve, is computed by the same
  // operations in the same order whatever other columns are computed with it
  // (Eigen blocks the inner dimension by its length only), so a split result
  // is the serial one bit for bit (test-threads.R checks whole fits).
  static Eigen::Index split_col(Eigen::Index n, int part, int parts) {
    if (part >= parts) return n;
    return (n * part / parts) / 8 * 8;
  }

  struct ProductJob {
    const Mat* a;
    const Mat* b;
    Mat* out;
    int parts;
  };

  static void product_part(void* p, int part) {
    const ProductJob& j = *static_cast<const ProductJob*>(p);
    const Eigen::Index n = j.b->cols();
    const Eigen::Index c0 = split_col(n, part, j.parts), c1 = split_col(n, part + 1, j.parts);
    if (c1 > c0) j.out->middleCols(c0, c1 - c0).noalias() = *j.a * j.b->middleCols(c0, c1 - c0);
  }

  // out = a * b (out distinct from both), split among the team's threads
  // when b has kParallelMin columns or more.
  void product(const Mat& a, const Mat& b, Mat& out) {
    if (team_.size() < 2 || b.cols() < kParallelMin) {
      out.noalias() = a * b;
      return;
    }
    ProductJob job{&a, &b, &out, team_.size()};
    team_.run(&Kernel::product_part, &job);
  }

  // Score of one block into block_score_, its gradient wrt b into g_b_.
  // Returns false when the score is not finite (I - B singular).
  bool score_block(Block& bk, bool want_grad) {
    const int ne = bk.ne;
    const double* b = b_.data() + bk.e0;
    const int* lin = bk.lin.data();
    if (bk.full) return score_full(bk, want_grad);
    const bool need_w = score_ == Score::likelihood || !bk.sparse;
    if (need_w) {
      bk.W.setIdentity();
      double* w = bk.W.data();
      for (int k = 0; k < ne; ++k) w[lin[k]] = -b[k];
    }
    if (bk.sparse) {
      bk.T = bk.S;
      for (int k = 0; k < ne; ++k) bk.T.col(bk.c(k)).noalias() -= b[k] * bk.S.col(bk.r(k));
    } else {
      product(bk.S, bk.W, bk.T);
    }
    const double* t = bk.T.data();
    bk.q = bk.T.diagonal();
    for (int k = 0; k < ne; ++k) bk.q(bk.c(k)) -= b[k] * t[lin[k]];
    if (!(bk.q.minCoeff() > 0.0)) return false;
    double* g = g_b_.data() + bk.e0;
    const int* col = bk.c.data();
    if (score_ == Score::likelihood) {
      bk.lu.compute(bk.W);
      const double logdet = bk.lu.matrixLU().diagonal().array().abs().log().sum();
      block_score_ = 0.5 * bk.q.array().log().sum() - logdet;
      if (!std::isfinite(block_score_)) return false;
      if (want_grad) {
        // (W^{-1})_cr = M_{c, perm(r)}, M = U^{-1} L^{-1} (see inverse_factors)
        inverse_factors(bk.lu, bk.Winv);
        bk.q_inv = bk.q.cwiseInverse();
        const double* qi = bk.q_inv.data();
        const double* wi = bk.Winv.data();
        const int* perm = bk.lu.permutationP().indices().data();
        const int* row = bk.r.data();
        const long n = bk.n;
        for (int k = 0; k < ne; ++k)
          g[k] = wi[col[k] + n * perm[row[k]]] - t[lin[k]] * qi[col[k]];
      }
    } else {
      bk.q = bk.q.array().sqrt();
      block_score_ = bk.q.sum();
      if (want_grad) {
        bk.q_inv = bk.q.cwiseInverse();
        const double* qi = bk.q_inv.data();
        for (int k = 0; k < ne; ++k) g[k] = -t[lin[k]] * qi[col[k]];
      }
    }
    return true;
  }

  // score_block for a complete block, with whole-matrix operations.
  bool score_full(Block& bk, bool want_grad) {
    const double* b = b_.data() + bk.e0;
    double* g = g_b_.data() + bk.e0;
    scatter_full(bk, b, -1.0, 1.0, bk.W);
    product(bk.S, bk.W, bk.T);
    bk.q = (bk.W.array() * bk.T.array()).colwise().sum().transpose();
    if (!(bk.q.minCoeff() > 0.0)) return false;
    if (score_ == Score::likelihood) {
      bk.lu.compute(bk.W);
      const double logdet = bk.lu.matrixLU().diagonal().array().abs().log().sum();
      block_score_ = 0.5 * bk.q.array().log().sum() - logdet;
      if (!std::isfinite(block_score_)) return false;
      if (want_grad) {
        inverse_factors(bk.lu, bk.Winv);
        // tmp = (W^{-1})^T: row r of it is column perm(r) of M
        const auto& perm = bk.lu.permutationP().indices();
        for (int r = 0; r < bk.n; ++r) bk.tmp.row(r) = bk.Winv.col(perm(r)).transpose();
        bk.q_inv = bk.q.cwiseInverse();
        bk.tmp.noalias() -= bk.T * bk.q_inv.asDiagonal();
        gather_full(bk, bk.tmp, g);
      }
    } else {
      bk.q = bk.q.array().sqrt();
      block_score_ = bk.q.sum();
      if (want_grad) {
        bk.q_inv = -bk.q.cwiseInverse();
        bk.tmp.noalias() = bk.T * bk.q_inv.asDiagonal();
        gather_full(bk, bk.tmp, g);
      }
    }
    return true;
  }

  // out = M = U^{-1} L^{-1} from the factors of P W = L U, so that
  // W^{-1} = M P: column r of W^{-1} is column perm(r) of M. L^{-1} is lower
  // triangular, and its columns are solved in blocks on the trailing rows
  // only (a sixth of n^3 multiply-adds instead of a half); U^{-1} L^{-1} is
  // then one triangular solve. Both work column by column, so a large block
  // is split by columns among the team's threads, at cuts that give each
  // part the same work (column j costs about (n - j)^2 / 2 + n^2 / 2).
  // No allocation.
  void inverse_factors(const Eigen::PartialPivLU<Mat>& lu, Mat& out) {
    const Mat& f = lu.matrixLU();
    const Eigen::Index n = f.rows();
    out.setIdentity();
    const int parts = team_.size();
    if (parts < 2 || n < kParallelMin) {
      inverse_columns(f, out, 0, n);
      return;
    }
    const double nn = static_cast<double>(n) * static_cast<double>(n);
    double total = 0.0;
    for (Eigen::Index j = 0; j < n; ++j)
      total += static_cast<double>((n - j) * (n - j)) + nn;
    cut_(0) = 0;
    double acc = 0.0;
    Eigen::Index j = 0;
    for (int p = 1; p < parts; ++p) {
      const double target = total * p / parts;
      while (j < n && (acc < target || j % 8 != 0)) {
        acc += static_cast<double>((n - j) * (n - j)) + nn;
        ++j;
      }
      cut_(p) = static_cast<int>(j);
    }
    cut_(parts) = static_cast<int>(n);
    InverseJob job{&f, &out, cut_.data()};
    team_.run(&Kernel::inverse_part, &job);
  }

  // Columns [c0, c1) of inverse_factors(); c0 a multiple of 8.
  static void inverse_columns(const Mat& f, Mat& out, Eigen::Index c0, Eigen::Index c1) {
    if (c1 <= c0) return;
    const Eigen::Index n = f.rows();
    const Eigen::Index bs = 8;
    for (Eigen::Index j0 = c0; j0 < c1; j0 += bs) {
      const Eigen::Index h = n - j0;
      const Eigen::Index w = c1 - j0 < bs ? c1 - j0 : bs;
      f.block(j0, j0, h, h).template triangularView<Eigen::UnitLower>().solveInPlace(
          out.block(j0, j0, h, w));
    }
    auto cols = out.middleCols(c0, c1 - c0);
    f.template triangularView<Eigen::Upper>().solveInPlace(cols);
  }

  struct InverseJob {
    const Mat* f;
    Mat* out;
    const int* cut;
  };

  static void inverse_part(void* p, int part) {
    const InverseJob& j = *static_cast<const InverseJob*>(p);
    inverse_columns(*j.f, *j.out, j.cut[part], j.cut[part + 1]);
  }

  // out = I * diag + scale * (entries v at (r, c)), for a complete block.
  static void scatter_full(const Block& bk, const double* v, double scale, double diag,
                           Mat& out) {
    const int n = bk.n;
    for (int c = 0; c < n; ++c) {
      const double* p = v + static_cast<long>(c) * (n - 1);
      out.col(c).head(c) = scale * Eigen::Map<const Vec>(p, c);
      out(c, c) = diag;
      out.col(c).tail(n - 1 - c) = scale * Eigen::Map<const Vec>(p + c, n - 1 - c);
    }
  }

  // v = the entries (r, c) of m, for a complete block.
  static void gather_full(const Block& bk, const Mat& m, double* v) {
    const int n = bk.n;
    for (int c = 0; c < n; ++c) {
      double* p = v + static_cast<long>(c) * (n - 1);
      Eigen::Map<Vec>(p, c) = m.col(c).head(c);
      Eigen::Map<Vec>(p + c, n - 1 - c) = m.col(c).tail(n - 1 - c);
    }
  }

  // out = in * (I + N), N holding the entries nval at (r, c).
  static void times_x(const Block& bk, const Mat& in, Mat& out, const double* nval) {
    out = in;
    for (int k = 0; k < bk.ne; ++k) out.col(bk.c(k)).noalias() += nval[k] * in.col(bk.r(k));
  }

  // out = in * X (X = bk.X = I + N): column updates on a sparse block, a
  // product otherwise.
  void right_times_x(const Block& bk, const Mat& in, Mat& out, const double* nval) {
    if (bk.sparse) {
      times_x(bk, in, out, nval);
    } else {
      product(in, bk.X, out);
    }
  }

  // out = X * X for X = I + N, N holding the entries nval at (r, c): the
  // sum of times_x(X) without its zero terms (column r of X is e_r plus the
  // entries of column r), added in the same order, so the result is the same.
  static void square_x(const Block& bk, const Mat& x, Mat& out, const double* nval) {
    out = x;
    const int* row = bk.r.data();
    const int* col = bk.c.data();
    const int* ptr = bk.col_ptr.data();
    const int* ent = bk.col_ent.data();
    for (int k = 0; k < bk.ne; ++k) {
      const int r = row[k], c = col[k];
      const double v = nval[k];
      out(r, c) += v;
      for (int i = ptr[r]; i < ptr[r + 1]; ++i) out(row[ent[i]], c) += v * nval[ent[i]];
    }
  }

  // h of one block (poly), its gradient wrt A into g_h_ (see the
  // derivation below).
  double poly_block(Block& bk, bool want_grad) {
    const int ne = bk.ne;
    const double* ha = h_a_.data() + bk.e0;
    // nval = A / d on the entries, kept in g_h_ until the gradient overwrites it
    double* nval = g_h_.data() + bk.e0;
    for (int k = 0; k < ne; ++k) nval[k] = ha[k] * inv_d_;
    double h_series = 0.0;
    if (bk.series && series_block(bk, nval, want_grad, &h_series)) return h_series;
    const int* lin = bk.lin.data();
    if (bk.full) {
      scatter_full(bk, nval, 1.0, 1.0, bk.X);
    } else {
      bk.X.setIdentity();
      double* x = bk.X.data();
      for (int k = 0; k < ne; ++k) x[lin[k]] = nval[k];
    }
    // R = X^p by left-to-right binary powering; products with X itself are
    // column updates when the block is sparse. For a block that is not
    // complete, the last squaring is not formed: only tr(X^d) and the entries
    // of R at the transposed free entries are needed, and with H = X^(p / 2)
    // and R = H H' (H' = H, or H X when p is odd) those are a trace of a
    // product and one short dot product per entry (see the end).
    //
    // The "selected last product", derived. X = I + N, N = A / d (the block's
    // free entries (r, c) only), h(A) = tr(X^d) - n, p = d - 1, R = X^p.
    //  1. Value: tr(X^d) = tr(R X) = tr(R) + tr(R N)
    //            = tr(R) + sum over free (r, c) of R[c, r] N[r, c],
    //     since N has no other nonzero entries.
    //  2. Gradient: d tr(X^d) / dX = d (X^(d-1))^T, and dX / dA = 1 / d, so
    //     dh / dA[r, c] = R^T[r, c] = R[c, r]: the same entries of R.
    //  So the value and the gradient need tr(R) and R[c, r] at the m free
    //  entries only, never all of R. Left-to-right powering that stops
    //  before its last bit leaves H = X^floor(p / 2), and R = H H' with
    //  H' = H (p even) or H' = H X (p odd). Then
    //     R[c, r] = sum_k H[c, k] H'[k, r] = Ht.col(c) . H'.col(r)   (Ht = H^T)
    //     tr(R)   = sum_{c,k} H[c, k] H'[k, c] = sum(Ht * H') (elementwise),
    //  which costs O(n) per free entry and O(n^2) for the trace, instead of
    //  the O(n^3) product H H'. A complete block has n (n - 1) free entries,
    //  so there forming R (and all of R^T as the gradient) is as cheap.
    //  test-score-gradients.R ("kernel objective and gradients match R
    //  formulas ...") checks this path (masks "partial", "ring", "blocks")
    //  and the complete one ("dense") against h written out in R.
    const int p = d_ - 1;
    int top = 0;
    while ((p >> (top + 1)) > 0) ++top;
    const bool select = !bk.full && top >= 2;
    power_x(bk, nval, p, top, select ? 1 : 0);
    if (bk.full) {
      // tr(X^d) = tr(R X) = sum(R^T * X); dh/dA_rc = (R^T)_rc
      bk.tmp = bk.R.transpose();
      const double tr_full = (bk.tmp.array() * bk.X.array()).sum();
      if (want_grad) gather_full(bk, bk.tmp, nval);
      return tr_full - static_cast<double>(bk.n);
    }
    if (select) return selected_trace(bk, nval, p, want_grad);
    // tr(X^d) = tr(R X) = tr(R) + sum_e R_ce N_rc
    const int* lin_t = bk.lin_t.data();
    const double* rr = bk.R.data();
    double tr = bk.R.trace();
    for (int k = 0; k < ne; ++k) tr += rr[lin_t[k]] * nval[k];
    if (want_grad)
      for (int k = 0; k < ne; ++k) nval[k] = rr[lin_t[k]];
    return tr - static_cast<double>(bk.n);
  }

  // The power series of h on a sparse block. With N = A / d (entries nval)
  // and binomial coefficients C(d, k),
  //   h        = tr((I + N)^d) - n     = sum_{k=1..d}   C(d, k) tr(N^k),
  //   dh/dA_rc = ((I + N)^(d-1))_cr    = sum_{k=1..d-1} C(d-1, k) (N^k)_cr
  // (the k = 0 terms cancel: tr(I) = n, and I_cr = 0 off the diagonal), with
  // C(d-1, k) = C(d, k) (d - k) / d. Q_k = C(d, k) N^k is formed by
  // Q_{k+1} = Q_k N (d - k) / (k + 1): column updates, ne * n operations a
  // term, against n^3 a product of the binary powering.
  //
  // Where to stop. N >= 0, and every entry of N^m is at most s^m with
  // s = min(largest row sum, largest column sum) of N. With a = d s and
  // C(d, j) / C(d, k) <= (d / (k + 1))^(j - k) for j > k, every later term
  // Q_j = Q_k N^(j-k) C(d, j) / C(d, k) has trace, and entries, at most
  // sum(Q_k) u^(j - k), u = a / (k + 1). So once u < 1 what is left of h and
  // of each gradient entry is at most sum(Q_k) u / (1 - u), and the series
  // stops when that is below kSeriesTol (at k = d it is complete). A block
  // whose series would cost more than the binary powering (about
  // kSeriesRatio times a product's time per n^2 ne operations, measured at
  // 500 and 1000 nodes) is given up and powered instead; so is the next
  // step's, for kSeriesRetry steps.
  static constexpr double kSeriesTol = 1e-13;
  static constexpr double kSeriesRatio = 4.0;
  static constexpr int kSeriesRetry = 50;

  // The most terms worth computing on this block (the binary powering's
  // cost in units of the series' terms), and a = d s into *a.
  int series_budget(Block& bk, const double* nval, double* a) const {
    const int n = bk.n;
    bk.rs.setZero();  // row sums of N
    bk.cs.setZero();  // column sums
    for (int k = 0; k < bk.ne; ++k) {
      bk.rs(bk.r(k)) += nval[k];
      bk.cs(bk.c(k)) += nval[k];
    }
    const double rmax = bk.rs.maxCoeff(), cmax = bk.cs.maxCoeff();
    *a = (rmax < cmax ? rmax : cmax) * static_cast<double>(d_);
    int top = 0;
    while (((d_ - 1) >> (top + 1)) > 0) ++top;
    const double terms = static_cast<double>(top) * n * n / (kSeriesRatio * bk.ne);
    return terms > d_ ? d_ : static_cast<int>(terms);
  }

  struct SeriesJob {
    const Block* bk;
    const Mat* q;
    Mat* out;
    Mat* pack;
    const double* nval;
    double f;
    int parts;
  };

  // Columns of part `part` of out = f * q * N (N's entries nval by column).
  // Rows go in panels of four SIMD packets, outermost, so that the panel of
  // q (a few rows x n) stays in cache while every column of the part reads
  // it; each panel of a column is summed in four registers over the
  // column's entries, in their order, and stored once.
  static void series_part(void* p, int part) {
    namespace ei = Eigen::internal;
    using Pk = ei::packet_traits<double>::type;
    constexpr int kp = ei::packet_traits<double>::size;
    constexpr int rows = 4 * kp;
    const SeriesJob& j = *static_cast<const SeriesJob*>(p);
    const Block& bk = *j.bk;
    const int n = bk.n;
    const int c0 = static_cast<int>(static_cast<long>(n) * part / j.parts);
    const int c1 = static_cast<int>(static_cast<long>(n) * (part + 1) / j.parts);
    const int* ptr = bk.col_ptr.data();
    const int* ent = bk.col_ent.data();
    const int* row = bk.r.data();
    const double* q = j.q->data();
    double* out = j.out->data();
    const int full = n / rows * rows;
    // this part's packed panel: the panel's rows of column m at m * rows
    double* pack = j.pack->col(part).data();
    for (int i0 = 0; i0 < full; i0 += rows) {
      for (int m = 0; m < n; ++m)
        for (int t = 0; t < rows; ++t) pack[m * rows + t] = q[static_cast<long>(m) * n + i0 + t];
      for (int c = c0; c < c1; ++c) {
        Pk a0 = ei::pset1<Pk>(0.0), a1 = a0, a2 = a0, a3 = a0;
        for (int i = ptr[c]; i < ptr[c + 1]; ++i) {
          const int e = ent[i];
          const Pk w = ei::pset1<Pk>(j.f * j.nval[e]);
          const double* src = pack + static_cast<long>(row[e]) * rows;
          a0 = ei::pmadd(w, ei::ploadu<Pk>(src), a0);
          a1 = ei::pmadd(w, ei::ploadu<Pk>(src + kp), a1);
          a2 = ei::pmadd(w, ei::ploadu<Pk>(src + 2 * kp), a2);
          a3 = ei::pmadd(w, ei::ploadu<Pk>(src + 3 * kp), a3);
        }
        double* dst = out + static_cast<long>(c) * n + i0;
        ei::pstoreu(dst, a0);
        ei::pstoreu(dst + kp, a1);
        ei::pstoreu(dst + 2 * kp, a2);
        ei::pstoreu(dst + 3 * kp, a3);
      }
    }
    for (int c = c0; c < c1; ++c) {
      for (int r = full; r < n; ++r) out[static_cast<long>(c) * n + r] = 0.0;
      for (int i = ptr[c]; i < ptr[c + 1]; ++i) {
        const int e = ent[i];
        const double w = j.f * j.nval[e];
        const double* src = q + static_cast<long>(row[e]) * n;
        double* dst = out + static_cast<long>(c) * n;
        for (int r = full; r < n; ++r) dst[r] += w * src[r];
      }
    }
  }

  // out = f * q * N, split by columns among the team's threads on a large
  // block; each entry is the same sum in the same order in any split.
  void series_product(Block& bk, const Mat& q, Mat& out, const double* nval, double f) {
    SeriesJob job{&bk, &q, &out, &bk.pack, nval, f, 1};
    if (team_.size() < 2 || bk.n < kParallelMin) {
      series_part(&job, 0);
      return;
    }
    job.parts = team_.size();
    team_.run(&Kernel::series_part, &job);
  }

  // h of a sparse block by the series above, its gradient wrt A into nval
  // when asked; false (nval untouched) when the series was given up.
  bool series_block(Block& bk, double* nval, bool want_grad, double* h_out) {
    if (bk.series_skip > 0) {
      --bk.series_skip;
      return false;
    }
    double a = 0.0;
    const int budget = series_budget(bk, nval, &a);
    const int ne = bk.ne;
    const double dd = static_cast<double>(d_);
    const int* lin = bk.lin.data();
    const int* lin_t = bk.lin_t.data();
    bk.R.setZero();  // Q_1 = d N
    double* q = bk.R.data();
    for (int k = 0; k < ne; ++k) q[lin[k]] = dd * nval[k];
    double* g = bk.sel.data();
    for (int k = 0; k < ne; ++k) g[k] = 0.0;
    double h = 0.0;
    for (int k = 1;; ++k) {
      const double* qk = bk.R.data();
      h += bk.R.trace();
      if (want_grad) {
        const double w = (dd - k) / dd;
        for (int e = 0; e < ne; ++e) g[e] += w * qk[lin_t[e]];
      }
      if (k >= d_) break;
      const double u = a / (k + 1.0);
      if (u < 1.0 && bk.R.sum() * u / (1.0 - u) < kSeriesTol) break;
      if (k >= budget) {
        bk.series_skip = kSeriesRetry;
        return false;
      }
      series_product(bk, bk.R, bk.tmp, nval, (dd - k) / (k + 1.0));
      bk.R.swap(bk.tmp);
    }
    if (want_grad)
      for (int k = 0; k < ne; ++k) nval[k] = g[k];
    *h_out = h;
    return true;
  }

  // bk.R = X^(p >> last): left-to-right binary powering over the bits of p
  // from `top` (its highest) down to `last`.
  void power_x(Block& bk, const double* nval, int p, int top, int last) {
    bk.R = bk.X;
    bool is_x = true;
    for (int bit = top - 1; bit >= last; --bit) {
      if (is_x && bk.sparse) {
        square_x(bk, bk.X, bk.tmp, nval);
      } else {
        product(bk.R, bk.R, bk.tmp);
      }
      bk.R.swap(bk.tmp);
      is_x = false;
      if ((p >> bit) & 1) {
        right_times_x(bk, bk.R, bk.tmp, nval);
        bk.R.swap(bk.tmp);
      }
    }
  }

  // poly_block's selected last product: bk.R holds H. With Ht = H^T:
  // R_ce = Ht.col(c) . H'.col(r) and tr(R) = sum(Ht * H'); returns h, and
  // the gradient into nval when asked.
  double selected_trace(Block& bk, double* nval, int p, bool want_grad) {
    const int ne = bk.ne;
    const Mat* hp = &bk.R;
    if (p & 1) {
      right_times_x(bk, bk.R, bk.tmp, nval);
      hp = &bk.tmp;
    }
    bk.Ht = bk.R.transpose();
    double tr = (bk.Ht.array() * hp->array()).sum();
    selected_entries(bk, *hp);
    const double* v = bk.sel.data();
    for (int k = 0; k < ne; ++k) tr += v[k] * nval[k];
    if (want_grad)
      for (int k = 0; k < ne; ++k) nval[k] = v[k];
    return tr - static_cast<double>(bk.n);
  }

  struct SelectJob {
    const Block* bk;
    const Mat* hp;
    Vec* sel;
    int parts;
  };

  static void select_part(void* p, int part) {
    const SelectJob& j = *static_cast<const SelectJob*>(p);
    const Block& bk = *j.bk;
    const long k0 = static_cast<long>(bk.ne) * part / j.parts;
    const long k1 = static_cast<long>(bk.ne) * (part + 1) / j.parts;
    const int* row = bk.r.data();
    const int* col = bk.c.data();
    double* v = j.sel->data();
    for (long k = k0; k < k1; ++k) v[k] = bk.Ht.col(col[k]).dot(j.hp->col(row[k]));
  }

  // bk.sel = Ht.col(c) . H'.col(r) at every free entry (r, c) (poly_block's
  // selected last product), the entries split among the team's threads on a
  // large block; each value is one dot product, the same in any split.
  void selected_entries(Block& bk, const Mat& hp) {
    SelectJob job{&bk, &hp, &bk.sel, 1};
    if (team_.size() < 2 || bk.n < kParallelMin) {
      select_part(&job, 0);
      return;
    }
    job.parts = team_.size();
    team_.run(&Kernel::select_part, &job);
  }

  // exp(A) of the block by scaling and squaring with the [7/7] Pade
  // approximant (Higham, 2005), into bk.R.
  double exp_block(Block& bk, bool want_grad) {
    const int ne = bk.ne;
    const double* ha = h_a_.data() + bk.e0;
    bk.X.setZero();
    for (int k = 0; k < ne; ++k) bk.X.data()[bk.lin(k)] = ha[k];
    const double norm1 = bk.X.cwiseAbs().colwise().sum().maxCoeff();
    const double theta7 = 0.9504178996162932;
    int s = 0;
    if (norm1 > theta7) s = static_cast<int>(std::ceil(std::log2(norm1 / theta7)));
    if (s > 0) bk.X *= std::ldexp(1.0, -s);
    static const double c[8] = {17297280.0, 8648640.0, 1995840.0, 277200.0,
                                25200.0,    1512.0,    56.0,      1.0};
    product(bk.X, bk.X, bk.e2);
    product(bk.e2, bk.e2, bk.e4);
    product(bk.e4, bk.e2, bk.e6);
    bk.tmp = c[7] * bk.e6 + c[5] * bk.e4 + c[3] * bk.e2;
    bk.tmp.diagonal().array() += c[1];
    product(bk.X, bk.tmp, bk.eu);
    bk.ev = c[6] * bk.e6 + c[4] * bk.e4 + c[2] * bk.e2;
    bk.ev.diagonal().array() += c[0];
    bk.tmp = bk.ev - bk.eu;
    bk.lu_exp.compute(bk.tmp);
    bk.e2 = bk.ev + bk.eu;
    bk.R.noalias() = bk.lu_exp.permutationP() * bk.e2;
    bk.lu_exp.matrixLU().template triangularView<Eigen::UnitLower>().solveInPlace(bk.R);
    bk.lu_exp.matrixLU().template triangularView<Eigen::Upper>().solveInPlace(bk.R);
    for (int i = 0; i < s; ++i) {
      product(bk.R, bk.R, bk.tmp);
      bk.R.swap(bk.tmp);
    }
    if (want_grad) {
      double* g = g_h_.data() + bk.e0;
      for (int k = 0; k < ne; ++k) g[k] = bk.R.data()[bk.lin_t(k)];
    }
    return bk.R.trace() - static_cast<double>(bk.n);
  }

  int d_, m_;
  GateParams gate_;
  Score score_;
  Acyclicity acyc_;
  double lambda1_;
  bool poly_series_;
  ThreadTeam team_;
  IVec cut_ = IVec::Zero(team_.size() + 1);  // column cuts of inverse_factors()
  double inv_d_ = 0.0;
  double const_score_ = 0.0;
  double block_score_ = 0.0;
  std::vector<Block> blocks_;
  Arr a_, oma_, z_, b_, h_a_, g_b_, g_h_;
};

}  // namespace CALM_KERNEL_NS
}  // namespace calm

#include "calm_kernel_gates.h"

namespace calm {
namespace CALM_KERNEL_NS {

KernelBase* make_kernel(const KernelSetup& setup) { return new Kernel(setup); }

}  // namespace CALM_KERNEL_NS
}  // namespace calm
