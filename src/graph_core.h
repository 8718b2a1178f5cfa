// Graph algorithms on directed graphs given as dense 0/1 adjacency matrices
// (entry (i, j) nonzero means the edge i -> j). Pure C++ (no R headers).
#ifndef CALM_GRAPH_CORE_H
#define CALM_GRAPH_CORE_H

#include "calm_eigen.h"
#include <cstdint>
#include <vector>

namespace calm {

// Graphs, masks and knowledge hold small codes (0, 1, 2), one byte an entry:
// at d = 10,000 a d x d graph takes 0.1 GB, where int entries took 0.4 GB
// (a search holds several at once). Count with int, never by summing
// entries (a column sum could pass 127).
using GraphEntry = std::int8_t;
using IntMatrix = Eigen::Matrix<GraphEntry, Eigen::Dynamic, Eigen::Dynamic>;

// Background knowledge: required(i, j) != 0 for a required edge i -> j,
// forbidden(i, j) != 0 for a forbidden one; precedes(i, j) != 0 when i is in
// an earlier tier than j, so that order searches keep i before j (the
// forbidden matrix already holds the edges the tiers forbid). Empty
// matrices: none. Every search takes it as a pointer, null for none.
struct Knowledge {
  IntMatrix required, forbidden, precedes;
  bool empty() const { return required.size() == 0 && forbidden.size() == 0; }
  bool is_required(int i, int j) const { return required.size() != 0 && required(i, j) != 0; }
  bool is_forbidden(int i, int j) const { return forbidden.size() != 0 && forbidden(i, j) != 0; }
};

// Kahn's algorithm. Returns a topological order (0-based), or an empty vector
// when the graph has a directed cycle (d > 0).
std::vector<int> topological_order(const IntMatrix& adj);

bool is_dag(const IntMatrix& adj);

// CPDAG of a DAG by Chickering's (1995) edge-labelling algorithm: compelled
// edges stay directed, reversible ones become mutual pairs (i -> j and j -> i).
// Throws std::invalid_argument when adj is not acyclic.
IntMatrix dag_to_cpdag(const IntMatrix& adj);

// A DAG in the Markov equivalence class described by a PDAG (directed edges
// i -> j as adj(i, j) = 1, adj(j, i) = 0; undirected edges as mutual pairs),
// with every directed edge kept and no new v-structure (Dor and Tarsi 1992).
// Returns false when the PDAG has no such extension.
bool pdag_extension(const IntMatrix& pdag, IntMatrix& dag);
// The same extension as each vertex's parents (sorted), without a d x d
// result: the caller writes it where it is needed (an R matrix, at
// thousands of variables, without a dense copy to convert).
bool pdag_extension(const IntMatrix& pdag, std::vector<std::vector<int>>& parents);

// The edges of g as sorted lists, read column by column (an entry's
// transpose, read in the same loop, would cost a cache miss each: most of
// pdag_extension()'s time at thousands of variables): into[j] holds the i
// with g(i, j) != 0, from[i] the j with g(i, j) != 0; the diagonal is
// skipped. adjacent[v] (when not null): the union of into[v] and from[v].
void edge_lists(const IntMatrix& g, std::vector<std::vector<int>>& into,
                std::vector<std::vector<int>>& from,
                std::vector<std::vector<int>>* adjacent = nullptr);

// Moral graph: skeleton plus an edge between every two parents of a common
// child. Symmetric 0/1 result with zero diagonal.
IntMatrix moral_graph(const IntMatrix& adj);

// Removes edges until the weighted graph w (nonzero = edge) is acyclic: while
// a directed cycle remains, the edge of smallest |weight| among the edges that
// lie inside a strongly connected component is removed. Edges on no cycle are
// never touched. Returns the removed edges as (from, to) pairs in the order
// they were removed; w is modified in place.
std::vector<std::pair<int, int>> make_acyclic(Eigen::MatrixXd& w);

}  // namespace calm

#endif
