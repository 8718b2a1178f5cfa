#include "search_ges.h"

#include "search_ges_update.h"
#include "thread_team.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <map>
#include <memory>
#include <set>
#include <utility>
#include <stdexcept>

namespace calm {

namespace {

using Set = std::vector<int>;  // sorted vertex set

bool edge(const IntMatrix& g, int a, int b) { return g(a, b) != 0; }
bool adjacent(const IntMatrix& g, int a, int b) { return g(a, b) != 0 || g(b, a) != 0; }

Set parents(const IntMatrix& g, int v) {
  Set s;
  for (int i = 0; i < g.rows(); ++i)
    if (edge(g, i, v) && !edge(g, v, i)) s.push_back(i);
  return s;
}
Set children(const IntMatrix& g, int v) {
  Set s;
  for (int i = 0; i < g.rows(); ++i)
    if (edge(g, v, i) && !edge(g, i, v)) s.push_back(i);
  return s;
}
// v's neighbours and parents in g, as neighbours() and parents() give
// them, from `adj`, the vertices adjacent to v (sorted): a cost of v's
// degree instead of d.
void listed_family(const IntMatrix& g, const Set& adj, int v, Set& ne, Set& pa) {
  ne.clear();
  pa.clear();
  for (int i : adj) {
    if (!edge(g, i, v)) continue;
    if (edge(g, v, i)) ne.push_back(i);
    else pa.push_back(i);
  }
}
Set neighbours(const IntMatrix& g, int v) {
  Set s;
  for (int i = 0; i < g.rows(); ++i)
    if (edge(g, v, i) && edge(g, i, v)) s.push_back(i);
  return s;
}
bool contains(const Set& s, int x) { return std::binary_search(s.begin(), s.end(), x); }
Set set_union(const Set& a, const Set& b) {
  Set r;
  std::set_union(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(r));
  return r;
}
Set set_inter(const Set& a, const Set& b) {
  Set r;
  std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(r));
  return r;
}
Set set_minus(const Set& a, const Set& b) {
  Set r;
  std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(r));
  return r;
}
Set with(Set s, int x) {
  s.insert(std::lower_bound(s.begin(), s.end(), x), x);
  return s;
}
Set without(Set s, int x) {
  auto it = std::lower_bound(s.begin(), s.end(), x);
  if (it != s.end() && *it == x) s.erase(it);
  return s;
}
Set adjacent_set(const IntMatrix& g, int v) {
  Set s;
  for (int i = 0; i < g.rows(); ++i)
    if (adjacent(g, v, i)) s.push_back(i);
  return s;
}

// The members of `s` adjacent to u (sorted when `s` is): ne(v) ∩ adj(u)
// without a pass over all vertices.
Set adjacent_among(const IntMatrix& g, const Set& s, int u) {
  Set r;
  for (int w : s)
    if (adjacent(g, w, u)) r.push_back(w);
  return r;
}

bool is_clique(const IntMatrix& g, const Set& s) {
  for (std::size_t a = 0; a < s.size(); ++a)
    for (std::size_t b = a + 1; b < s.size(); ++b)
      if (!adjacent(g, s[a], s[b])) return false;
  return true;
}

// Calls f(C) for every clique C with required ⊆ C ⊆ required ∪ pool (pool
// disjoint from required). Stops early after `cap` cliques.
template <class F>
void for_each_clique(const IntMatrix& g, const Set& required, const Set& pool, F&& f,
                     long cap = 1L << 18) {
  if (!is_clique(g, required)) return;
  Set cand;
  for (int p : pool) {
    bool ok = true;
    for (int r : required)
      if (!adjacent(g, p, r)) { ok = false; break; }
    if (ok) cand.push_back(p);
  }
  long visited = 0;
  Set cur = required;
  // depth-first over increasing positions in cand
  std::vector<int> chosen;
  std::function<void(std::size_t)> rec = [&](std::size_t start) {
    if (visited >= cap) return;
    ++visited;
    f(cur);
    for (std::size_t i = start; i < cand.size(); ++i) {
      bool ok = true;
      for (int c : chosen)
        if (!adjacent(g, c, cand[i])) { ok = false; break; }
      if (!ok) continue;
      chosen.push_back(cand[i]);
      Set saved = cur;
      cur = with(cur, cand[i]);
      rec(i + 1);
      cur = saved;
      chosen.pop_back();
    }
  };
  rec(0);
}

