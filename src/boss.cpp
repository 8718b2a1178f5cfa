#include "boss.h"

#include <stdexcept>

#include "ges_refine.h"
#include "order_search.h"

namespace calm {

BossResult boss_search(LocalScore& score, const IntMatrix& allowed,
                       const std::vector<std::vector<int>>& starts, const BossOptions& opt,
                       const std::function<void()>& interrupt) {
  if (starts.empty()) throw std::invalid_argument("at least one start order is needed");
  if (opt.max_sweeps < 1) throw std::invalid_argument("max_sweeps must be positive");
  // the tables and trees are built once and shared by all starts
  OrderSearch search(score, allowed, opt.exact_limit, opt.grow_ratio, interrupt);
  GesOptions bes;
  bes.forward = false;
  bes.backward = true;
  bes.turning = false;
  bes.tol = opt.tol;
  BossResult best;
  for (std::size_t k = 0; k < starts.size(); ++k) {
    OrderSearchResult r = search.run(starts[k], opt.max_sweeps, opt.tol);
    BossStart st;
    st.order_score = r.score;
    st.moves = r.moves;
    st.order = r.order;
    IntMatrix cpdag = dag_to_cpdag(r.dag);
    double s = r.score;
    if (opt.bes) {
      GesResult g = ges_refine(cpdag, score, allowed, bes, interrupt);
      cpdag = g.cpdag;
      s = g.score_after;
      st.bes_moves = static_cast<int>(g.moves.size());
    }
    st.score = s;
    best.starts.push_back(st);
    // ties go to the earlier start, so results do not depend on how the
    // starts are split between calls
    if (best.best_start < 0 || s < best.score - opt.tol) {
      best.best_start = static_cast<int>(k);
      best.score = s;
      best.cpdag = cpdag;
      best.order = r.order;
    }
  }
  if (!pdag_extension(best.cpdag, best.dag))
    throw std::logic_error("BOSS produced a graph without a consistent extension");
  return best;
}

}  // namespace calm
