#include "search_boss.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <thread>
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

// The cache budget of each of a helper thread's searches, as a share of
// one of the caller's (see searches_alive()).
constexpr double kHelperBudgetShare = 0.5;

// The cache budget is shared by the caller's search objects: the starts'
// one and one per other grow ratio of the kicks. A helper thread's
// searches (run_starts(), run_kicks()) hold kHelperBudgetShare of that
// budget each on top: splitting the budget with them instead emptied the
// caller's caches so often at 5000 variables that the helper gained nothing.
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

// One kick's search and its pruning: the kicked order, the search's result
// and the pruned class with its score.
struct KickResult {
  OrderSearchResult search;
  IntMatrix cpdag;
  double score = 0;
};

// What one thread needs to run kicks: a score, the order searches (one per
// grow ratio, so each keeps its own trees) and the pruning on that score.
// The caller's thread uses the starts' score and search; a helper thread has
// its own of both: kept from a single start's sweeps (HelperSearch), or
// built on its first kick.
class KickRunner {
 public:
  // `own`: the search at opt.grow_ratio on `score` (the caller's, or the
  // helper's kept one), or null; `proto`: the caller's search, whose exact
  // tables the others share.
  KickRunner(LocalScore& score, const IntMatrix& allowed, const BossOptions& opt,
             const Knowledge* kn, std::size_t budget, OrderSearch* own, const OrderSearch& proto,
             std::function<void()> interrupt, const GesOptions& bes)
      : score_(score), allowed_(allowed), opt_(opt), kn_(kn), budget_(budget), own_(own),
        proto_(&proto), interrupt_(std::move(interrupt)),
        finish_{score, allowed, bes, opt.bes, interrupt_} {}

  // Kick k (kicks[k], at its grow ratio) from the order `from`.
  KickResult run(std::vector<int> from, const std::vector<Kick>& kicks, std::size_t k) {
    const std::vector<double>& ratios = opt_.kick_grow_ratios;
    const double ratio = ratios.empty() ? opt_.grow_ratio : ratios[k % ratios.size()];
    OrderSearch& s = search_for(ratio);
    moved_.clear();
    apply_kick(from, kicks[k], &moved_);
    KickResult out;
    out.search = opt_.kick_local ? s.run_local(std::move(from), moved_, opt_.max_sweeps, opt_.tol)
                                 : s.run(std::move(from), opt_.max_sweeps, opt_.tol);
    int bes_moves = 0;
    finish_(out.search, out.cpdag, out.score, bes_moves);
    return out;
  }

  int cache_clears() const {
    int n = 0;
    for (const auto& o : others_) n += o.second->cache_clears();
    return n;
  }

 private:
  // (a search at another ratio, or the helper's, shares the exact tables
  // of the caller's search `proto_`)
  OrderSearch& search_for(double ratio) {
    if (own_ && ratio == opt_.grow_ratio) return *own_;
    auto it = others_.find(ratio);
    if (it == others_.end())
      it = others_.emplace(ratio, std::make_unique<OrderSearch>(*proto_, score_, ratio, interrupt_,
                                                                budget_))
               .first;
    return *it->second;
  }

  LocalScore& score_;
  const IntMatrix& allowed_;
  const BossOptions& opt_;
  const Knowledge* kn_;
  std::size_t budget_;
  OrderSearch* own_;
  const OrderSearch* proto_;
  std::function<void()> interrupt_;
  Finish finish_;
  std::map<double, std::unique_ptr<OrderSearch>> others_;
  std::vector<int> moved_;
};

// Thrown inside a helper thread when the caller's thread has stopped.
struct HelperStopped {};

// A helper thread's score and order search, kept from a single start's
// sweeps (OrderSearch::run_ahead()) for the kicks after it.
struct HelperSearch {
  std::unique_ptr<LocalScore> score;
  std::unique_ptr<OrderSearch> search;
};

// What one thread keeps of the starts it ran, in the order of their
// indices: the graph of the best by the rule of boss_search() (a later start
// replaces the best only when it scores better by more than opt.tol).
struct StartsBest {
  int start = -1;
  double score = 0;
  IntMatrix cpdag;
};

