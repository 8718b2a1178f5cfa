// ThreadSanitizer driver (tools/sanitize/tsan.sh): the kernel's team of
// threads (thread_team.cpp: helpers that spin, then sleep on a condition
// variable) under many hand-overs, teams started and stopped, a part that
// throws, and whole 2-thread fits, which must equal the 1-thread fit bit for
// bit.
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

int main() {
  std::mt19937_64 rng(3838);
  team_checks();
  fit_checks(rng);
  return report("driver_threads");
}
