#include "search_boss.h"

#include <algorithm>
#include <map>
#include <memory>
#include <stdexcept>
#include <utility>

#include "search_ges.h"
#include "search_order.h"

namespace calm {

void apply_kick(std::vector<int>& order, const Kick& kick, std::vector<int>* moved) {
  const int d = static_cast<int>(order.size());
  if (kick.from.size() != kick.to.size())
    throw std::invalid_argument("a kick needs as many target positions as nodes to move");
  for (std::size_t m = 0; m < kick.from.size(); ++m) {
    const int from = kick.from[m], to = kick.to[m];
    if (from < 0 || from >= d || to < 0 || to >= d)
      throw std::invalid_argument("a kick's positions must lie in 0..d-1");
    const int node = order[from];
    if (moved) moved->push_back(node);
    order.erase(order.begin() + from);
    order.insert(order.begin() + to, node);
  }
}

namespace {

// The cache budget is shared by the search objects alive at once: the
// starts' one, and one per other grow ratio of the kicks.
std::size_t searches_alive(const BossOptions& opt, const std::vector<Kick>& kicks) {
  std::size_t n_searches = 1;
  if (!kicks.empty()) {
    std::vector<double> other;
    for (double r : opt.kick_grow_ratios)
      if (r != opt.grow_ratio && std::find(other.begin(), other.end(), r) == other.end())
        other.push_back(r);
    n_searches += other.size();
  }
  return n_searches;
}

// The pruning of an order search's result: backward equivalence search
// (Delete moves only), under the knowledge.
GesOptions bes_options(const BossOptions& opt, const Knowledge* kn) {
  GesOptions bes;
  bes.forward = false;
  bes.backward = true;
  bes.turning = false;
  bes.tol = opt.tol;
  bes.knowledge = kn && !kn->empty() ? kn : nullptr;
  return bes;
}

// An order search's result as a CPDAG and its score, pruned by BES when
// asked.
struct Finish {
  LocalScore& score;
  const IntMatrix& allowed;
  const GesOptions& bes;
  bool prune;
  const std::function<void()>& interrupt;

  void operator()(const OrderSearchResult& r, IntMatrix& cpdag, double& s, int& bes_moves) const {
    cpdag = dag_to_cpdag(r.dag);
    s = r.score;
    bes_moves = 0;
    if (prune) {
      GesResult g = ges_refine(cpdag, score, allowed, bes, interrupt);
      cpdag = std::move(g.cpdag);
      s = g.score_after;
      bes_moves = static_cast<int>(g.moves.size());
    }
    if (score.interventional()) keep_dag(r, cpdag, s, bes_moves);
  }