// The vertices y with g(x, y) = 1 (x -> y or x - y), for every x: the
// searches below walk these lists (kept by CpdagUpdate) instead of the
// matrix's rows.
using OutLists = std::vector<Set>;

// Calls f(y) for every y with g(x, y) = 1, from the matrix or the lists.
template <class F>
void for_each_out(const IntMatrix& g, int x, F&& f) {
  for (int y = 0; y < g.rows(); ++y)
    if (edge(g, x, y)) f(y);
}
template <class F>
void for_each_out(const OutLists& out, int x, F&& f) {
  for (int y : out[x]) f(y);
}
int vertex_count(const IntMatrix& g) { return static_cast<int>(g.rows()); }
int vertex_count(const OutLists& out) { return static_cast<int>(out.size()); }

// Is there a path from a to b along edges x -> y with g(x, y) = 1 (directed
// or undirected: a semi-directed path) that avoids `blocked` and does not use
// the edge between a and b itself?
template <class G>
bool semidirected_path(const G& g, int a, int b, const Set& blocked) {
  std::vector<char> seen(vertex_count(g), 0);
  for (int x : blocked) seen[x] = 1;
  if (seen[a] || seen[b]) return false;
  std::vector<int> stack{a};
  seen[a] = 1;
  bool found = false;
  while (!stack.empty() && !found) {
    int x = stack.back();
    stack.pop_back();
    for_each_out(g, x, [&](int y) {
      if (found || (x == a && y == b)) return;
      if (y == b) {
        found = true;
      } else if (!seen[y]) {
        seen[y] = 1;
        stack.push_back(y);
      }
    });
  }
  return found;
}

// Vertices reachable from `from` by semi-directed paths (including `from`).
template <class G>
std::vector<char> posterior(const G& g, const Set& from) {
  std::vector<char> seen(vertex_count(g), 0);
  std::vector<int> stack;
  for (int x : from) {
    seen[x] = 1;
    stack.push_back(x);
  }
  while (!stack.empty()) {
    int x = stack.back();
    stack.pop_back();
    for_each_out(g, x, [&](int y) {
      if (!seen[y]) {
        seen[y] = 1;
        stack.push_back(y);
      }
    });
  }
  return seen;
}

// Is there a path from a to a vertex of B that uses only vertices of
// `allowed` (undirected edges among them)?
bool path_within(const IntMatrix& g, const Set& allowed, int a, const Set& B) {
  if (!contains(allowed, a)) return false;
  Set targets = set_inter(B, allowed);
  if (targets.empty()) return false;
  std::vector<int> stack{a};
  Set seen{a};
  while (!stack.empty()) {
    int x = stack.back();
    stack.pop_back();
    for (int y : allowed) {
      if (!edge(g, x, y) || contains(seen, y)) continue;
      if (contains(targets, y)) return true;
      seen = with(seen, y);
      stack.push_back(y);
    }
  }
  return false;
}

bool admissible(const IntMatrix& g, GesMoveType type, int u, int v, const Set& C,
                const Knowledge* k) {
  if (k == nullptr || k->empty()) return true;
  GesMove m;
  m.type = type;
  m.u = u;
  m.v = v;
  m.C = C;
  IntMatrix next, dag;
  return apply_move(g, m, next) && knowledge_extension(next, *k, dag);
}

// Keeps the operator if it beats the best so far (and, with knowledge, its
// result is admissible: checked only for operators that would win).
void keep_better(GesMove& best, GesMoveType type, int u, int v, const Set& C, double delta,
                 const IntMatrix& g, const Knowledge* k) {
  // NaN: a difference of two inadmissible (+Inf) local scores, no evidence
  if (std::isnan(delta)) return;
  if ((!best.valid() || delta < best.delta) && admissible(g, type, u, v, C, k)) {
    best.type = type;
    best.u = u;
    best.v = v;
    best.C = C;
    best.delta = delta;
  }
}

// An insertion u -> v with the clique C of v's neighbours that become its
// parents, and its change of score; whether it is valid is checked apart.
// `seq`: the clique's place among u's cliques (for the order of ties).
struct InsertCandidate {
  int u;
  Set C;
  double delta;
  int seq;
};

