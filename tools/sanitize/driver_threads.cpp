// ThreadSanitizer driver (tools/sanitize/tsan.sh): the kernel's team of
// threads (thread_team.cpp: helpers that spin, then sleep on a condition
// variable) under many hand-overs, teams started and stopped, a part that
// throws, and whole 2-thread fits, which must equal the 1-thread fit bit for
// bit; the search's threads too (IAMB's targets, GES's insertion lists,
// BOSS's starts and kicks, its shared exact tables, the covariance's
// panels), each equal to one thread.
#include <chrono>
#include <cstdio>
#include <new>
#include <random>
#include <stdexcept>
#include <thread>
#include <vector>

#include "calm_options.h"
#include "sanitize_check.h"
#include "sanitize_util.h"
#include "iamb.h"
#include "moments.h"
#include "search_scan.h"
#include "search_boss.h"
#include "search_ges.h"
#include "search_score.h"
#include "thread_team.h"

namespace {

struct Work {
  std::vector<double> in;     // written by the caller before each run
  std::vector<double> out;    // one slot per part, written by that part
  int throw_part = -1;
};

void work_fn(void* ctx, int part) {
  Work* w = static_cast<Work*>(ctx);
  if (part == w->throw_part) throw std::bad_alloc();
  double s = 0;
  for (double v : w->in) s += v * (part + 1);
  w->out[part] = s;
}

void team_checks() {
  for (int threads : {2, 3, 4}) {
    calm::ThreadTeam team(threads);
    CHECK(team.size() == threads);
    Work w;
    w.in.assign(64, 0.0);
    w.out.assign(threads, 0.0);
    for (int it = 0; it < 2000; ++it) {
      for (int k = 0; k < 64; ++k) w.in[k] = it + k;
      team.run(work_fn, &w);
      const double base = 64.0 * it + 64.0 * 63.0 / 2.0;
      for (int p = 0; p < threads; ++p) CHECK(w.out[p] == base * (p + 1));
      // now and then a pause long enough for the helpers to fall asleep
      if (it % 400 == 0) std::this_thread::sleep_for(std::chrono::milliseconds(30));
    }
    // a part that throws: run() throws once every part has ended
    w.throw_part = threads - 1;
    bool threw = false;
    try {
      team.run(work_fn, &w);
    } catch (const std::runtime_error&) {
      threw = true;
    }
    CHECK(threw);
    w.throw_part = -1;
    team.run(work_fn, &w);
  }
  // teams started and stopped at once, and after one run
  for (int i = 0; i < 200; ++i) {
    calm::ThreadTeam team(2);
    if (i % 2) {
      Work w;
      w.in.assign(4, 1.0);
      w.out.assign(2, 0.0);
      team.run(work_fn, &w);
      CHECK(w.out[1] == 8.0);
    }
  }
}

// A 200-node component: above the kernel's 180-node cut, so the products
// are split between the two threads.
void fit_checks(std::mt19937_64& rng) {
  const int d = 200;
  calm::IntMatrix a = random_dag_matrix(d, 2.0 / d, rng);
  const Eigen::MatrixXd sigma = to_correlation(
      population_cov(random_weights(a, rng), noise_variances(d, 4.0, rng)));
  Eigen::MatrixXd mask = Eigen::MatrixXd::Ones(d, d);
  mask.diagonal().setZero();
  for (calm::Gate gate : {calm::Gate::gumbel, calm::Gate::tanh}) {
    calm::CalmOptions opt = make_options(gate, calm::Score::likelihood, calm::Acyclicity::poly);
    opt.iter_per_round = 15;
    opt.max_rounds = 2;
    opt.rho_mult = 10.0;
    opt.lr = 1e-2;
    opt.simd = false;
    opt.seed = rng();
    opt.threads = 1;
    const calm::CalmResult one = calm::fit_calm(sigma, mask, opt, calm::ProgressFn());
    opt.threads = 2;
    const calm::CalmResult two = calm::fit_calm(sigma, mask, opt, calm::ProgressFn());
    CHECK(one.theta == two.theta);
    CHECK(one.weight == two.weight);
    CHECK(one.steps == two.steps && one.steps > 0);
  }
}

}  // namespace