  // The interventional score tells the members of a class apart, so the
  // result stays a DAG (its own consistent extension): the order search's,
  // or the member of BES's class that the extension gives when that scores
  // better.
  void keep_dag(const OrderSearchResult& r, IntMatrix& cpdag, double& s, int bes_moves) const {
    if (bes_moves > 0) {
      IntMatrix member;
      const bool ext = bes.knowledge ? knowledge_extension(cpdag, *bes.knowledge, member)
                                     : pdag_extension(cpdag, member);
      if (ext) {
        const double sm = score.dag_score(member);
        if (sm < r.score - bes.tol) {
          cpdag = std::move(member);
          s = sm;
          return;
        }
      }
    }
    cpdag = r.dag;
    s = r.score;
  }
};

// The kicks, each from the best order so far, with its own search object
// per grow ratio (so each keeps its own trees; the starts' one serves their
// own ratio); a better-scoring result replaces `best`.
void run_kicks(LocalScore& score, const IntMatrix& allowed, const BossOptions& opt,
               const Knowledge* kn, std::size_t budget, OrderSearch& search, const Finish& finish,
               const std::function<void()>& interrupt, const std::vector<Kick>& kicks,
               BossResult& best) {
  std::map<double, std::unique_ptr<OrderSearch>> others;
  auto search_for = [&](double ratio) -> OrderSearch& {
    if (ratio == opt.grow_ratio) return search;
    auto it = others.find(ratio);
    if (it == others.end())
      it = others.emplace(ratio, std::make_unique<OrderSearch>(score, allowed, opt.exact_parents_max,
                                                               ratio, interrupt, kn, budget)).first;
    return *it->second;
  };
  const std::vector<double>& ratios = opt.kick_grow_ratios;
  // a result replaces `best` when it scores better
  auto offer = [&](const OrderSearchResult& r, bool is_kick) {
    IntMatrix cpdag;
    double s = 0;
    int bes_moves = 0;
    finish(r, cpdag, s, bes_moves);
    if (is_kick) best.kick_scores.push_back(s);
    if (!(s < best.score - opt.tol)) return false;
    best.score = s;
    best.cpdag = std::move(cpdag);
    best.order = r.order;
    return true;
  };
  std::vector<int> moved;
  bool improved = false;
  for (std::size_t k = 0; k < kicks.size(); ++k) {
    std::vector<int> order = best.order;
    moved.clear();
    apply_kick(order, kicks[k], &moved);
    const double ratio = ratios.empty() ? opt.grow_ratio : ratios[k % ratios.size()];
    OrderSearch& s = search_for(ratio);
    if (offer(opt.kick_local ? s.run_local(order, moved, opt.max_sweeps, opt.tol)
                             : s.run(order, opt.max_sweeps, opt.tol),
              true)) {
      ++best.kicks_improved;
      improved = true;
    }
  }
  // the local repairs leave the nodes they never examined as they were
  if (opt.kick_local && improved) offer(search.run(best.order, opt.max_sweeps, opt.tol), false);
  for (const auto& o : others) best.cache_clears += o.second->cache_clears();
}

}  // namespace

BossResult boss_search(LocalScore& score, const IntMatrix& allowed,
                       const std::vector<std::vector<int>>& starts, const BossOptions& opt,
                       const std::function<void()>& interrupt, const std::vector<Kick>& kicks) {
  if (starts.empty()) throw std::invalid_argument("at least one start order is needed");
  if (opt.max_sweeps < 1) throw std::invalid_argument("max_sweeps must be positive");
  // the tables and trees are built once and shared by all starts
  const Knowledge* kn = opt.knowledge && !(opt.knowledge->empty() && opt.knowledge->precedes.size() == 0)
                            ? opt.knowledge
                            : nullptr;
  const std::size_t budget =
      static_cast<std::size_t>(opt.cache_budget / searches_alive(opt, kicks));
  OrderSearch search(score, allowed, opt.exact_parents_max, opt.grow_ratio, interrupt, kn, budget);
  const GesOptions bes = bes_options(opt, kn);
  const Finish finish{score, allowed, bes, opt.bes, interrupt};
  BossResult best;
  for (std::size_t k = 0; k < starts.size(); ++k) {
    OrderSearchResult r = search.run(starts[k], opt.max_sweeps, opt.tol);
    BossStart st;
    st.order_score = r.score;
    st.moves = r.moves;
    st.order = r.order;
    IntMatrix cpdag;
    double s = 0;
    finish(r, cpdag, s, st.bes_moves);
    st.score = s;
    if (opt.keep_graphs) st.cpdag = cpdag;
    best.starts.push_back(std::move(st));
    // ties go to the earlier start, so results do not depend on how the
    // starts are split between calls
    if (best.best_start < 0 || s < best.score - opt.tol) {
      best.best_start = static_cast<int>(k);
      best.score = s;
      best.cpdag = std::move(cpdag);
      best.order = r.order;
    }
  }
  if (!kicks.empty()) run_kicks(score, allowed, opt, kn, budget, search, finish, interrupt, kicks, best);
  best.cache_clears += search.cache_clears();
  if (bes.knowledge ? !knowledge_extension(best.cpdag, *kn, best.dag)
                    : !pdag_extension(best.cpdag, best.dag))
    throw std::logic_error("BOSS produced a graph without a consistent extension");
  return best;
}

}  // namespace calm