// The insertions u -> v for the tails u in tails[lo, hi) (all inside the
// mask), scored, appended to `list`; `ne` and `pa` are v's neighbours and
// parents in g. With `improving_only`, only changes below -tol are kept;
// otherwise every change that is a number (NaN: two inadmissible local
// scores).
void list_inserts(const IntMatrix& g, int v, const Set& ne, const Set& pa, LocalScore& score,
                  const Set& tails, std::size_t lo, std::size_t hi, bool improving_only,
                  double tol, std::vector<InsertCandidate>& list) {
  // the score of v's parents without u depends on C only, and the same
  // cliques recur for most u: each is looked up once (half of the lookups
  // of the forward phase, whose hash-table walks took a quarter of it)
  std::map<Set, double> base_score;
  auto score_without = [&](const Set& C, const Set& base) {
    auto it = base_score.find(C);
    if (it == base_score.end()) it = base_score.emplace(C, score.local(v, base)).first;
    return it->second;
  };
  for (std::size_t t = lo; t < hi; ++t) {
    const int u = tails[t];
    if (u == v || adjacent(g, u, v)) continue;
    const Set N = adjacent_among(g, ne, u);
    int seq = 0;
    for_each_clique(g, N, set_minus(ne, N), [&](const Set& C) {
      const Set base = set_union(C, pa);
      const double delta = score.local(v, with(base, u)) - score_without(C, base);
      if (improving_only ? delta < -tol : !std::isnan(delta))
        list.push_back(InsertCandidate{u, C, delta, seq});
      ++seq;
    });
  }
}

// The tails the mask `allowed` admits for head v, in increasing order.
Set mask_tails(const IntMatrix& allowed, int v) {
  Set out;
  for (int u = 0; u < allowed.rows(); ++u)
    if (u != v && allowed(u, v) != 0) out.push_back(u);
  return out;
}

// Sorts insertions by their change, ties in the order of u, then of the
// cliques: the order in which one pass over u would list them.
void sort_inserts(std::vector<InsertCandidate>& list) {
  std::sort(list.begin(), list.end(), [](const InsertCandidate& a, const InsertCandidate& b) {
    if (a.delta != b.delta) return a.delta < b.delta;
    if (a.u != b.u) return a.u < b.u;
    return a.seq < b.seq;
  });
}

// The insertions with head v inside `allowed`, scored and sorted
// (sort_inserts()).
std::vector<InsertCandidate> insert_candidates(const IntMatrix& g, int v, LocalScore& score,
                                               const IntMatrix& allowed, bool improving_only,
                                               double tol) {
  std::vector<InsertCandidate> list;
  const Set tails = mask_tails(allowed, v);
  list_inserts(g, v, neighbours(g, v), parents(g, v), score, tails, 0, tails.size(),
               improving_only, tol, list);
  sort_inserts(list);
  return list;
}

// The first insertion of the sorted `list` that is valid on g: u is not
// reached from v's children, no semi-directed path from v to u avoids C,
// and the resulting class obeys the knowledge `k`. The paths are walked on
// `walk`: g itself or its OutLists.
template <class G>
GesMove first_valid_insert(const IntMatrix& g, const G& walk, int v,
                           const std::vector<InsertCandidate>& list, const Knowledge* k) {
  GesMove m;
  if (list.empty()) return m;
  Set ch;  // v's children, from the walk's lists
  for_each_out(walk, v, [&](int y) {
    if (!edge(g, y, v)) ch.push_back(y);
  });
  std::sort(ch.begin(), ch.end());
  const std::vector<char> forbidden = posterior(walk, ch);
  const std::vector<char> after_v = posterior(walk, Set{v});
  for (const InsertCandidate& c : list) {
    if (forbidden[c.u]) continue;
    if (after_v[c.u] && semidirected_path(walk, v, c.u, c.C)) continue;
    if (!admissible(g, GesMoveType::Insert, c.u, v, c.C, k)) continue;
    m.type = GesMoveType::Insert;
    m.u = c.u;
    m.v = v;
    m.C = c.C;
    m.delta = c.delta;
    break;
  }
  return m;
}

}  // namespace

GesMove best_insert(const IntMatrix& g, int v, LocalScore& score, const IntMatrix& allowed,
                    const Knowledge* k) {
  return first_valid_insert(g, g, v, insert_candidates(g, v, score, allowed, false, 0), k);
}

