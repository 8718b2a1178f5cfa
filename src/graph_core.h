// Graph algorithms on directed graphs given as dense 0/1 adjacency matrices
// (entry (i, j) nonzero means the edge i -> j). Pure C++ (no R headers).
#ifndef CALM_GRAPH_CORE_H
#define CALM_GRAPH_CORE_H

#include <Eigen/Dense>
#include <vector>

namespace calm {

using IntMatrix = Eigen::Matrix<int, Eigen::Dynamic, Eigen::Dynamic>;

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