// Runs start k on `search` into records[k], and keeps its graph in `best`
// when it is the thread's best so far. `ahead`: a helper's search for
// OrderSearch::run_ahead(), or null; `slot`: where another thread that has
// no start left may join the search (OrderSearch::run_joinable()), or null.
void run_start(OrderSearch& search, const Finish& finish, const BossOptions& opt,
               const std::vector<std::vector<int>>& starts, std::size_t k,
               std::vector<BossStart>& records, StartsBest& best, OrderSearch* ahead = nullptr,
               JoinSlot* slot = nullptr) {
  OrderSearchResult r = ahead  ? search.run_ahead(starts[k], opt.max_sweeps, opt.tol, *ahead)
                        : slot ? search.run_joinable(starts[k], opt.max_sweeps, opt.tol, *slot)
                               : search.run(starts[k], opt.max_sweeps, opt.tol);
  BossStart& st = records[k];
  st.order_score = r.score;
  st.moves = r.moves;
  st.order = std::move(r.order);
  IntMatrix cpdag;
  double s = 0;
  finish(r, cpdag, s, st.bes_moves);
  st.score = s;
  if (opt.keep_graphs) st.cpdag = cpdag;
  if (best.start < 0 || s < best.score - opt.tol) {
    best.start = static_cast<int>(k);
    best.score = s;
    best.cpdag = std::move(cpdag);
  }
}

// A helper thread for the starts: takes the next start not yet taken until
// none is left, with a score, order search and pruning of its own (built on
// the thread), while the caller's thread does the same. Its searches never
// call R (their interrupt check only sees whether the caller has stopped).
class StartHelper {
 public:
  // `proto`: the caller's search, whose exact tables the helper's shares.
  StartHelper(const LocalScore& score, const IntMatrix& allowed, const BossOptions& opt,
              const Knowledge* kn, std::size_t budget, const GesOptions& bes,
              const OrderSearch& proto)
      : score_(score.fresh_copy()), allowed_(allowed), opt_(opt), kn_(kn), budget_(budget),
        bes_(bes), proto_(proto) {}
  ~StartHelper() { abandon(); }