namespace {

// best_delete() with v's neighbours and parents and u's adjacent vertices
// read from the adjacency lists `adj` (sorted, as the matrix scans give
// them) instead of rows of the matrix.
GesMove best_delete_listed(const IntMatrix& g, const std::vector<Set>& adj, int v,
                           LocalScore& score, const Knowledge* k) {
  GesMove best;
  Set ne, pa;
  for (int i : adj[v]) {
    if (edge(g, i, v) && edge(g, v, i)) ne.push_back(i);
    else if (edge(g, i, v)) pa.push_back(i);
  }
  for (int u : set_union(ne, pa)) {
    const Set N = set_inter(ne, adj[u]);
    for_each_clique(g, Set{}, N, [&](const Set& C) {
      const Set base = without(set_union(C, pa), u);
      const double delta = score.local(v, base) - score.local(v, with(base, u));
      keep_better(best, GesMoveType::Delete, u, v, C, delta, g, k);
    });
  }
  return best;
}

}  // namespace

GesMove best_delete(const IntMatrix& g, int v, LocalScore& score, const Knowledge* k) {
  GesMove best;
  const Set ne = neighbours(g, v), pa = parents(g, v);
  for (int u : set_union(ne, pa)) {
    const Set N = set_inter(ne, adjacent_set(g, u));
    for_each_clique(g, Set{}, N, [&](const Set& C) {
      const Set base = without(set_union(C, pa), u);
      const double delta = score.local(v, base) - score.local(v, with(base, u));
      keep_better(best, GesMoveType::Delete, u, v, C, delta, g, k);
    });
  }
  return best;
}

namespace {

// A CPDAG's vertex sets read from its matrix, each in O(d).
struct MatrixSets {
  const IntMatrix& g;
  Set pa(int v) const { return parents(g, v); }
  Set ch(int v) const { return children(g, v); }
  Set ne(int v) const { return neighbours(g, v); }
};

// The same sets from adjacency lists (sorted, as CpdagUpdate keeps them),
// each in O(degree): the same sets, in the same order.
struct ListedSets {
  const IntMatrix& g;
  const std::vector<Set>& adj;
  Set pa(int v) const { return pick(v, [&](int i) { return edge(g, i, v) && !edge(g, v, i); }); }
  Set ch(int v) const { return pick(v, [&](int i) { return edge(g, v, i) && !edge(g, i, v); }); }
  Set ne(int v) const { return pick(v, [&](int i) { return edge(g, v, i) && edge(g, i, v); }); }
  template <class F>
  Set pick(int v, F&& keep) const {
    Set s;
    for (int i : adj[v])
      if (keep(i)) s.push_back(i);
    return s;
  }
};

// The best Turn operator with head v (see best_turn()), its vertex sets
// read from `sets` and its semi-directed paths walked on `walk` (the
// matrix or its OutLists).
template <class Sets, class Walk>
GesMove turn_at(const IntMatrix& g, const Sets& sets, const Walk& walk, int v, LocalScore& score,
                const Knowledge* k) {
  GesMove best;
  const Set ne = sets.ne(v), pa = sets.pa(v);
  // undirected u - v becomes u -> v
  for (int u : ne) {
    const Set N = set_inter(ne, sets.ne(u));
    const Set pa_u = sets.pa(u);
    for_each_clique(g, Set{}, without(ne, u), [&](const Set& C) {
      const Set C_out = set_minus(C, N);
      if (C_out.empty()) return;
      const Set C_in = set_inter(C, N);
      if (path_within(g, set_minus(ne, C_in), C_out.front(), set_minus(N, C))) return;
      const Set base_v = set_union(C, pa);
      const Set base_u = set_union(C_in, pa_u);
      const double delta = score.local(v, with(base_v, u)) - score.local(v, base_v) +
                           score.local(u, base_u) - score.local(u, with(base_u, v));
      keep_better(best, GesMoveType::Turn, u, v, C, delta, g, k);
    });
  }
  // directed v -> u becomes u -> v
  for (int u : sets.ch(v)) {
    const Set pa_u = sets.pa(u);
    const Set N = set_inter(ne, pa_u);
    const Set ne_u = sets.ne(u);
    for_each_clique(g, N, set_minus(ne, N), [&](const Set& C) {
      if (semidirected_path(walk, v, u, set_union(C, ne_u))) return;
      const Set base_v = set_union(C, pa);
      const double delta = score.local(v, with(base_v, u)) - score.local(v, base_v) +
                           score.local(u, without(pa_u, v)) - score.local(u, pa_u);
      keep_better(best, GesMoveType::Turn, u, v, C, delta, g, k);
    });
  }
  return best;
}

// The turning phase's move: best_move(g, Turn, ...) with each head's sets
// from the adjacency lists `adj` and its paths on the OutLists `out`, in
// O(edges) a head instead of O(d^2) (on scale-free graphs of 2000
// variables the matrix walks took half of a fit).
GesMove best_turn_listed(const IntMatrix& g, const std::vector<Set>& adj, const OutLists& out,
                         LocalScore& score, double tol, const Knowledge* k) {
  GesMove best;
  const ListedSets sets{g, adj};
  for (int v = 0; v < g.rows(); ++v) {
    GesMove m = turn_at(g, sets, out, v, score, k);
    if (m.valid() && (!best.valid() || m.delta < best.delta)) best = m;
  }
  if (best.valid() && !(best.delta < -tol)) best = GesMove();
  return best;
}

}  // namespace

