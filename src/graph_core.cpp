#include "graph_core.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <functional>
#include <iterator>
#include <queue>
#include <stdexcept>

namespace calm {

namespace {

std::vector<std::vector<int>> children_lists(const IntMatrix& adj) {
  const int d = static_cast<int>(adj.rows());
  std::vector<std::vector<int>> ch(d);
  for (int j = 0; j < d; ++j)
    for (int i = 0; i < d; ++i)
      if (adj(i, j) != 0 && i != j) ch[i].push_back(j);
  return ch;
}

// Tarjan's strongly connected components, iterative. comp[v] is the component
// id of v.
std::vector<int> strong_components(const std::vector<std::vector<int>>& ch) {
  const int d = static_cast<int>(ch.size());
  std::vector<int> index(d, -1), low(d, 0), comp(d, -1), stack;
  std::vector<char> on_stack(d, 0);
  std::vector<std::pair<int, std::size_t>> call;  // (node, next child index)
  int counter = 0, n_comp = 0;
  for (int s = 0; s < d; ++s) {
    if (index[s] >= 0) continue;
    call.push_back({s, 0});
    index[s] = low[s] = counter++;
    stack.push_back(s);
    on_stack[s] = 1;
    while (!call.empty()) {
      int v = call.back().first;
      std::size_t& k = call.back().second;
      if (k < ch[v].size()) {
        int w = ch[v][k++];
        if (index[w] < 0) {
          index[w] = low[w] = counter++;
          stack.push_back(w);
          on_stack[w] = 1;
          call.push_back({w, 0});
        } else if (on_stack[w]) {
          low[v] = std::min(low[v], index[w]);
        }
      } else {
        if (low[v] == index[v]) {
          int w;
          do {
            w = stack.back();
            stack.pop_back();
            on_stack[w] = 0;
            comp[w] = n_comp;
          } while (w != v);
          ++n_comp;
        }
        call.pop_back();
        if (!call.empty()) {
          int u = call.back().first;
          low[u] = std::min(low[u], low[v]);
        }
      }
    }
  }
  return comp;
}

}  // namespace

std::vector<int> topological_order(const IntMatrix& adj) {
  const int d = static_cast<int>(adj.rows());
  std::vector<std::vector<int>> ch = children_lists(adj);
  std::vector<int> indeg(d, 0);
  for (int i = 0; i < d; ++i)
    for (int j : ch[i]) ++indeg[j];
  std::vector<int> order;
  order.reserve(d);
  for (int i = 0; i < d; ++i)
    if (indeg[i] == 0) order.push_back(i);
  for (std::size_t k = 0; k < order.size(); ++k)
    for (int j : ch[order[k]])
      if (--indeg[j] == 0) order.push_back(j);
  for (int i = 0; i < d; ++i)
    if (adj(i, i) != 0) return {};
  if (static_cast<int>(order.size()) != d) return {};
  return order;
}

bool is_dag(const IntMatrix& adj) {
  return adj.rows() == 0 || !topological_order(adj).empty();
}

IntMatrix dag_to_cpdag(const IntMatrix& adj) {
  const int d = static_cast<int>(adj.rows());
  IntMatrix out = IntMatrix::Zero(d, d);
  if (d == 0) return out;
  std::vector<int> order = topological_order(adj);
  if (order.empty()) throw std::invalid_argument("the graph has a directed cycle");
  std::vector<int> pos(d);
  for (int k = 0; k < d; ++k) pos[order[k]] = k;

  // Parents of each node, sorted by decreasing topological position: this is
  // the order in which Chickering's procedure visits the edges into a node.
  std::vector<std::vector<int>> pa(d);
  for (int j = 0; j < d; ++j) {
    for (int i = 0; i < d; ++i)
      if (adj(i, j) != 0) pa[j].push_back(i);
    std::sort(pa[j].begin(), pa[j].end(),
              [&](int a, int b) { return pos[a] > pos[b]; });
  }
  // label(i, j) for the edge i -> j: 0 unknown, 1 compelled, 2 reversible.
  IntMatrix label = IntMatrix::Zero(d, d);
  std::vector<char> is_parent_of_y(d, 0);

  for (int k = 0; k < d; ++k) {
    const int y = order[k];
    for (int p : pa[y]) is_parent_of_y[p] = 1;
    for (int x : pa[y]) {
      if (label(x, y) != 0) continue;
      bool done = false;
      // Compelled edges into x.
      for (int w : pa[x]) {
        if (label(w, x) != 1) continue;
        if (!is_parent_of_y[w]) {
          for (int z : pa[y]) label(z, y) = 1;
          done = true;
          break;
        }
        label(w, y) = 1;
      }
      if (done) break;  // every edge into y is now labelled
      bool compelled = false;
      for (int z : pa[y]) {
        if (z != x && adj(z, x) == 0) {
          compelled = true;
          break;
        }
      }
      for (int z : pa[y])
        if (label(z, y) == 0) label(z, y) = compelled ? 1 : 2;
    }
    for (int p : pa[y]) is_parent_of_y[p] = 0;
  }
  for (int j = 0; j < d; ++j)
    for (int i : pa[j]) {
      out(i, j) = 1;
      if (label(i, j) == 2) out(j, i) = 1;
    }
  return out;
}

IntMatrix moral_graph(const IntMatrix& adj) {
  const int d = static_cast<int>(adj.rows());
  IntMatrix m = IntMatrix::Zero(d, d);
  std::vector<int> pa;
  for (int j = 0; j < d; ++j) {
    pa.clear();
    for (int i = 0; i < d; ++i)
      if (adj(i, j) != 0 && i != j) pa.push_back(i);
    for (std::size_t a = 0; a < pa.size(); ++a) {
      m(pa[a], j) = m(j, pa[a]) = 1;
      for (std::size_t b = a + 1; b < pa.size(); ++b) m(pa[a], pa[b]) = m(pa[b], pa[a]) = 1;
    }
  }
  return m;
}

std::vector<std::pair<int, int>> make_acyclic(Eigen::MatrixXd& w) {
  const int d = static_cast<int>(w.rows());
  std::vector<std::pair<int, int>> removed;
  for (int i = 0; i < d; ++i)
    if (w(i, i) != 0) {
      w(i, i) = 0;
      removed.push_back({i, i});
    }
  while (true) {
    IntMatrix adj = (w.array() != 0).cast<GraphEntry>();
    std::vector<int> comp = strong_components(children_lists(adj));
    int best_i = -1, best_j = -1;
    double best = std::numeric_limits<double>::infinity();
    for (int j = 0; j < d; ++j)
      for (int i = 0; i < d; ++i)
        if (w(i, j) != 0 && comp[i] == comp[j] && std::abs(w(i, j)) < best) {
          best = std::abs(w(i, j));
          best_i = i;
          best_j = j;
        }
    if (best_i < 0) break;
    w(best_i, best_j) = 0;
    removed.push_back({best_i, best_j});
  }
  return removed;
}

}  // namespace calm