// `k` random start orders of d nodes, and `k` kicks of 4 moves each.
std::vector<std::vector<int>> random_starts(int k, int d, std::mt19937_64& rng) {
  std::vector<std::vector<int>> starts(k, std::vector<int>(d));
  for (auto& st : starts) {
    for (int i = 0; i < d; ++i) st[i] = i;
    std::shuffle(st.begin(), st.end(), rng);
  }
  return starts;
}
std::vector<calm::Kick> random_kicks(int k, int d, std::mt19937_64& rng) {
  std::vector<calm::Kick> kicks(k);
  for (auto& kick : kicks)
    for (int m = 0; m < 4; ++m) {
      kick.from.push_back(static_cast<int>(rng() % d));
      kick.to.push_back(static_cast<int>(rng() % d));
    }
  return kicks;
}

// The search on one thread and on two, on data of random ER DAGs: IAMB's
// blankets, GES from the empty graph, BOSS's starts and kicks (local repairs
// and full sweeps, a cache budget that empties the caches on the way).
void search_checks(std::mt19937_64& rng) {
  for (int rep = 0; rep < 3; ++rep) {
    const int d = 30;
    const calm::IntMatrix dag = random_dag_matrix(d, 0.12, rng);
    const Eigen::MatrixXd B = random_weights(dag, rng);
    const Eigen::MatrixXd X = sem_data(B, noise_variances(d, 1.0, rng), 150, rng);
    const Eigen::MatrixXd S = to_correlation(X.transpose() * X / 150.0);
    calm::IambOptions io;
    io.test.n = 150;
    const calm::IambResult i1 = calm::iamb_all(S, io, {}, 0, -1, 1);
    const calm::IambResult i2 = calm::iamb_all(S, io, {}, 0, -1, 2);
    CHECK(i1.blankets == i2.blankets && i1.n_tests == i2.n_tests && i1.capped == i2.capped);
    calm::IntMatrix full = calm::IntMatrix::Ones(d, d);
    for (int i = 0; i < d; ++i) full(i, i) = 0;
    calm::GesOptions go;
    go.forward = true;
    calm::LocalScore s1(S, 0.03), s2(S, 0.03);
    const calm::GesResult g1 = calm::ges_refine(calm::IntMatrix::Zero(d, d), s1, full, go, {});
    go.threads = 2;
    go.cache_budget = rep == 0 ? 1 : 0;
    const calm::GesResult g2 = calm::ges_refine(calm::IntMatrix::Zero(d, d), s2, full, go, {});
    CHECK(g1.cpdag == g2.cpdag && g1.score_after == g2.score_after);
    CHECK(g1.moves.size() == g2.moves.size());
    const std::vector<std::vector<int>> starts = random_starts(5, d, rng);
    const std::vector<calm::Kick> kicks = random_kicks(12, d, rng);
    calm::BossOptions bo;
    bo.max_sweeps = 50;
    bo.tol = 1e-10;
    bo.exact_parents_max = 4;
    bo.kick_grow_ratios = {1.0, 0.5};
    bo.kick_local = rep % 2 == 1;
    bo.cache_budget = rep == 2 ? 2e4 : 0;
    calm::LocalScore b1s(S, 0.03), b2s(S, 0.03);
    const calm::BossResult b1 = calm::boss_search(b1s, full, starts, bo, {}, kicks);
    bo.threads = 2;
    const calm::BossResult b2 = calm::boss_search(b2s, full, starts, bo, {}, kicks);
    CHECK(b1.cpdag == b2.cpdag && b1.score == b2.score && b1.best_start == b2.best_start);
    CHECK(b1.kick_scores == b2.kick_scores && b1.kicks_improved == b2.kicks_improved);
    for (std::size_t k = 0; k < starts.size(); ++k)
      CHECK(b1.starts[k].score == b2.starts[k].score && b1.starts[k].order == b2.starts[k].order);
    // one start: a helper examines the nodes ahead of its sweeps (run_ahead),
    // then takes kicks on the search it kept
    const std::vector<std::vector<int>> one(starts.begin(), starts.begin() + 1);
    bo.threads = 1;
    calm::LocalScore o1s(S, 0.03), o2s(S, 0.03);
    const calm::BossResult o1 = calm::boss_search(o1s, full, one, bo, {}, kicks);
    bo.threads = 2;
    const calm::BossResult o2 = calm::boss_search(o2s, full, one, bo, {}, kicks);
    CHECK(o1.cpdag == o2.cpdag && o1.score == o2.score && o1.order == o2.order);
    CHECK(o1.kick_scores == o2.kick_scores && o1.starts[0].moves == o2.starts[0].moves);
    // the scan's insertions, the heads spread over the threads
    const Eigen::MatrixXd empty = Eigen::MatrixXd::Zero(d, d);
    const Eigen::MatrixXd g = dag.cast<double>();
    CHECK(calm::improving_insertions(s1, g, empty, 1, {}) ==
          calm::improving_insertions(s1, g, empty, 3, {}));
  }
}