GesMove best_turn(const IntMatrix& g, int v, LocalScore& score, const Knowledge* k) {
  return turn_at(g, MatrixSets{g}, g, v, score, k);
}

GesMove best_move(const IntMatrix& g, GesMoveType type, LocalScore& score, const IntMatrix& allowed,
                  double tol, const Knowledge* k) {
  GesMove best;
  for (int v = 0; v < g.rows(); ++v) {
    GesMove m;
    switch (type) {
      case GesMoveType::Insert: m = best_insert(g, v, score, allowed, k); break;
      case GesMoveType::Delete: m = best_delete(g, v, score, k); break;
      case GesMoveType::Turn: m = best_turn(g, v, score, k); break;
    }
    if (m.valid() && (!best.valid() || m.delta < best.delta)) best = m;
  }
  if (best.valid() && !(best.delta < -tol)) best = GesMove();
  return best;
}

namespace {

// After a move that changed the edges of the vertices `touched`: those and
// their neighbours (`adj`, adjacency lists after the move; a removed edge's
// ends are both touched) are marked to be scored again in `fresh`.
void mark_stale(std::vector<char>& fresh, const std::vector<int>& touched,
                const std::vector<Set>& adj) {
  for (int w : touched) {
    fresh[w] = 0;
    for (int x : adj[w]) fresh[x] = 0;
  }
}

// The forward phase's bookkeeping, so that a move does not score every
// insertion again. For each head v it keeps the insertions that would
// improve the score by more than the tolerance (insert_candidates()), as
// best_insert() lists them. Their changes depend only on
// v's parents and neighbours and on the adjacencies among and into these
// neighbours, so a list stays right until an edge at v or at one of v's
// neighbours changes. Whether an insertion is valid depends on the whole
// graph (semi-directed paths, knowledge) and is checked on the current
// graph (first_valid_insert()): the move chosen is the one best_move()
// chooses.
class InsertCache {
 public:
  // `threads` > 1: a helper thread lists blocks of the stale heads' tails
  // too (list_stale()), on a score of its own whose cache holds at most
  // `helper_budget` bytes (0: no limit).
  InsertCache(int d, double tol, int threads, std::size_t helper_budget)
      : lists_(d), fresh_(d, 0), tol_(tol), threads_(threads), helper_budget_(helper_budget) {}

  // The move best_move() would choose: heads in the order of their best
  // listed change (ties: smaller head first), each checked for its first
  // valid insertion until no later head can beat the best found. `out`:
  // the graph's OutLists.
  GesMove best(const IntMatrix& g, const OutLists& out, const std::vector<Set>& adj,
               LocalScore& score, const IntMatrix& allowed, const Knowledge* k) {
    list_stale(g, adj, score, allowed);
    GesMove best;
    for (const HeadKey& h : heads_) {
      const int v = h.second;
      if (best.valid() && h.first > best.delta) break;
      GesMove m = first_valid_insert(g, out, v, lists_[v], k);
      if (m.valid() && (!best.valid() || m.delta < best.delta ||
                        (m.delta == best.delta && m.v < best.v)))
        best = m;
    }
    return best;
  }

  void update(const std::vector<int>& touched, const std::vector<Set>& adj) {
    mark_stale(fresh_, touched, adj);
  }

