// The scan of the refinement beyond its pairs (R/search-scan.R): every pair
// whose single edge, added to a DAG, would improve the local score of its
// head by more than the penalty. Pure C++ (Eigen); the glue is in
// src/rcpp_search_scan.cpp.
#ifndef CALM_SEARCH_SCAN_H
#define CALM_SEARCH_SCAN_H

#include <functional>
#include <utility>
#include <vector>

#include "calm_eigen.h"
#include "search_score.h"

namespace calm {

// The pairs (i, j), 0-based, with adj(i, j) == 0, allowed(i, j) == 0 and
// i != j, where adding i to the parents of j in the DAG `dag` (dag(i, j) != 0:
// i -> j) lowers s(j, .) by more than the penalty and leaves an admissible
// parent set, ordered by j, then i. For each j this costs O(d |pa(j)|^2):
// the residual covariances of every variable with j given pa(j) in one
// pass. The heads are spread over `threads` threads (parallel_for.h), with
// the same result for any number. `interrupt` is called between nodes on
// the caller's thread (it may throw).
std::vector<std::pair<int, int>> improving_insertions(const LocalScore& score,
                                                      Eigen::Ref<const Eigen::MatrixXd> dag,
                                                      Eigen::Ref<const Eigen::MatrixXd> allowed,
                                                      int threads,
                                                      const std::function<void()>& interrupt);

}  // namespace calm

#endif
