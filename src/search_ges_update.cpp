#include "search_ges_update.h"

#include <algorithm>
#include <functional>
#include <queue>
#include <stdexcept>

namespace calm {

namespace {

bool has_edge(const IntMatrix& g, int a, int b) { return g(a, b) != 0; }
bool undirected(const IntMatrix& g, int a, int b) { return g(a, b) != 0 && g(b, a) != 0; }
bool adjacent_in(const IntMatrix& g, int a, int b) { return g(a, b) != 0 || g(b, a) != 0; }

void insert_sorted(std::vector<int>& s, int x) {
  auto it = std::lower_bound(s.begin(), s.end(), x);
  if (it == s.end() || *it != x) s.insert(it, x);
}
void erase_sorted(std::vector<int>& s, int x) {
  auto it = std::lower_bound(s.begin(), s.end(), x);
  if (it != s.end() && *it == x) s.erase(it);
}
int index_of(const std::vector<int>& s, int x) {
  for (std::size_t k = 0; k < s.size(); ++k)
    if (s[k] == x) return static_cast<int>(k);
  return -1;
}

}  // namespace

CpdagUpdate::CpdagUpdate(const IntMatrix& g) {
  const int d = static_cast<int>(g.rows());
  adj_.assign(d, {});
  out_.assign(d, {});
  dag_pa_.assign(d, {});
  new_pa_.assign(d, {});
  mark_.assign(d, 0);
  pos_.assign(d, 0);
  slot_.assign(d, 0);
  out_directed_.assign(d, 0);
  chain_pos_.assign(d, -1);
  chain_weight_.assign(d, 0);
  std::vector<std::vector<int>> into;
  edge_lists(g, into, out_, &adj_);
  IntMatrix dag;
  if (!pdag_extension(g, dag)) throw std::invalid_argument("graph has no consistent extension");
  for (int j = 0; j < d; ++j)
    for (int i : adj_[j])
      if (dag(i, j) != 0) dag_pa_[j].push_back(i);
}

void CpdagUpdate::set_adjacent(int a, int b, bool on) {
  if (on) {
    insert_sorted(adj_[a], b);
    insert_sorted(adj_[b], a);
  } else {
    erase_sorted(adj_[a], b);
    erase_sorted(adj_[b], a);
  }
}

// The vertices connected to a or b (sorted).
std::vector<int> CpdagUpdate::component(int a, int b) {
  std::vector<int> comp, stack;
  for (int s : {a, b}) {
    if (mark_[s]) continue;
    mark_[s] = 1;
    stack.push_back(s);
    while (!stack.empty()) {
      const int x = stack.back();
      stack.pop_back();
      comp.push_back(x);
      for (int y : adj_[x])
        if (!mark_[y]) {
          mark_[y] = 1;
          stack.push_back(y);
        }
    }
  }
  // sorted: by a pass over the marks where the component is a large part
  // of the graph (it grows to all of it), cheaper there than a sort
  const std::size_t d = mark_.size();
  if (comp.size() > d / 16) {
    comp.clear();
    for (std::size_t x = 0; x < d; ++x)
      if (mark_[x]) {
        comp.push_back(static_cast<int>(x));
        mark_[x] = 0;
      }
  } else {
    for (int x : comp) mark_[x] = 0;
    std::sort(comp.begin(), comp.end());
  }
  return comp;
}

// The move's own edges, as apply_move() sets them before the extension.
void CpdagUpdate::orient_move(IntMatrix& g, const GesMove& m) {
  const int u = m.u, v = m.v;
  auto orient = [&](int a, int b) {
    g(a, b) = 1;
    g(b, a) = 0;
  };
  if (m.type == GesMoveType::Delete) {
    // the undirected neighbours of v adjacent to u, but C, become children
    std::vector<int> n_uv;
    for (int w : adj_[v])
      if (w != u && undirected(g, v, w) && adjacent_in(g, u, w)) n_uv.push_back(w);
    g(u, v) = 0;
    g(v, u) = 0;
    for (int w : n_uv) {
      if (std::binary_search(m.C.begin(), m.C.end(), w)) continue;
      const bool uw_undirected = undirected(g, u, w);
      orient(v, w);
      if (uw_undirected) orient(u, w);
    }
  } else {
    orient(u, v);
    for (int c : m.C) orient(c, v);
  }
}

// A consistent extension of the PDAG `g` on the component `comp`: each
// vertex's parents in new_pa_. The vertex removed at each step is the
// smallest removable one, as pdag_extension() chooses; a vertex once
// removable stays so, since removals only delete edges.
bool CpdagUpdate::extend(const IntMatrix& g, const std::vector<int>& comp) {
  for (int x : comp) {
    mark_[x] = 1;  // alive
    new_pa_[x].clear();
    int k = 0;
    for (int y : adj_[x])
      if (has_edge(g, x, y) && !has_edge(g, y, x)) ++k;
    out_directed_[x] = k;
    for (int y : adj_[x])
      if (has_edge(g, y, x) && !has_edge(g, x, y)) new_pa_[x].push_back(y);
  }
  auto removable = [&](int x) {
    if (!mark_[x] || out_directed_[x] != 0) return false;
    for (int y : adj_[x]) {
      if (!mark_[y] || !undirected(g, x, y)) continue;
      for (int z : adj_[x])
        if (z != y && mark_[z] && !adjacent_in(g, y, z)) return false;
    }
    return true;
  };
  std::priority_queue<int, std::vector<int>, std::greater<int>> ready;
  for (int x : comp)
    if (removable(x)) {
      ready.push(x);
      pos_[x] = -1;  // queued
    } else {
      pos_[x] = 0;
    }
  std::size_t removed = 0;
  while (!ready.empty()) {
    const int x = ready.top();
    ready.pop();
    for (int y : adj_[x]) {
      if (!mark_[y]) continue;
      if (undirected(g, x, y)) new_pa_[x].push_back(y);
      if (has_edge(g, y, x) && !has_edge(g, x, y)) --out_directed_[y];
    }
    mark_[x] = 0;
    ++removed;
    for (int y : adj_[x])
      if (mark_[y] && pos_[y] != -1 && removable(y)) {
        ready.push(y);
        pos_[y] = -1;
      }
  }
  const bool ok = removed == comp.size();
  for (int x : comp) {
    mark_[x] = 0;
    std::sort(new_pa_[x].begin(), new_pa_[x].end());
  }
  return ok;
}

// For the insertion `m` (u -> v with the clique C = m.C of v's neighbours
// made its parents), a member of the new class on `comp` in new_pa_, read
// from the CPDAG `g` before the move: every vertex keeps its parents in the
// member dag_pa_ of the old class, but for v's chain component (the
// vertices joined to v by undirected edges), which is oriented along a
// maximum cardinality search that visits C first and v next, and u -> v.
// The search's order orients a chordal chain component without a
// v-structure (starting with a clique is one of its tie-breaks), and the
// chain components of a CPDAG are oriented independently, so the result
// before u -> v is a member of the old class with C the parents of v
// there; adding u -> v to such a member gives a DAG of the move's class
// (Chickering 2002, Theorem 15), acyclic when the move is valid. Costs the
// chain component's edges, where Dor and Tarsi's extension of the whole
// component took most of the forward phase's serial time.
void CpdagUpdate::member_for_insert(const IntMatrix& g, const GesMove& m,
                                    const std::vector<int>& comp) {
  for (int x : comp) new_pa_[x] = dag_pa_[x];
  std::vector<int> chain;  // v's chain component, in the search's order
  std::priority_queue<std::pair<int, int>> ready;  // (weight, -vertex)
  auto visit = [&](int x) {
    chain_pos_[x] = static_cast<int>(chain.size());
    chain.push_back(x);
    for (int y : adj_[x])
      if (chain_pos_[y] < 0 && undirected(g, x, y)) ready.emplace(++chain_weight_[y], -y);
  };
  for (int c : m.C) visit(c);
  if (chain_pos_[m.v] < 0) visit(m.v);
  while (!ready.empty()) {
    const std::pair<int, int> top = ready.top();
    ready.pop();
    const int x = -top.second;
    if (chain_pos_[x] < 0 && top.first == chain_weight_[x]) visit(x);
  }
  for (int x : chain) {
    std::vector<int>& pa = new_pa_[x];
    pa.clear();
    for (int y : adj_[x])
      if (has_edge(g, y, x) && (!has_edge(g, x, y) || chain_pos_[y] < chain_pos_[x])) pa.push_back(y);
  }
  insert_sorted(new_pa_[m.v], m.u);
  for (int x : chain) {
    chain_pos_[x] = -1;
    chain_weight_[x] = 0;
  }
}

// The CPDAG of the DAG new_pa_ on `comp` written into g (Chickering's
// labelling, as dag_to_cpdag()). Returns false, with g unchanged, when
// new_pa_ has a directed cycle.
bool CpdagUpdate::write_cpdag(IntMatrix& g, const std::vector<int>& comp) {
  // a topological order of the component (Kahn)
  std::vector<int> order;
  order.reserve(comp.size());
  for (int x : comp) pos_[x] = static_cast<int>(new_pa_[x].size());  // parents left
  // the per-vertex lists below are kept between moves (allocating three
  // lists per vertex of the component at every move took a tenth of
  // the forward phase at 5000 variables)
  const std::size_t nc = comp.size();
  if (children_.size() < nc) {
    children_.resize(nc);
    pa_.resize(nc);
    label_.resize(nc);
  }
  auto& children = children_;
  for (std::size_t k = 0; k < nc; ++k) children[k].clear();
  // each vertex's index in comp, read from slot_ (a binary search of comp
  // took a tenth of the forward phase on scale-free graphs of 2000 variables)
  for (std::size_t k = 0; k < comp.size(); ++k) slot_[comp[k]] = static_cast<int>(k);
  auto local = [&](int x) { return slot_[x]; };
  for (int x : comp)
    for (int p : new_pa_[x]) children[local(p)].push_back(x);
  for (int x : comp)
    if (pos_[x] == 0) order.push_back(x);
  for (std::size_t k = 0; k < order.size(); ++k)
    for (int c : children[local(order[k])])
      if (--pos_[c] == 0) order.push_back(c);
  if (order.size() != comp.size()) return false;
  for (std::size_t k = 0; k < order.size(); ++k) pos_[order[k]] = static_cast<int>(k);
  // parents by decreasing position; label 0 unknown, 1 compelled, 2 reversible
  auto& pa = pa_;
  auto& label = label_;
  for (int x : comp) {
    std::vector<int>& p = pa[local(x)];
    p = new_pa_[x];
    std::sort(p.begin(), p.end(), [&](int a, int b) { return pos_[a] > pos_[b]; });
    label[local(x)].assign(p.size(), 0);
  }
  auto lab = [&](int a, int b) -> char& {  // label of a -> b
    const int lb = local(b);
    return label[lb][index_of(pa[lb], a)];
  };
  for (int y : order) {
    const int ly = local(y);
    for (int p : pa[ly]) mark_[p] = 1;
    for (int x : pa[ly]) {
      if (lab(x, y) != 0) continue;
      bool done = false;
      for (int w : pa[local(x)]) {
        if (lab(w, x) != 1) continue;
        if (!mark_[w]) {
          for (char& l : label[ly]) l = 1;
          done = true;
          break;
        }
        lab(w, y) = 1;
      }
      if (done) break;
      bool compelled = false;
      for (int z : pa[ly])
        if (z != x && !adjacent_in(g, z, x)) {
          compelled = true;
          break;
        }
      for (std::size_t b = 0; b < pa[ly].size(); ++b)
        if (label[ly][b] == 0) label[ly][b] = compelled ? 1 : 2;
    }
    for (int p : pa[ly]) mark_[p] = 0;
  }
  for (int x : comp)
    for (int y : adj_[x]) g(x, y) = 0;
  for (int x : comp) {
    const int lx = local(x);
    for (std::size_t b = 0; b < pa[lx].size(); ++b) {
      g(pa[lx][b], x) = 1;
      if (label[lx][b] == 2) g(x, pa[lx][b]) = 1;
    }
  }
  return true;
}

void CpdagUpdate::refresh_out(const IntMatrix& g, const std::vector<int>& comp) {
  for (int x : comp) {
    out_[x].clear();
    for (int y : adj_[x])
      if (has_edge(g, x, y)) out_[x].push_back(y);
  }
}

bool CpdagUpdate::apply(IntMatrix& g, const GesMove& m, LocalScore& score, double* delta,
                        std::vector<int>* touched) {
  const int u = m.u, v = m.v;
  saved_u_ = u;
  saved_v_ = v;
  saved_adjacent_ = adjacent_in(g, u, v);
  // the component holds every vertex whose edges can change; the edge u-v
  // is in its lists from here on when the move keeps or makes it
  if (m.type != GesMoveType::Delete) set_adjacent(u, v, true);
  std::vector<int> comp = component(u, v);
  saved_.clear();
  for (int x : comp)
    for (int y : adj_[x]) saved_.push_back(Entry{x, y, g(x, y)});
  // (an interventional score tells members of a class apart, so there the
  // member stays Dor and Tarsi's, whose choices the searches were built on)
  const bool insert = m.type == GesMoveType::Insert && !score.interventional();
  if (insert) member_for_insert(g, m, comp);  // read from g before the move
  orient_move(g, m);
  if (m.type == GesMoveType::Delete) set_adjacent(u, v, false);
  auto restore = [&] {
    for (const Entry& e : saved_) g(e.i, e.j) = e.value;
    set_adjacent(u, v, saved_adjacent_);
  };
  // an insertion's member is a DAG when the move is valid; should it not
  // be, Dor and Tarsi's extension decides, as for the other moves
  if (!(insert && write_cpdag(g, comp))) {
    if (!extend(g, comp)) {
      restore();
      return false;
    }
    if (!write_cpdag(g, comp)) throw std::logic_error("the extension has a directed cycle");
  }
  double change = 0;
  saved_pa_.resize(comp.size());
  for (std::size_t k = 0; k < comp.size(); ++k) {
    const int x = comp[k];
    saved_pa_[k] = dag_pa_[x];
    if (new_pa_[x] != dag_pa_[x]) change += score.local(x, new_pa_[x]) - score.local(x, dag_pa_[x]);
    dag_pa_[x] = new_pa_[x];
  }
  saved_comp_ = comp;
  refresh_out(g, comp);
  touched->clear();
  for (const Entry& e : saved_)
    if (g(e.i, e.j) != e.value) {
      touched->push_back(e.i);
      touched->push_back(e.j);
    }
  std::sort(touched->begin(), touched->end());
  touched->erase(std::unique(touched->begin(), touched->end()), touched->end());
  *delta = change;
  return true;
}

void CpdagUpdate::undo(IntMatrix& g) {
  for (int x : saved_comp_)
    for (int y : adj_[x]) g(x, y) = 0;
  for (const Entry& e : saved_) g(e.i, e.j) = e.value;
  set_adjacent(saved_u_, saved_v_, saved_adjacent_);
  for (std::size_t k = 0; k < saved_comp_.size(); ++k) dag_pa_[saved_comp_[k]] = saved_pa_[k];
  refresh_out(g, saved_comp_);
  saved_comp_.clear();
}

}  // namespace calm