 private:
  // Lists the insertions of the heads whose lists are stale, over each
  // head's tails in the mask (kept from the first call: the mask does not
  // change during the search; scanning a column of it for every head listed
  // again cost d a head). With a helper thread, the two threads take
  // blocks of kTailBlock tails of the stale heads in turn, each scoring on a
  // score object of its own, and each head's blocks are sorted together into
  // the order one thread gives them: a list does not depend on the score
  // object that computed it. (Splitting whole heads between the threads
  // gained nothing on scale-free graphs: a hub's list is most of the work.)
  static constexpr std::size_t kTailBlock = 128;
  void list_stale(const IntMatrix& g, const std::vector<Set>& adj, LocalScore& score,
                  const IntMatrix& allowed) {
    const int d = static_cast<int>(g.rows());
    if (tails_.empty()) {
      tails_.resize(d);
      for (int v = 0; v < d; ++v) tails_[v] = mask_tails(allowed, v);
    }
    jobs_.clear();
    stale_.clear();
    for (int v = 0; v < d; ++v) {
      if (fresh_[v]) continue;
      fresh_[v] = 1;
      stale_.push_back(v);
      if (!lists_[v].empty()) heads_.erase(HeadKey(lists_[v].front().delta, v));
      lists_[v].clear();
      const Set& t = tails_[v];
      Block b{v, {}, {}, 0, 0, {}};
      listed_family(g, adj[v], v, b.ne, b.pa);
      for (std::size_t lo = 0; lo < t.size(); lo += kTailBlock) {
        b.lo = lo;
        b.hi = std::min(t.size(), lo + kTailBlock);
        jobs_.push_back(b);
      }
    }
    if (!jobs_.empty()) run_jobs(g, score);
    for (int v : stale_)
      if (!lists_[v].empty()) heads_.emplace(lists_[v].front().delta, v);
  }

  // Lists the blocks of jobs_ into the heads' lists, each list sorted.
  void run_jobs(const IntMatrix& g, LocalScore& score) {
    if (threads_ < 2 || jobs_.size() < 2) {
      for (Block& b : jobs_) run_block(g, score, b);
    } else {
      if (!team_) {
        team_ = std::make_unique<ThreadTeam>(2);
        helper_ = std::make_unique<LocalScore>(score.fresh_copy());
      }
      Shared job{this, &g, &score, {0}};
      team_->run(&Shared::part, &job);
      if (helper_budget_ > 0 && helper_->cache_bytes() > helper_budget_) helper_->clear_cache();
    }
    for (Block& b : jobs_) {
      std::vector<InsertCandidate>& list = lists_[b.v];
      if (list.empty()) list.swap(b.out);
      else list.insert(list.end(), b.out.begin(), b.out.end());
    }
    int last = -1;
    for (const Block& b : jobs_)
      if (b.v != last) sort_inserts(lists_[last = b.v]);
  }

  // A block of one head's tails to list, and what it lists.
  struct Block {
    int v;
    Set ne, pa;
    std::size_t lo, hi;
    std::vector<InsertCandidate> out;
  };
  void run_block(const IntMatrix& g, LocalScore& score, Block& b) const {
    list_inserts(g, b.v, b.ne, b.pa, score, tails_[b.v], b.lo, b.hi, true, tol_, b.out);
  }
  // The blocks on a ThreadTeam: part 0 on the caller's score, part 1 on the
  // helper's, each taking the next block until none is left.
  struct Shared {
    InsertCache* cache;
    const IntMatrix* g;
    LocalScore* score;
    std::atomic<std::size_t> next;
    static void part(void* ctx, int p) {
      Shared& j = *static_cast<Shared*>(ctx);
      LocalScore& sc = p == 0 ? *j.score : *j.cache->helper_;
      std::vector<Block>& jobs = j.cache->jobs_;
      for (std::size_t k = j.next++; k < jobs.size(); k = j.next++)
        j.cache->run_block(*j.g, sc, jobs[k]);
    }
  };

  std::vector<std::vector<InsertCandidate>> lists_;
  std::vector<char> fresh_;
  // the heads with a nonempty list by their best change, ties by head (the
  // order best() checks them in), kept as lists change: sorting all d
  // heads at every move took a tenth of the forward phase at 5000 variables
  using HeadKey = std::pair<double, int>;
  std::set<HeadKey> heads_;
  std::vector<int> stale_;
  std::vector<Set> tails_;
  std::vector<Block> jobs_;
  double tol_;
  int threads_;
  std::size_t helper_budget_;
  std::unique_ptr<ThreadTeam> team_;
  std::unique_ptr<LocalScore> helper_;
};

}  // namespace