// BOSS inside a sparse mask, where most nodes take their parents from exact
// tables that both threads compute and the helper's searches share (with
// required parents, and kicks at a second grow ratio), and the covariance's
// column panels on two threads: each equal to one thread.
void shared_table_checks(std::mt19937_64& rng) {
  const int d = 40;
  const calm::IntMatrix dag = random_dag_matrix(d, 0.08, rng);
  const Eigen::MatrixXd B = random_weights(dag, rng);
  const Eigen::MatrixXd X = sem_data(B, noise_variances(d, 1.0, rng), 200, rng);
  const Eigen::MatrixXd S = to_correlation(X.transpose() * X / 200.0);
  calm::IntMatrix mask = calm::IntMatrix::Zero(d, d);
  for (int j = 0; j < d; ++j)
    for (int i = 0; i < d; ++i)
      if (dag(i, j) != 0) {
        mask(i, j) = mask(j, i) = 1;
        for (int k = 0; k < d; ++k)  // co-parents
          if (k != i && dag(k, j) != 0) mask(i, k) = mask(k, i) = 1;
      }
  calm::Knowledge kn;
  kn.required = calm::IntMatrix::Zero(d, d);
  for (int j = 0, found = 0; j < d && found < 2; ++j)
    for (int i = 0; i < d && found < 2; ++i)
      if (dag(i, j) != 0) {
        kn.required(i, j) = 1;
        ++found;
      }
  const std::vector<std::vector<int>> starts = random_starts(4, d, rng);
  const std::vector<calm::Kick> kicks = random_kicks(8, d, rng);
  for (int with_knowledge = 0; with_knowledge < 2; ++with_knowledge) {
    calm::BossOptions bo;
    bo.max_sweeps = 50;
    bo.tol = 1e-10;
    bo.exact_parents_max = 8;
    bo.grow_ratio = 0.5;
    bo.kick_grow_ratios = {1.0, 0.5};
    bo.kick_local = true;
    bo.knowledge = with_knowledge ? &kn : nullptr;
    calm::LocalScore b1s(S, 0.03), b2s(S, 0.03);
    const calm::BossResult b1 = calm::boss_search(b1s, mask, starts, bo, {}, kicks);
    bo.threads = 2;
    const calm::BossResult b2 = calm::boss_search(b2s, mask, starts, bo, {}, kicks);
    CHECK(b1.cpdag == b2.cpdag && b1.score == b2.score && b1.best_start == b2.best_start);
    CHECK(b1.kick_scores == b2.kick_scores && b1.kicks_improved == b2.kicks_improved);
  }
  const int n = 30, wide = 1100;
  Eigen::MatrixXd Y(n, wide);
  std::normal_distribution<double> z;
  for (int j = 0; j < wide; ++j)
    for (int i = 0; i < n; ++i) Y(i, j) = z(rng);
  std::vector<bool> c1, c2;
  const Eigen::MatrixXd S1 = calm::data_covariance(Y.data(), n, wide, &c1, 1);
  const Eigen::MatrixXd S2 = calm::data_covariance(Y.data(), n, wide, &c2, 2);
  CHECK(S1 == S2 && c1 == c2);
}

int main() {
  std::mt19937_64 rng(3838);
  team_checks();
  fit_checks(rng);
  search_checks(rng);
  shared_table_checks(rng);
  return report("driver_threads");
}
