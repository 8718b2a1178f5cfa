#include "search_exact.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>
#include <string>

namespace calm {

namespace {

// Back-pointer value meaning "the set itself is its best subset".
constexpr std::uint8_t kSelf = 0xFF;
// How many elementary steps run between two calls of the interrupt callback.
constexpr std::uint64_t kInterruptEvery = std::uint64_t(1) << 16;

std::string format_bytes(double b) {
  char buf[64];
  if (b >= 1024.0 * 1024 * 1024)
    std::snprintf(buf, sizeof buf, "%.2f GB", b / (1024.0 * 1024 * 1024));
  else if (b >= 1024.0 * 1024)
    std::snprintf(buf, sizeof buf, "%.1f MB", b / (1024.0 * 1024));
  else
    std::snprintf(buf, sizeof buf, "%.0f bytes", b);
  return buf;
}

// Candidate parents of each node: its neighbours in the mask, increasing.
std::vector<std::vector<int>> candidate_sets(const IntMatrix& allowed, bool directed = false) {
  const int d = static_cast<int>(allowed.rows());
  if (allowed.cols() != d) throw std::invalid_argument("moral graph mask must be square");
  std::vector<std::vector<int>> cand(d);
  for (int j = 0; j < d; ++j) {
    for (int i = 0; i < d; ++i) {
      if (i == j) continue;
      if (!directed && (allowed(i, j) != 0) != (allowed(j, i) != 0))
        throw std::invalid_argument("moral graph mask must be symmetric");
      if (allowed(i, j) != 0) cand[j].push_back(i);
    }
  }
  return cand;
}

// Compression of a subset of the variables (bit i = variable i) to a subset
// of one node's candidates (bit b = candidates[b]), by four byte-wise lookup
// tables: a portable stand-in for the BMI2 pext instruction.
class Compressor {
 public:
  explicit Compressor(const std::vector<int>& candidates) : table_(4 * 256, 0u) {
    for (std::size_t b = 0; b < candidates.size(); ++b) {
      const int v = candidates[b];
      const int chunk = v / 8, bit = v % 8;
      for (int byte = 0; byte < 256; ++byte)
        if (byte & (1 << bit)) table_[chunk * 256 + byte] |= std::uint32_t(1) << b;
    }
  }
  std::uint32_t operator()(std::uint32_t s) const {
    return table_[s & 0xFFu] | table_[256 + ((s >> 8) & 0xFFu)] |
           table_[512 + ((s >> 16) & 0xFFu)] | table_[768 + (s >> 24)];
  }