namespace calm {

void edge_lists(const IntMatrix& g, std::vector<std::vector<int>>& into,
                std::vector<std::vector<int>>& from, std::vector<std::vector<int>>* adjacent) {
  const int d = static_cast<int>(g.rows());
  into.assign(d, {});
  from.assign(d, {});
  for (int j = 0; j < d; ++j) {
    const GraphEntry* col = g.data() + static_cast<std::ptrdiff_t>(j) * d;
    for (int i = 0; i < d; ++i)
      if (col[i] != 0 && i != j) {
        into[j].push_back(i);
        from[i].push_back(j);
      }
  }
  if (!adjacent) return;
  adjacent->assign(d, {});
  for (int v = 0; v < d; ++v)
    std::set_union(into[v].begin(), into[v].end(), from[v].begin(), from[v].end(),
                   std::back_inserter((*adjacent)[v]));
}

bool pdag_extension(const IntMatrix& pdag, IntMatrix& dag) {
  std::vector<std::vector<int>> parents;
  if (!pdag_extension(pdag, parents)) return false;
  const int d = static_cast<int>(pdag.rows());
  dag = IntMatrix::Zero(d, d);
  for (int j = 0; j < d; ++j)
    for (int i : parents[j]) dag(i, j) = 1;
  return true;
}

bool pdag_extension(const IntMatrix& pdag, std::vector<std::vector<int>>& parents) {
  const int d = static_cast<int>(pdag.rows());
  parents.assign(d, {});
  // adjacency lists and the number of directed edges out of each vertex:
  // removing a vertex only deletes its own edges, so among the vertices
  // still `alive` the PDAG's entries stay right, and a vertex is a sink when
  // its count is 0
  std::vector<std::vector<int>> into, from, adj;
  edge_lists(pdag, into, from, &adj);
  std::vector<int> out_directed(d, 0);
  for (int j = 0; j < d; ++j) {
    auto it = from[j].begin();
    for (int i : into[j]) {  // i -> j: directed unless j -> i too
      while (it != from[j].end() && *it < i) ++it;
      if (it == from[j].end() || *it != i) {
        parents[j].push_back(i);
        ++out_directed[i];
      }
    }
  }
  std::vector<std::vector<int>>().swap(into);  // freed: only `adj` is needed below
  std::vector<std::vector<int>>().swap(from);
  auto g = [&](int a, int b) { return pdag(a, b) != 0; };
  std::vector<char> alive(d, 1);
  auto adjacent = [&](int a, int b) { return g(a, b) || g(b, a); };
  // a sink x whose undirected neighbours are each adjacent to every other
  // vertex adjacent to x
  auto removable = [&](int x) {
    if (!alive[x] || out_directed[x] != 0) return false;
    for (int y : adj[x]) {
      if (!alive[y] || !(g(x, y) && g(y, x))) continue;
      for (int z : adj[x])
        if (z != y && alive[z] && !adjacent(y, z)) return false;
    }
    return true;
  };
  // The smallest removable vertex goes first. Removing a vertex only deletes
  // edges, so a removable vertex stays removable: a heap of those found so
  // far, with the neighbours of each removed vertex checked again, gives the
  // same choices as a scan from the first vertex at every step, without its
  // d^2 checks.
  std::priority_queue<int, std::vector<int>, std::greater<int>> ready;
  std::vector<char> queued(d, 0);
  for (int x = 0; x < d; ++x)
    if (removable(x)) {
      ready.push(x);
      queued[x] = 1;
    }
  for (int removed = 0; removed < d; ++removed) {
    if (ready.empty()) return false;
    const int pick = ready.top();
    ready.pop();
    for (int y : adj[pick]) {
      if (!alive[y]) continue;
      if (g(pick, y) && g(y, pick)) parents[pick].push_back(y);  // undirected: into x
      if (g(y, pick) && !g(pick, y)) --out_directed[y];
    }
    alive[pick] = 0;
    for (int y : adj[pick])
      if (alive[y] && !queued[y] && removable(y)) {
        ready.push(y);
        queued[y] = 1;
      }
  }
  for (auto& p : parents) std::sort(p.begin(), p.end());
  return true;
}

}  // namespace calm