  // `mine`: where this thread's searches may be joined; `theirs`: the
  // caller's, which it joins when it has no start left.
  void start(const std::vector<std::vector<int>>& starts, std::atomic<std::size_t>& next,
             std::vector<BossStart>& records, JoinSlot& mine, JoinSlot& theirs) {
    thread_ = std::thread([this, &starts, &next, &records, &mine, &theirs] {
      try {
        const std::function<void()> stop = [this] {
          if (stop_.load()) throw HelperStopped();
        };
        OrderSearch search(proto_, score_, opt_.grow_ratio, stop, budget_);
        const Finish finish{score_, allowed_, bes_, opt_.bes, stop};
        for (std::size_t k = next++; k < starts.size(); k = next++)
          run_start(search, finish, opt_, starts, k, records, best_, nullptr, &mine);
        // the caller's starts, each as it runs, until it has none left
        while (!caller_done_.load()) {
          stop();
          search.help(theirs, opt_.tol);
          std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
        cache_clears_ = search.cache_clears();
      } catch (...) {
        error_ = std::current_exception();
      }
      done_.store(true);
    });
  }
  // The caller's thread has no start left.
  void caller_done() { caller_done_.store(true); }
  // Waits for the thread, calling `interrupt` (R's check) and `help` (the
  // caller's thread joining the helper's search) meanwhile, and rethrows
  // what the thread threw.
  void finish(const std::function<void()>& interrupt, const std::function<void()>& help) {
    while (!done_.load()) {
      if (interrupt) interrupt();
      help();
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    join();
    if (error_) std::rethrow_exception(error_);
  }
  // Stops the thread's search (the caller's thread failed or was interrupted).
  void abandon() {
    stop_.store(true);
    join();
  }
  StartsBest& best() { return best_; }
  int cache_clears() const { return cache_clears_; }

 private:
  void join() {
    if (thread_.joinable()) thread_.join();
  }
  LocalScore score_;
  const IntMatrix& allowed_;
  const BossOptions& opt_;
  const Knowledge* kn_;
  std::size_t budget_;
  const GesOptions& bes_;
  const OrderSearch& proto_;
  std::atomic<bool> stop_{false}, done_{false}, caller_done_{false};
  std::thread thread_;
  StartsBest best_;
  int cache_clears_ = 0;
  std::exception_ptr error_;
};

// The starts' searches, into best.starts, and the best of them by the rule
// of boss_search(). With opt.threads > 1 a helper thread takes starts too
// (StartHelper); each start's result does not depend on the thread that
// ran it, the best is chosen over all of them in the order of the starts,
// and its graph is searched again in the rare case that neither thread kept
// it (scores within opt.tol of each other chaining across threads): the
// result is that of one thread. `ahead` (one start only; may be null): the
// helper's search that examines nodes ahead of the start's sweeps
// (OrderSearch::run_ahead()).
void run_starts(LocalScore& score, const IntMatrix& allowed, const BossOptions& opt,
                const Knowledge* kn, std::size_t budget, OrderSearch& search,
                const GesOptions& bes, const Finish& finish, const std::function<void()>& interrupt,
                const std::vector<std::vector<int>>& starts, OrderSearch* ahead,
                BossResult& best) {
  std::vector<BossStart> records(starts.size());
  StartsBest mine;
  std::atomic<std::size_t> next{0};
  std::unique_ptr<StartHelper> helper;
  // each thread's running search, which the other joins when it has no
  // start left (the last starts took one thread each while the other
  // waited: at 5000 variables the 5 starts over all pairs ran 3 and 2)
  JoinSlot caller_slot, helper_slot;
  if (opt.threads > 1 && starts.size() > 1) {
    helper = std::make_unique<StartHelper>(
        score, allowed, opt, kn, static_cast<std::size_t>(budget * kHelperBudgetShare), bes,
        search);
    helper->start(starts, next, records, helper_slot, caller_slot);
  }
  try {
    for (std::size_t k = next++; k < starts.size(); k = next++)
      run_start(search, finish, opt, starts, k, records, mine, ahead,
                helper ? &caller_slot : nullptr);
    if (helper) {
      helper->caller_done();
      helper->finish(interrupt, [&] { search.help(helper_slot, opt.tol); });
    }
  } catch (...) {
    if (helper) helper->abandon();
    throw;
  }
  int b = 0;
  for (std::size_t k = 1; k < records.size(); ++k)
    if (records[k].score < records[b].score - opt.tol) b = static_cast<int>(k);
  StartsBest* kept = mine.start == b ? &mine : nullptr;
  if (helper && helper->best().start == b) kept = &helper->best();
  if (!kept) {
    std::vector<BossStart> again(starts.size());
    mine = StartsBest();
    run_start(search, finish, opt, starts, static_cast<std::size_t>(b), again, mine);
    kept = &mine;
  }
  best.best_start = b;
  best.score = records[b].score;
  best.cpdag = std::move(kept->cpdag);
  best.order = records[b].order;
  best.starts = std::move(records);
  if (helper) best.cache_clears += helper->cache_clears();
}

// The kicks' shared record (run_kicks()): each kick's state, the result of
// a kick done but not yet taken in, and the version of the best order (the
// improvements taken in so far) each kick started from. A kick is taken in
// only in the order of the kicks, and only when no kick ahead of it improved
// the order after it started; otherwise it waits to run again. Every member
// function locks.
class KickBoard {
 public:
  // `offer(result)`: takes a kick's result in, true when it improved the best
  using Offer = std::function<bool(KickResult&)>;
  KickBoard(std::size_t n, const std::vector<int>& best_order, Offer offer)
      : state_(n, kWaiting), started_at_(n, 0), results_(n), best_order_(best_order),
        offer_(std::move(offer)) {}

  // The next kick to run (the first one waiting) and the order it starts
  // from; false when every kick is taken in or the kicks were stopped.
  // While no kick waits (one ahead may yet be sent back), it waits, calling
  // `poll` (R's interrupt check, the caller's thread only) now and then.
  bool take(std::size_t& k, std::vector<int>& from, const std::function<void()>& poll) {
    std::unique_lock<std::mutex> g(lock_);
    for (;;) {
      if (stop_.load() || next_commit_ >= state_.size()) return false;
      for (k = next_commit_; k < state_.size(); ++k)
        if (state_[k] == kWaiting) break;
      if (k < state_.size()) break;
      changed_.wait_for(g, std::chrono::milliseconds(20));
      if (poll) {
        g.unlock();
        poll();
        g.lock();
      }
    }
    state_[k] = kRunning;
    started_at_[k] = version_;
    from = best_order_;
    return true;
  }

  // Kick k's result; takes in the kicks done, in order.
  void put(std::size_t k, KickResult r) {
    std::lock_guard<std::mutex> g(lock_);
    results_[k] = std::move(r);
    state_[k] = kDone;
    while (next_commit_ < state_.size() && state_[next_commit_] == kDone) {
      const std::size_t j = next_commit_;
      KickResult done = std::move(results_[j]);
      results_[j] = KickResult();
      if (started_at_[j] != version_) {
        state_[j] = kWaiting;  // from an order since replaced: runs again
        break;
      }
      std::vector<int> order = done.search.order;  // (offer_() may take it)
      if (offer_(done)) {
        ++version_;
        best_order_ = std::move(order);
      }
      ++next_commit_;
    }
    changed_.notify_all();
  }

  // Ends the kicks: the threads take none after their present one; `error`,
  // when not null, is rethrown by rethrow().
  void stop(std::exception_ptr error = nullptr) {
    std::lock_guard<std::mutex> g(lock_);
    if (error && !error_) error_ = error;
    stop_.store(true);
    changed_.notify_all();
  }
  bool stopped() const { return stop_.load(); }
  void rethrow() const {
    if (error_) std::rethrow_exception(error_);
  }

 private:
  enum State : char { kWaiting, kRunning, kDone };
  std::mutex lock_;
  std::condition_variable changed_;
  std::vector<State> state_;
  std::vector<int> started_at_;
  std::vector<KickResult> results_;
  std::vector<int> best_order_;
  Offer offer_;
  std::size_t next_commit_ = 0;
  int version_ = 0;
  std::atomic<bool> stop_{false};
  std::exception_ptr error_;
};

// One thread's kicks: until none is left, the next one from the best order
// at that moment (KickBoard).
void kick_worker(KickBoard& board, KickRunner& runner, const std::vector<Kick>& kicks,
                 const std::function<void()>& poll) {
  std::size_t k = 0;
  std::vector<int> from;
  while (board.take(k, from, poll)) {
    if (poll) poll();
    KickResult r = runner.run(std::move(from), kicks, k);
    r.search.dag = IntMatrix();  // the pruned class is what is kept
    board.put(k, std::move(r));
  }
}

// The kicks, each from the best order so far; a better-scoring result
// replaces `best`. With opt.threads > 1 a helper thread takes kicks too:
// each thread takes the first kick waiting, from the best order at that
// moment, and the results are taken in in the order of the kicks. A kick
// that started before a kick ahead of it improved the order is run again
// from the new order when its turn comes; every other kick started from the
// order it would have started from one by one (most kicks do not improve
// it). The kicks' results, and the graph, are those of running them one by
// one; neither thread waits for the other's kick to end (run two by two,
// each pair took as long as its slower kick).
void run_kicks(LocalScore& score, const IntMatrix& allowed, const BossOptions& opt,
               const Knowledge* kn, std::size_t budget, OrderSearch& search, const GesOptions& bes,
               const Finish& finish, const std::function<void()>& interrupt,
               const std::vector<Kick>& kicks, HelperSearch& ahead, BossResult& best) {
  bool improved = false;
  // a graph replaces `best` when it scores better
  auto keep_better = [&](double s, IntMatrix& cpdag, std::vector<int>& order) {
    if (!(s < best.score - opt.tol)) return false;
    best.score = s;
    best.cpdag = std::move(cpdag);
    best.order = std::move(order);
    return true;
  };
  KickBoard board(kicks.size(), best.order, [&](KickResult& r) {
    best.kick_scores.push_back(r.score);
    if (!keep_better(r.score, r.cpdag, r.search.order)) return false;
    ++best.kicks_improved;
    improved = true;
    return true;
  });
  KickRunner runner(score, allowed, opt, kn, budget, &search, search, interrupt, bes);
  std::unique_ptr<LocalScore> helper_score;
  std::unique_ptr<KickRunner> helper_runner;
  std::thread helper;
  if (opt.threads > 1 && kicks.size() > 1) {
    const std::function<void()> stop = [&board] {
      if (board.stopped()) throw HelperStopped();
    };
    LocalScore* hs = ahead.score.get();
    if (!hs) {
      helper_score = std::make_unique<LocalScore>(score.fresh_copy());
      hs = helper_score.get();
    }
    if (ahead.search) ahead.search->set_interrupt(stop);
    helper_runner = std::make_unique<KickRunner>(
        *hs, allowed, opt, kn, static_cast<std::size_t>(budget * kHelperBudgetShare),
        ahead.search.get(), search, stop, bes);
    helper = std::thread([&] {
      try {
        kick_worker(board, *helper_runner, kicks, nullptr);
      } catch (const HelperStopped&) {
      } catch (...) {
        board.stop(std::current_exception());
      }
    });
  }
  auto join = [&] {
    board.stop();
    if (helper.joinable()) helper.join();
    // the helper's kept search must not keep a check on this board
    if (ahead.search) ahead.search->set_interrupt(nullptr);
  };
  try {
    kick_worker(board, runner, kicks, interrupt);
  } catch (...) {
    join();
    throw;
  }
  join();
  board.rethrow();
  // the local repairs leave the nodes they never examined as they were
  if (opt.kick_local && improved) {
    OrderSearchResult r = ahead.search
                              ? search.run_ahead(best.order, opt.max_sweeps, opt.tol, *ahead.search)
                              : search.run(best.order, opt.max_sweeps, opt.tol);
    IntMatrix cpdag;
    double s = 0;
    int bes_moves = 0;
    finish(r, cpdag, s, bes_moves);
    keep_better(s, cpdag, r.order);
  }
  best.cache_clears += runner.cache_clears();
  if (helper_runner) best.cache_clears += helper_runner->cache_clears();
}

}  // namespace

BossResult boss_search(LocalScore& score, const IntMatrix& allowed,
                       const std::vector<std::vector<int>>& starts, const BossOptions& opt,
                       const std::function<void()>& interrupt, const std::vector<Kick>& kicks) {
  if (starts.empty()) throw std::invalid_argument("at least one start order is needed");
  if (opt.max_sweeps < 1) throw std::invalid_argument("max_sweeps must be positive");
  // the tables and trees are built once and shared by the starts this
  // thread runs, and by the kicks
  const Knowledge* kn = opt.knowledge && !(opt.knowledge->empty() && opt.knowledge->precedes.size() == 0)
                            ? opt.knowledge
                            : nullptr;
  const std::size_t budget =
      static_cast<std::size_t>(opt.cache_budget / searches_alive(opt, kicks));
  OrderSearch search(score, allowed, opt.exact_parents_max, opt.grow_ratio, interrupt, kn, budget,
                     opt.threads);
  const GesOptions bes = bes_options(opt, kn);
  const Finish finish{score, allowed, bes, opt.bes, interrupt};
  BossResult best;
  // one start: a helper thread examines the nodes ahead of its sweeps, and
  // its search, trees grown, then takes kicks
  HelperSearch ahead;
  if (opt.threads > 1 && starts.size() == 1) {
    ahead.score = std::make_unique<LocalScore>(score.fresh_copy());
    ahead.search = std::make_unique<OrderSearch>(
        search, *ahead.score, opt.grow_ratio, nullptr,
        static_cast<std::size_t>(budget * kHelperBudgetShare));
  }
  run_starts(score, allowed, opt, kn, budget, search, bes, finish, interrupt, starts,
             ahead.search.get(), best);
  if (!kicks.empty())
    run_kicks(score, allowed, opt, kn, budget, search, bes, finish, interrupt, kicks, ahead, best);
  best.cache_clears += search.cache_clears();
  if (ahead.search) best.cache_clears += ahead.search->cache_clears();
  if (bes.knowledge ? !knowledge_extension(best.cpdag, *kn, best.dag)
                    : !pdag_extension(best.cpdag, best.dag))
    throw std::logic_error("BOSS produced a graph without a consistent extension");
  return best;
}

}  // namespace calm