namespace {

// The backward phase's bookkeeping, as InsertCache's: each vertex's best
// deletion (best_delete()), kept until an edge at it or at one of its
// neighbours changes. Without knowledge only: with it, whether a deletion is
// admissible depends on the whole graph. The move chosen is best_move()'s.
class DeleteCache {
 public:
  DeleteCache(int d, double tol) : best_(d), fresh_(d, 0), tol_(tol) {}

  GesMove best(const IntMatrix& g, const std::vector<Set>& adj, LocalScore& score) {
    const int d = static_cast<int>(g.rows());
    GesMove out;
    for (int v = 0; v < d; ++v) {
      if (!fresh_[v]) {
        best_[v] = best_delete_listed(g, adj, v, score, nullptr);
        fresh_[v] = 1;
      }
      const GesMove& m = best_[v];
      if (m.valid() && (!out.valid() || m.delta < out.delta)) out = m;
    }
    if (out.valid() && !(out.delta < -tol_)) out = GesMove();
    return out;
  }

  void update(const std::vector<int>& touched, const std::vector<Set>& adj) {
    mark_stale(fresh_, touched, adj);
  }

 private:
  std::vector<GesMove> best_;
  std::vector<char> fresh_;
  double tol_;
};

}  // namespace

bool apply_move(const IntMatrix& g, const GesMove& m, IntMatrix& out) {
  IntMatrix h = g;
  const int u = m.u, v = m.v;
  auto orient = [&](int a, int b) {  // a -> b
    h(a, b) = 1;
    h(b, a) = 0;
  };
  if (m.type == GesMoveType::Delete) {
    const Set ne = neighbours(g, v);
    const Set N = set_inter(ne, adjacent_set(g, u));
    h(u, v) = 0;
    h(v, u) = 0;
    for (int w : set_minus(N, m.C)) {
      orient(v, w);
      if (edge(g, u, w) && edge(g, w, u)) orient(u, w);
    }
  } else {
    orient(u, v);
    for (int c : m.C) orient(c, v);
  }
  IntMatrix dag;
  if (!pdag_extension(h, dag)) return false;
  out = dag_to_cpdag(dag);
  return true;
}

bool knowledge_extension(const IntMatrix& cpdag, const Knowledge& k, IntMatrix& dag) {
  const int d = static_cast<int>(cpdag.rows());
  IntMatrix h = cpdag;
  const bool has_req = k.required.size() != 0, has_forb = k.forbidden.size() != 0;
  for (int i = 0; i < d; ++i)
    for (int j = 0; j < d; ++j) {
      if (i == j) continue;
      if (has_req && k.required(i, j) != 0) {
        if (!adjacent(h, i, j) || (h(j, i) != 0 && h(i, j) == 0)) return false;
        h(i, j) = 1;
        h(j, i) = 0;
      }
      if (has_forb && k.forbidden(i, j) != 0 && adjacent(h, i, j)) {
        if (h(i, j) != 0 && h(j, i) == 0) return false;
        h(j, i) = 1;
        h(i, j) = 0;
      }
    }
  // a required edge may have been turned by a later forbidden entry
  for (int i = 0; i < d; ++i)
    for (int j = 0; j < d; ++j)
      if (i != j && has_req && k.required(i, j) != 0 && h(i, j) == 0) return false;
  if (!pdag_extension(h, dag)) return false;
  return (dag_to_cpdag(dag).array() == cpdag.array()).all();
}

double cpdag_score(const IntMatrix& g, LocalScore& score) {
  IntMatrix dag;
  if (!pdag_extension(g, dag)) throw std::invalid_argument("graph has no consistent extension");
  return score.dag_score(dag);
}

