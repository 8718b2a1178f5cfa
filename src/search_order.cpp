#include "search_order.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>
#include <cstdint>
#include <limits>
#include <memory>
#include <stdexcept>

#include "parallel_for.h"

namespace calm {

namespace {
// The positions in `cand` of the nodes in `required` (increasing).
std::vector<int> required_positions(const std::vector<int>& cand, const std::vector<int>& required) {
  std::vector<int> pos;
  for (std::size_t b = 0; b < cand.size(); ++b)
    if (std::find(required.begin(), required.end(), cand[b]) != required.end())
      pos.push_back(static_cast<int>(b));
  return pos;
}
}  // namespace

std::shared_ptr<const ExactTable> exact_table(const LocalScore& score, int j,
                                              const std::vector<int>& cand,
                                              const std::vector<int>& required_pos) {
  auto t = std::make_shared<ExactTable>();
  std::vector<double>& best = t->best;
  std::vector<std::uint32_t>& arg = t->arg;
  const int k = static_cast<int>(cand.size());
  best = score.all_subset_scores(j, cand);
  if (!required_pos.empty()) {
    // only sets holding every required parent count
    std::uint32_t req_bits = 0;
    for (int b : required_pos) req_bits |= std::uint32_t(1) << b;
    for (std::uint32_t m = 0; m < best.size(); ++m)
      if ((m & req_bits) != req_bits) best[m] = std::numeric_limits<double>::infinity();
  }
  arg.resize(best.size());
  for (std::uint32_t m = 0; m < best.size(); ++m) {
    arg[m] = m;
    for (int b = 0; b < k; ++b) {
      const std::uint32_t bit = std::uint32_t(1) << b;
      if ((m & bit) && best[m ^ bit] < best[m]) {
        best[m] = best[m ^ bit];
        arg[m] = arg[m ^ bit];
      }
    }
  }
  return t;
}

ParentChooser::ParentChooser(LocalScore& score, int j, std::vector<int> cand, int exact_parents_max,
                             double grow_ratio, const std::vector<int>& required,
                             std::shared_ptr<const ExactTable> table)
    : score_(score), j_(j), cand_(std::move(cand)) {
  const int k = static_cast<int>(cand_.size());
  required_pos_ = required_positions(cand_, required);
  exact_ = k <= exact_parents_max;
  if (!exact_) {
    if (!required_pos_.empty()) {
      // the tree's candidates are the free ones; the required parents sit
      // in every set it builds
      tree_pos_.assign(k, -1);
      int free = 0;
      for (int b = 0; b < k; ++b)
        if (!std::binary_search(required_pos_.begin(), required_pos_.end(), b))
          tree_pos_[b] = free++;
      tree_allowed_.assign(free, 0);
    }
    make_tree(grow_ratio);
    return;
  }
  table_ = table ? std::move(table) : exact_table(score_, j_, cand_, required_pos_);
}

ParentChooser::ParentChooser(const ParentChooser& proto, LocalScore& score, double grow_ratio)
    : score_(score),
      j_(proto.j_),
      cand_(proto.cand_),
      required_pos_(proto.required_pos_),
      tree_pos_(proto.tree_pos_),
      tree_allowed_(std::count_if(proto.tree_pos_.begin(), proto.tree_pos_.end(),
                                  [](int b) { return b >= 0; }),
                    0),
      exact_(proto.exact_),
      table_(proto.table_) {
  if (!exact_) make_tree(grow_ratio);
}

void ParentChooser::make_tree(double grow_ratio) {
  if (required_pos_.empty()) {
    tree_.reset(new GrowShrinkTree(score_, j_, cand_, grow_ratio));
    return;
  }
  std::vector<int> free, req;
  for (std::size_t b = 0; b < cand_.size(); ++b) {
    if (tree_pos_[b] < 0) req.push_back(cand_[b]);
    else free.push_back(cand_[b]);
  }
  tree_.reset(new GrowShrinkTree(score_, j_, free, grow_ratio, req));
}

double ParentChooser::best(const std::vector<char>& allowed, std::vector<int>* chosen) {
  for (int b : required_pos_) {
    if (!allowed[b]) {
      if (chosen) chosen->clear();
      return std::numeric_limits<double>::infinity();
    }
  }
  if (!exact_) {
    if (required_pos_.empty()) return tree_->best(allowed, chosen);
    for (std::size_t b = 0; b < tree_pos_.size(); ++b)
      if (tree_pos_[b] >= 0) tree_allowed_[tree_pos_[b]] = allowed[b];
    return tree_->best(tree_allowed_, chosen);
  }
  const int k = static_cast<int>(cand_.size());
  std::uint32_t m = 0;
  for (int b = 0; b < k; ++b)
    if (allowed[b]) m |= std::uint32_t(1) << b;
  if (chosen) {
    chosen->clear();
    for (int b = 0; b < k; ++b)
      if (table_->arg[m] & (std::uint32_t(1) << b)) chosen->push_back(cand_[b]);
  }
  return table_->best[m];
}

namespace {

// The exact tables of the nodes with at most `exact_parents_max` candidates
// (null for the others), on `threads` threads that take the nodes in turn
// (parallel_for()).
std::vector<std::shared_ptr<const ExactTable>> exact_tables(
    const LocalScore& score, const std::vector<std::vector<int>>& cands,
    const std::vector<std::vector<int>>& required, int exact_parents_max, int threads,
    const std::function<void()>& interrupt) {
  std::vector<std::shared_ptr<const ExactTable>> out(cands.size());
  parallel_for(
      cands.size(), threads,
      [&](std::size_t j) {
        const std::vector<int>& cand = cands[j];
        if (static_cast<int>(cand.size()) > exact_parents_max) return;
        out[j] = exact_table(score, static_cast<int>(j), cand,
                             required_positions(cand, required[j]));
      },
      interrupt);
  return out;
}

}  // namespace

OrderSearch::OrderSearch(LocalScore& score, const IntMatrix& allowed, int exact_parents_max,
                         double grow_ratio, std::function<void()> interrupt,
                         const Knowledge* knowledge, std::size_t cache_budget, int threads)
    : score_(score), interrupt_(std::move(interrupt)), cache_budget_(cache_budget) {
  const int d = score.dim();
  if (allowed.rows() != d || allowed.cols() != d)
    throw std::invalid_argument("mask and covariance differ in size");
  if (knowledge) {
    for (const IntMatrix* m : {&knowledge->required, &knowledge->forbidden, &knowledge->precedes})
      if (m->size() != 0 && (m->rows() != d || m->cols() != d))
        throw std::invalid_argument("knowledge and covariance differ in size");
  }
  // what every order must keep: required parents and earlier tiers first
  // (without knowledge nothing: no d x d matrix, 0.1 GB at 10,000 variables)
  before_.assign(d, {});
  after_.assign(d, {});
  if (knowledge && (knowledge->required.size() != 0 || knowledge->precedes.size() != 0)) {
    IntMatrix prec = IntMatrix::Zero(d, d);
    if (knowledge->required.size() != 0) prec = (knowledge->required.array() != 0).cast<GraphEntry>();
    if (knowledge->precedes.size() != 0)
      prec = prec.cwiseMax((knowledge->precedes.array() != 0).cast<GraphEntry>().matrix());
    prec.diagonal().setZero();
    if (!is_dag(prec))
      throw std::invalid_argument("the required edges and tiers admit no order of the variables");
    for (int j = 0; j < d; ++j)
      for (int i = 0; i < d; ++i)
        if (prec(i, j) != 0) {
          before_[j].push_back(i);
          after_[i].push_back(j);
        }
  }
  if (exact_parents_max > 20) exact_parents_max = 20;
  dependents_.assign(d, {});
  required_.assign(d, {});
  std::vector<std::vector<int>> cands(d);
  for (int j = 0; j < d; ++j) {
    std::vector<int>& cand = cands[j];
    for (int i = 0; i < d; ++i) {
      if (i == j) continue;
      if (knowledge && knowledge->is_required(i, j)) {
        if (knowledge->is_forbidden(i, j))
          throw std::invalid_argument("an edge is both required and forbidden");
        required_[j].push_back(i);
        cand.push_back(i);
      } else if (allowed(i, j) != 0 && !(knowledge && knowledge->is_forbidden(i, j))) {
        cand.push_back(i);
      }
    }
    for (int i : cand) dependents_[i].push_back(j);
  }
  std::vector<std::shared_ptr<const ExactTable>> tables =
      exact_tables(score, cands, required_, exact_parents_max, threads, interrupt_);
  choosers_.reserve(d);
  for (int j = 0; j < d; ++j) {
    choosers_.emplace_back(score, j, std::move(cands[j]), exact_parents_max, grow_ratio,
                           required_[j], std::move(tables[j]));
    if (interrupt_) interrupt_();
  }
}

OrderSearch::OrderSearch(const OrderSearch& proto, LocalScore& score, double grow_ratio,
                         std::function<void()> interrupt, std::size_t cache_budget)
    : score_(score),
      interrupt_(std::move(interrupt)),
      dependents_(proto.dependents_),
      required_(proto.required_),
      before_(proto.before_),
      after_(proto.after_),
      cache_budget_(cache_budget) {
  if (score.dim() != proto.score_.dim())
    throw std::invalid_argument("the searches' scores differ in size");
  choosers_.reserve(proto.choosers_.size());
  for (const ParentChooser& c : proto.choosers_) choosers_.emplace_back(c, score, grow_ratio);
}

void OrderSearch::follow_precedence(std::vector<int>& order) const {
  const int d = static_cast<int>(order.size());
  bool any = false;
  for (const std::vector<int>& b : before_) any = any || !b.empty();
  if (!any) return;
  // repeatedly place the earliest node whose predecessors are placed
  std::vector<char> placed(d, 0);
  std::vector<int> out;
  out.reserve(d);
  while (static_cast<int>(out.size()) < d) {
    bool found = false;
    for (int v : order) {
      if (placed[v]) continue;
      bool ready = true;
      for (int p : before_[v]) ready = ready && placed[p];
      if (!ready) continue;
      placed[v] = 1;
      out.push_back(v);
      found = true;
      break;
    }
    if (!found) throw std::logic_error("the required edges and tiers admit no order");
  }
  order = std::move(out);
}

namespace {
void check_permutation(const std::vector<int>& order, int d) {
  if (static_cast<int>(order.size()) != d) throw std::invalid_argument("order has the wrong length");
  std::vector<char> seen(d, 0);
  for (int v : order) {
    if (v < 0 || v >= d || seen[v]) throw std::invalid_argument("order is not a permutation");
    seen[v] = 1;
  }
}
}  // namespace

IntMatrix OrderSearch::best_dag(const std::vector<int>& pos) {
  const int d = score_.dim();
  IntMatrix dag = IntMatrix::Zero(d, d);
  std::vector<char> mask;
  std::vector<int> chosen;
  for (int j = 0; j < d; ++j) {
    const std::vector<int>& c = choosers_[j].candidates();
    mask.assign(c.size(), 0);
    for (std::size_t b = 0; b < c.size(); ++b) mask[b] = pos[c[b]] < pos[j] ? 1 : 0;
    choosers_[j].best(mask, &chosen);
    for (int i : chosen) dag(i, j) = 1;
  }
  return dag;
}

// Score of node j when its allowed parents are the candidates placed before
// position `limit_pos`, except `excluded`, plus `extra` (-1: none).
double OrderSearch::node_score(const std::vector<int>& pos, int j, int excluded, int extra,
                               int limit_pos) {
  const std::vector<int>& c = choosers_[j].candidates();
  mask_.assign(c.size(), 0);
  for (std::size_t b = 0; b < c.size(); ++b)
    mask_[b] = (c[b] != excluded && (c[b] == extra || pos[c[b]] < limit_pos)) ? 1 : 0;
  return choosers_[j].best(mask_, nullptr);
}

// The position of v in the order without v (left in `reduced`) that lowers
// the total score most, by more than `tol`, among those that keep the nodes
// v must follow before it and the nodes it must precede after it; -1 when
// no position does.
int OrderSearch::best_position(int v, const std::vector<int>& order, const std::vector<int>& pos,
                               const std::vector<double>& local, double tol,
                               std::vector<int>& reduced) {
  const int d = score_.dim();
  int q = 0;
  for (int p = 0; p < d; ++p)
    if (order[p] != v) reduced[q++] = order[p];
  rpos_.resize(d);
  for (int p = 0; p < d - 1; ++p) rpos_[reduced[p]] = p;
  rpos_[v] = -1;
  const std::vector<int>& cv = choosers_[v].candidates();
  // the nodes that may take v as a parent: their scores with and without
  // v before them (the rest of their predecessor sets does not depend on
  // where v goes); without knowledge the same nodes as v's candidates
  const std::vector<int>& dv = dependents_[v];
  std::vector<double> s_with(dv.size()), s_without(dv.size());
  double base_others = 0;  // current scores of those nodes
  for (std::size_t b = 0; b < dv.size(); ++b) {
    const int w = dv[b];
    s_without[b] = node_score(pos, w, v, -1, pos[w]);
    s_with[b] = node_score(pos, w, -1, v, pos[w]);
    base_others += local[w];
  }
  const double base = local[v] + base_others;
  // v at position p of the reduced order: predecessors reduced[0..p-1]
  int lo = 0, hi = d - 1;
  for (int u : before_[v]) lo = std::max(lo, rpos_[u] + 1);
  for (int u : after_[v]) hi = std::min(hi, rpos_[u]);
  // The total is constant between the positions where a candidate of v
  // joins its predecessors (at rpos + 1) or a dependent stops following it
  // (also at rpos + 1): only the first position of each such run, and `lo`,
  // can be best, as the first position of the smallest total is chosen. So
  // the cost grows with v's candidates and dependents, not with d.
  events_.clear();
  events_.push_back(lo);
  for (int u : cv) events_.push_back(rpos_[u] + 1);
  for (int w : dv) events_.push_back(rpos_[w] + 1);
  std::sort(events_.begin(), events_.end());
  events_.erase(std::unique(events_.begin(), events_.end()), events_.end());
  std::vector<char> vmask(cv.size(), 0);
  double best_delta = 0;
  int best_p = -1;
  for (int p : events_) {
    if (p < lo || p > hi) continue;
    for (std::size_t b = 0; b < cv.size(); ++b) vmask[b] = rpos_[cv[b]] < p ? 1 : 0;
    double s = choosers_[v].best(vmask, nullptr);
    for (std::size_t b = 0; b < dv.size(); ++b)
      s += (rpos_[dv[b]] >= p) ? s_with[b] : s_without[b];
    const double delta = s - base;
    if (delta < best_delta - tol) {
      best_delta = delta;
      best_p = p;
    }
  }
  return best_p;
}

// run_ahead()'s record, under one lock: the findings of the nodes (the
// position each should move to, -1 for none) with the version of the order
// they were found at (the moves made before; -1: none yet), the next node
// of the sweep that neither thread has taken, and a copy of the order at
// the present version for the helper.
struct SweepBoard {
  explicit SweepBoard(int d) : found_at(d, -1), found(d, -1) {}
  std::mutex lock;
  std::condition_variable changed;
  std::vector<int> found_at, found;
  int version = 0;
  int next = 0;
  std::vector<int> order, pos;
  std::vector<double> local;
  std::atomic<bool> stop{false};  // the caller's search has ended
  bool gone = false;  // the helper has ended (it failed, or was stopped)

