// Exact structure search: the DAG that minimises calm's decomposable score
// (src/search_score.h) globally, by dynamic programming over subsets of the
// variables (Silander and Myllymaki, 2006), optionally restricted to a moral
// graph. Pure C++, no R headers.
//
// For node j let C_j be its neighbours in the mask `allowed` (its candidate
// parents). The search
//   (a) tabulates s(j, T) for every T subset of C_j;
//   (b) turns that table, in place, into best-parent-set values
//       bps_j(T) = min over U subset of T of s(j, U), with a one-byte
//       back-pointer per entry from which the minimising U is recovered;
//   (c) computes F(S), the best score of a DAG on the variables in S whose
//       parents lie in S, for all 2^d subsets S:
//         F(S) = min over j in S of F(S \ {j}) + bps_j((S \ {j}) n C_j),
//       keeping the minimising j (the sink of S);
//   (d) peels sinks off the full set to get an optimal order and each node's
//       parents.
// Time O(sum_j 2^|C_j| |C_j|^2 + d 2^d); memory 9 bytes per table entry plus
// 9 bytes per subset of the variables (see exact_search_bytes()).
#ifndef CALM_EXACT_SEARCH_H
#define CALM_EXACT_SEARCH_H

#include <cstdint>
#include <functional>
#include <vector>

#include "graph_core.h"
#include "search_score.h"

namespace calm {

// Largest number of variables the search accepts (F and the sink table have
// 2^d entries).
constexpr int kExactMaxNodes = 25;
// Largest number of candidate parents of one node (LocalScore's limit).
constexpr int kExactMaxCandidates = 30;
// Default memory limit: 4 GB.
constexpr double kExactDefaultMaxBytes = 4.0 * 1024 * 1024 * 1024;

struct ExactResult {
  IntMatrix dag;           // adj(i, j) = 1: i -> j
  double score = 0;        // optimal total score, sum_j s(j, pa(j))
  std::vector<int> order;  // an optimal topological order (0-based, sources first)
  double bytes = 0;        // memory the tables took
};

// Bytes of memory the search needs for this mask (tables only): 9 per subset
// of each node's candidates plus 9 per subset of the variables. Returned as a
// double so that it cannot overflow. Throws std::invalid_argument when the
// mask is not a square symmetric matrix.
double exact_search_bytes(const IntMatrix& allowed);

// With background knowledge: `allowed` may be asymmetric (allowed(i, j) != 0:
// i may be a parent of j; a forbidden edge is a zero) and every nonzero
// required(i, j) makes i a parent of j in the result (it must be allowed).
// The required edges must be acyclic, otherwise the optimum is +Inf.
ExactResult exact_search(const LocalScore& score, const IntMatrix& allowed,
                         const IntMatrix* required, double max_bytes,
                         const std::function<void()>& interrupt = std::function<void()>());

// The global optimum of `score` over DAGs whose skeleton lies inside
// `allowed` (symmetric; nonzero off-diagonal = the edge may appear in either
// direction; the diagonal is ignored). Throws std::invalid_argument when the
// mask does not match the score's dimension, when d > kExactMaxNodes, when a
// node has more than kExactMaxCandidates candidates, or when the memory
// needed exceeds `max_bytes` (the message gives the amount). `interrupt`, when
// set, is called every 2^16 subsets or so (and between nodes while the
// tables are built); it may throw to abort the search.
ExactResult exact_search(const LocalScore& score, const IntMatrix& allowed,
                         double max_bytes = kExactDefaultMaxBytes,
                         const std::function<void()>& interrupt = std::function<void()>());

}  // namespace calm

#endif