namespace {

// A parent set of j admitted by the score: required parents first, then a
// greedy forward selection among the others of `pa` while the score
// improves. Used on nodes whose own set is inadmissible.
std::vector<int> admissible_parents(int j, const std::vector<int>& pa, LocalScore& score,
                                    const Knowledge* k) {
  std::vector<int> keep, rest;
  for (int p : pa) {
    if (k && k->required.size() != 0 && k->required(p, j) != 0) keep.push_back(p);
    else rest.push_back(p);
  }
  double cur = score.local(j, keep);
  for (;;) {
    int best = -1;
    double best_s = cur;
    for (std::size_t a = 0; a < rest.size(); ++a) {
      const double s = score.local(j, with(keep, rest[a]));
      if (s < best_s) {
        best_s = s;
        best = static_cast<int>(a);
      }
    }
    if (best < 0) break;
    keep = with(keep, rest[best]);
    rest.erase(rest.begin() + best);
    cur = best_s;
  }
  return keep;
}

// CALM's continuous phase knows nothing of the sample size: with n <= d a
// node of its graph may have a parent set the score refuses (+Inf), from
// which single moves cannot lead. Such nodes keep admissible_parents()
// before the search starts; a start without them is returned unchanged.
IntMatrix admissible_start(const IntMatrix& start, LocalScore& score, const Knowledge* k) {
  if (score.max_parents() < 0) return start;
  IntMatrix dag;
  const bool ext = (k && !k->empty()) ? knowledge_extension(start, *k, dag)
                                      : pdag_extension(start, dag);
  if (!ext) return start;
  const int d = static_cast<int>(dag.rows());
  bool changed = false;
  std::vector<int> pa;
  for (int j = 0; j < d; ++j) {
    pa.clear();
    for (int i = 0; i < d; ++i)
      if (dag(i, j) != 0) pa.push_back(i);
    if (std::isfinite(score.local(j, pa))) continue;
    for (int i : pa) dag(i, j) = 0;
    for (int i : admissible_parents(j, pa, score, k)) dag(i, j) = 1;
    changed = true;
  }
  return changed ? dag_to_cpdag(dag) : start;
}

}  // namespace

GesResult ges_refine(const IntMatrix& start, LocalScore& score, const IntMatrix& allowed,
                     const GesOptions& opt, const std::function<void()>& interrupt) {
  GesResult res;
  IntMatrix g = admissible_start(start, score, opt.knowledge);
  double current = cpdag_score(g, score);
  res.score_before = current;
  // Backward and turning moves first: from CALM's graph, which is close to
  // an independence map of the truth, they are consistent; insertions then
  // only add what the pruned graph still lacks.
  std::vector<GesMoveType> phases;
  if (opt.backward) phases.push_back(GesMoveType::Delete);
  if (opt.turning) phases.push_back(GesMoveType::Turn);
  if (opt.forward) phases.push_back(GesMoveType::Insert);
  InsertCache inserts(static_cast<int>(g.rows()), opt.tol, opt.threads,
                      static_cast<std::size_t>(opt.cache_budget * kGesHelperBudgetShare));
  // each move's new class is computed on its component only (search_ges_update.h)
  CpdagUpdate update(g);
  const bool with_knowledge = opt.knowledge != nullptr && !opt.knowledge->empty();
  DeleteCache deletes(static_cast<int>(g.rows()), opt.tol);
  std::vector<int> touched;
  bool moved_in_pass = true;
  while (moved_in_pass && static_cast<int>(res.moves.size()) < opt.max_moves) {
    moved_in_pass = false;
    for (GesMoveType type : phases) {
      while (static_cast<int>(res.moves.size()) < opt.max_moves) {
        if (interrupt) interrupt();
        GesMove m;
        if (type == GesMoveType::Insert && opt.cached_inserts) {
          m = inserts.best(g, update.out_lists(), update.adjacency(), score, allowed,
                           opt.knowledge);
        } else if (type == GesMoveType::Delete && !with_knowledge) {
          m = deletes.best(g, update.adjacency(), score);
        } else if (type == GesMoveType::Turn) {
          m = best_turn_listed(g, update.adjacency(), update.out_lists(), score, opt.tol,
                               opt.knowledge);
        } else {
          m = best_move(g, type, score, allowed, opt.tol, opt.knowledge);
        }
        if (!m.valid()) break;
        // the class's own change of score decides (guards against an
        // operator whose predicted change its result does not realise)
        double change = 0;
        if (!update.apply(g, m, score, &change, &touched)) break;
        if (!(change < -opt.tol)) {
          update.undo(g);
          break;
        }
        m.delta = change;
        current += change;
        if (opt.cached_inserts) inserts.update(touched, update.adjacency());
        deletes.update(touched, update.adjacency());
        res.moves.push_back(m);
        moved_in_pass = true;
        if (opt.cache_budget > 0 && score.cache_bytes() > opt.cache_budget) score.clear_cache();
      }
    }
    if (phases.size() <= 1) break;
  }
  // the total once more, summed over every vertex as at the start
  if (!res.moves.empty()) current = cpdag_score(g, score);
  res.cpdag = g;
  res.score_after = current;
  return res;
}

}  // namespace calm