 private:
  std::vector<std::uint32_t> table_;
};

// In place: s(T) -> min over U subset of T of s(U), one bit at a time; `from`
// gets, per T, the bit whose removal led to the minimum (kSelf: T itself).
// After bit b has been processed, tab[T] is the minimum over subsets of T
// that differ from T only in bits 0..b; following `from` from T therefore
// ends at a subset U of T with s(U) equal to the final tab[T].
void best_subsets_in_place(std::vector<double>& tab, std::vector<std::uint8_t>& from, int k,
                           std::uint64_t& work, const std::function<void()>& interrupt) {
  const std::size_t total = std::size_t(1) << k;
  from.assign(total, kSelf);
  for (int b = 0; b < k; ++b) {
    const std::size_t half = std::size_t(1) << b;
    for (std::size_t base = 0; base < total; base += 2 * half) {
      double* lo = &tab[base];
      double* hi = &tab[base + half];
      std::uint8_t* fr = &from[base + half];
      for (std::size_t i = 0; i < half; ++i) {
        if (lo[i] < hi[i]) {
          hi[i] = lo[i];
          fr[i] = static_cast<std::uint8_t>(b);
        }
      }
      work += half;
      if (work >= kInterruptEvery) {
        work = 0;
        if (interrupt) interrupt();
      }
    }
  }
}

}  // namespace

namespace {
double tables_bytes(const std::vector<std::vector<int>>& cand, int d) {
  const double per_entry = sizeof(double) + sizeof(std::uint8_t);
  double bytes = std::ldexp(per_entry, d);  // F and sinks
  for (const auto& c : cand) bytes += std::ldexp(per_entry, static_cast<int>(c.size()));
  bytes += static_cast<double>(cand.size()) * 4 * 256 * sizeof(std::uint32_t);  // compressors
  return bytes;
}
}  // namespace

namespace {
// The best-parent-set table of every node (bps[j][T]: the best score of j
// with parents within the candidate subset T), the subset each best comes
// from, and each node's compressor of variable sets to candidate subsets.
// With `required`, parent sets without all of j's required parents are
// infeasible.
struct ParentTables {
  std::vector<std::vector<double>> bps;
  std::vector<std::vector<std::uint8_t>> from;
  std::vector<Compressor> compress;
};

ParentTables best_parent_tables(const LocalScore& score, const std::vector<std::vector<int>>& cand,
                                const IntMatrix* required,
                                const std::function<void()>& interrupt) {
  const int d = score.dim();
  std::uint64_t work = 0;  // steps since the last interrupt check
  ParentTables t;
  t.bps.resize(d);
  t.from.resize(d);
  t.compress.reserve(d);
  for (int j = 0; j < d; ++j) {
    if (interrupt) interrupt();
    t.bps[j] = score.all_subset_scores(j, cand[j]);
    if (required != nullptr) {
      std::uint32_t need = 0;
      for (int i = 0; i < d; ++i) {
        if (i == j || (*required)(i, j) == 0) continue;
        const auto it = std::find(cand[j].begin(), cand[j].end(), i);
        if (it == cand[j].end())
          throw std::invalid_argument("a required parent is not among the allowed parents");
        need |= std::uint32_t(1) << (it - cand[j].begin());
      }
      if (need != 0)
        for (std::size_t s = 0; s < t.bps[j].size(); ++s)
          if ((s & need) != need) t.bps[j][s] = std::numeric_limits<double>::infinity();
    }
    best_subsets_in_place(t.bps[j], t.from[j], static_cast<int>(cand[j].size()), work, interrupt);
    t.compress.emplace_back(cand[j]);
  }
  return t;
}

// The optimal DAG and its order from the sink of every subset: the sink of
// the full set goes last, with its best parents among the rest, and so on.
ExactResult peel_sinks(const std::vector<std::uint8_t>& sink, const ParentTables& tables,
                       const std::vector<std::vector<int>>& cand, int d) {
  ExactResult res;
  res.dag = IntMatrix::Zero(d, d);
  res.order.assign(d, -1);
  std::uint32_t S = (std::uint32_t(1) << d) - 1;
  for (int pos = d - 1; pos >= 0; --pos) {
    const int j = sink[S];
    const std::uint32_t rest = S ^ (std::uint32_t(1) << j);
    std::uint32_t T = tables.compress[j](rest);
    while (tables.from[j][T] != kSelf) T ^= std::uint32_t(1) << tables.from[j][T];
    for (std::size_t b = 0; b < cand[j].size(); ++b)
      if (T & (std::uint32_t(1) << b)) res.dag(cand[j][b], j) = 1;
    res.order[pos] = j;
    S = rest;
  }
  return res;
}
}  // namespace

double exact_search_bytes(const IntMatrix& allowed) {
  return tables_bytes(candidate_sets(allowed), static_cast<int>(allowed.rows()));
}

ExactResult exact_search(const LocalScore& score, const IntMatrix& allowed, double max_bytes,
                         const std::function<void()>& interrupt) {
  return exact_search(score, allowed, nullptr, max_bytes, interrupt);
}

ExactResult exact_search(const LocalScore& score, const IntMatrix& allowed,
                         const IntMatrix* required, double max_bytes,
                         const std::function<void()>& interrupt) {
  const int d = score.dim();
  if (allowed.rows() != d || allowed.cols() != d)
    throw std::invalid_argument("moral graph mask and covariance differ in size");
  if (d < 1) throw std::invalid_argument("exact search needs at least one variable");
  if (d > kExactMaxNodes)
    throw std::invalid_argument("exact search is limited to " + std::to_string(kExactMaxNodes) +
                                " variables, not " + std::to_string(d) + " (it would need " +
                                format_bytes(std::ldexp(9.0, d)) +
                                " for the subset tables of the variables alone)");
  const std::vector<std::vector<int>> cand = candidate_sets(allowed, required != nullptr);
  if (required != nullptr && (required->rows() != d || required->cols() != d))
    throw std::invalid_argument("required-edge matrix and covariance differ in size");
  for (int j = 0; j < d; ++j) {
    if (static_cast<int>(cand[j].size()) > kExactMaxCandidates)
      throw std::invalid_argument("exact search allows at most " +
                                  std::to_string(kExactMaxCandidates) +
                                  " candidate parents per node; node " + std::to_string(j + 1) +
                                  " has " + std::to_string(cand[j].size()));
  }
  const double bytes = tables_bytes(cand, d);
  if (!(bytes <= max_bytes))
    throw std::invalid_argument("exact search needs about " + format_bytes(bytes) +
                                " of memory, more than the limit of " + format_bytes(max_bytes));

  // (a) + (b): best-parent-set tables, one per node.
  const ParentTables tables = best_parent_tables(score, cand, required, interrupt);
  const std::vector<std::vector<double>>& bps = tables.bps;
  const std::vector<Compressor>& compress = tables.compress;

  // (c): F over all subsets of the variables, in increasing order of the
  // bit mask (every S \ {j} comes before S).
  const std::uint32_t full = (std::uint32_t(1) << d) - 1;  // d <= 25
  const std::size_t n_sets = std::size_t(full) + 1;
  std::vector<double> F(n_sets);
  std::vector<std::uint8_t> sink(n_sets, 0);
  F[0] = 0;
  const double inf = std::numeric_limits<double>::infinity();
  for (std::size_t s = 1; s < n_sets; ++s) {
    const std::uint32_t S = static_cast<std::uint32_t>(s);
    double best = inf;
    int best_j = -1;
    for (std::uint32_t rem = S; rem != 0; rem &= rem - 1) {
      const int j = __builtin_ctz(rem);
      const std::uint32_t rest = S ^ (std::uint32_t(1) << j);
      const double v = F[rest] + bps[j][compress[j](rest)];
      // (<= keeps a sink when every choice is infeasible, +Inf with required edges)
      if (v < best || (best_j < 0 && v <= best)) {
        best = v;
        best_j = j;
      }
    }
    if (best_j < 0) {
      // only when a score is NaN; LocalScore never produces one
      throw std::runtime_error("exact search met a score that is not a number");
    }
    F[s] = best;
    sink[s] = static_cast<std::uint8_t>(best_j);
    if ((s & (kInterruptEvery - 1)) == 0 && interrupt) interrupt();
  }

  // (d): peel sinks off the full set.
  ExactResult res = peel_sinks(sink, tables, cand, d);
  res.score = F[full];
  res.bytes = bytes;
  return res;
}

}  // namespace calm