  // The next node not taken whose finding at this version is not known
  // (-1: none before the end of the sweep, or the search has not begun).
  int take() {
    const int d = static_cast<int>(found.size());
    if (order.empty()) return -1;
    while (next < d && found_at[next] == version) ++next;
    return next < d ? next++ : -1;
  }
  // The order at `at` moves, for the helper to copy; the sweep goes on
  // from node `from`.
  void publish(int at, const std::vector<int>& o, const std::vector<int>& p,
               const std::vector<double>& l, int from) {
    std::lock_guard<std::mutex> g(lock);
    version = at;
    order = o;
    pos = p;
    local = l;
    next = from;
    changed.notify_all();
  }
  // The caller's search has ended: the helper leaves.
  void end() {
    std::lock_guard<std::mutex> g(lock);
    stop.store(true);
    changed.notify_all();
  }
  // A finding, kept when no move was made since it was found.
  void put(int v, int at, int p) {
    if (at != version) return;
    found_at[v] = at;
    found[v] = p;
  }
};

int OrderSearch::examine(int v, const std::vector<int>& order, const std::vector<int>& pos,
                         const std::vector<double>& local, double tol, std::vector<int>& reduced) {
  if (interrupt_) interrupt_();
  bound_caches();
  return best_position(v, order, pos, local, tol, reduced);
}

void OrderSearch::place(int v, int p, std::vector<int>& order, std::vector<int>& pos,
                        std::vector<double>& local, double& total,
                        const std::vector<int>& reduced) {
  const int d = score_.dim();
  order.assign(reduced.begin(), reduced.begin() + p);
  order.push_back(v);
  order.insert(order.end(), reduced.begin() + p, reduced.end());
  for (int q = 0; q < d; ++q) pos[order[q]] = q;
  local[v] = node_score(pos, v, -1, -1, pos[v]);
  for (int w : dependents_[v]) local[w] = node_score(pos, w, -1, -1, pos[w]);
  total = 0;
  for (int j = 0; j < d; ++j) total += local[j];
}

OrderSearchResult OrderSearch::run(std::vector<int> order, int max_sweeps, double tol) {
  return search(std::move(order), nullptr, max_sweeps, tol);
}

OrderSearchResult OrderSearch::run_local(std::vector<int> order, const std::vector<int>& focus,
                                         int max_sweeps, double tol) {
  return search(std::move(order), &focus, max_sweeps, tol);
}

double OrderSearch::begin(std::vector<int>& order, std::vector<int>& pos,
                          std::vector<double>& local) {
  const int d = score_.dim();
  check_permutation(order, d);
  follow_precedence(order);
  pos.assign(d, 0);
  for (int p = 0; p < d; ++p) pos[order[p]] = p;
  local.assign(d, 0);
  double total = 0;
  for (int j = 0; j < d; ++j) {
    local[j] = node_score(pos, j, -1, -1, pos[j]);
    total += local[j];
  }
  return total;
}

OrderSearchResult OrderSearch::search(std::vector<int> order, const std::vector<int>* focus,
                                      int max_sweeps, double tol, SweepBoard* board) {
  const int d = score_.dim();
  std::vector<int> pos;
  std::vector<double> local;
  double total = begin(order, pos, local);
  OrderSearchResult res;
  res.score_start = total;
  std::vector<int> reduced(d - 1);
  // the moves made so far (run_ahead()'s findings carry the number)
  int version = 0;
  auto publish = [&](int next) {
    if (board) board->publish(version, order, pos, local, next);
  };
  publish(0);
  // the nodes a sweep examines, in node order: all of them without a
  // focus; with one, those marked (a node marked behind the sweep waits for
  // the next)
  std::vector<char> marked(d, focus ? 0 : 1);
  int n_marked = 0;
  auto mark = [&](int u) {
    if (marked[u]) return;
    marked[u] = 1;
    ++n_marked;
  };
  auto mark_around = [&](int v) {
    for (int u : choosers_[v].candidates()) mark(u);
    for (int u : dependents_[v]) mark(u);
  };
  if (focus)
    for (int v : *focus) {
      if (v < 0 || v >= d) throw std::invalid_argument("a focus node lies outside 0..d-1");
      mark(v);
      mark_around(v);
    }
  for (int sweep = 0; sweep < max_sweeps; ++sweep) {
    bool moved = false;
    if (sweep > 0) publish(0);
    for (int v = 0; v < d; ++v) {
      if (!marked[v]) continue;
      if (focus) {
        marked[v] = 0;
        --n_marked;
      }
      const int p = board ? finding(*board, v, version, order, pos, local, tol, reduced)
                          : examine(v, order, pos, local, tol, reduced);
      if (p < 0) continue;
      if (board) {
        // (a finding of the helper's: the order without v)
        int q = 0;
        for (int u : order)
          if (u != v) reduced[q++] = u;
      }
      place(v, p, order, pos, local, total, reduced);
      ++version;
      publish(v + 1);
      ++res.moves;
      moved = true;
      if (focus) mark_around(v);
    }
    if (focus ? n_marked == 0 : !moved) break;
  }
  res.dag = best_dag(pos);
  res.score = total;
  res.order = order;
  return res;
}

void OrderSearch::examine_ahead(SweepBoard& board, double tol) {
  const int d = score_.dim();
  std::vector<int> order, pos, reduced(d - 1);
  std::vector<double> local;
  int have = -1;  // the version of the copy held
  std::unique_lock<std::mutex> g(board.lock);
  while (!board.stop) {
    const int v = board.take();
    if (v < 0) {
      board.changed.wait(g);
      continue;
    }
    if (have != board.version) {
      order = board.order;
      pos = board.pos;
      local = board.local;
      have = board.version;
    }
    g.unlock();
    const int p = examine(v, order, pos, local, tol, reduced);
    g.lock();
    board.put(v, have, p);
    board.changed.notify_all();
  }
}

int OrderSearch::finding(SweepBoard& board, int v, int version, const std::vector<int>& order,
                         const std::vector<int>& pos, const std::vector<double>& local,
                         double tol, std::vector<int>& reduced) {
  std::unique_lock<std::mutex> g(board.lock);
  for (;;) {
    if (board.found_at[v] == version) return board.found[v];
    if (board.next <= v || board.gone) {
      // v not taken: the caller examines it
      if (board.next <= v) board.next = v + 1;
      g.unlock();
      return examine(v, order, pos, local, tol, reduced);
    }
    // the helper is examining v: examine a node after it meanwhile, or wait
    const int k = board.take();
    if (k < 0) {
      board.changed.wait_for(g, std::chrono::milliseconds(20));
      if (interrupt_) {
        g.unlock();
        interrupt_();
        g.lock();
      }
      continue;
    }
    g.unlock();
    const int p = examine(k, order, pos, local, tol, reduced);
    g.lock();
    board.put(k, version, p);
  }
}

OrderSearchResult OrderSearch::run_ahead(std::vector<int> order, int max_sweeps, double tol,
                                         OrderSearch& ahead) {
  const int d = score_.dim();
  if (&ahead == this || ahead.score_.dim() != d || &ahead.score_ == &score_)
    throw std::invalid_argument("run_ahead() needs a search of its own score");
  SweepBoard board(d);
  const std::function<void()> kept = ahead.interrupt_;
  ahead.interrupt_ = [&board] {
    if (board.stop.load()) throw std::runtime_error("stopped");
  };
  std::thread helper([&] {
    try {
      ahead.examine_ahead(board, tol);
    } catch (...) {
    }
    std::lock_guard<std::mutex> g(board.lock);
    board.gone = true;
    board.changed.notify_all();
  });
  return search_on(std::move(order), max_sweeps, tol, board, [&] {
    board.end();
    helper.join();
    ahead.interrupt_ = kept;
  });
}

OrderSearchResult OrderSearch::search_on(std::vector<int> order, int max_sweeps, double tol,
                                         SweepBoard& board, const std::function<void()>& end) {
  OrderSearchResult res;
  try {
    res = search(std::move(order), nullptr, max_sweeps, tol, &board);
  } catch (...) {
    end();
    throw;
  }
  end();
  return res;
}

namespace {

// Thrown in a helping thread's search when the search it helps has ended.
struct HelpEnded {};

}  // namespace

OrderSearchResult OrderSearch::run_joinable(std::vector<int> order, int max_sweeps, double tol,
                                            JoinSlot& slot) {
  SweepBoard board(score_.dim());
  {
    std::lock_guard<std::mutex> g(slot.lock);
    slot.board = &board;
  }
  // no thread joins after this, and the board outlives every helper
  return search_on(std::move(order), max_sweeps, tol, board, [&] {
    std::unique_lock<std::mutex> g(slot.lock);
    slot.board = nullptr;
    board.end();
    slot.left.wait(g, [&] { return slot.present == 0; });
  });
}

void OrderSearch::help(JoinSlot& slot, double tol) {
  SweepBoard* board = nullptr;
  {
    std::lock_guard<std::mutex> g(slot.lock);
    if (!slot.board) return;
    board = slot.board;
    ++slot.present;
  }
  const std::function<void()> kept = interrupt_;
  interrupt_ = [&kept, board] {
    if (kept) kept();
    if (board->stop.load()) throw HelpEnded();
  };
  std::exception_ptr error;
  try {
    examine_ahead(*board, tol);
  } catch (const HelpEnded&) {
  } catch (...) {
    error = std::current_exception();
  }
  interrupt_ = kept;
  {
    std::lock_guard<std::mutex> g(slot.lock);
    {
      // the caller examines what this thread would have
      std::lock_guard<std::mutex> b(board->lock);
      board->gone = true;
      board->changed.notify_all();
    }
    --slot.present;
    slot.left.notify_all();
  }
  if (error) std::rethrow_exception(error);
}

void OrderSearch::bound_caches() {
  if (cache_budget_ == 0) return;
  // summing the trees' bytes is O(d): done every kBoundEvery calls (the
  // caches grow by a few trees' nodes a call; results do not depend on them)
  constexpr int kBoundEvery = 64;
  if (++bound_calls_ % kBoundEvery != 0) return;
  std::size_t used = score_.cache_bytes();
  for (const ParentChooser& c : choosers_) used += c.tree_bytes();
  if (used <= cache_budget_) return;
  for (ParentChooser& c : choosers_) c.clear_tree();
  score_.clear_cache();
  ++cache_clears_;
}

OrderSearchResult order_search(LocalScore& score, const IntMatrix& allowed, std::vector<int> order,
                               int max_sweeps, double tol, int exact_parents_max, double grow_ratio,
                               const std::function<void()>& interrupt, const Knowledge* knowledge,
                               std::size_t cache_budget) {
  OrderSearch search(score, allowed, exact_parents_max, grow_ratio, interrupt, knowledge, cache_budget);
  return search.run(std::move(order), max_sweeps, tol);
}

}  // namespace calm
