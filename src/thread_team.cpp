#include "thread_team.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

namespace calm {

namespace {

// How many times a helper polls for the next part before it sleeps: a few
// milliseconds, longer than the serial parts of a step, so that a helper
// stays awake through a fit (waking a sleeping thread costs about 0.1 ms,
// a third of a 200-node product).
constexpr long kSpins = 200000;

// A hint to the CPU that this is a spin-wait loop.
inline void cpu_relax() {
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
  __builtin_ia32_pause();
#endif
}

// The team watches how long the caller waits for its helpers after doing
// its own part. Over a window of kWindow calls, when the waits add up to
// more than kMaxWaitShare of the caller's own work, the helpers are not
// getting a core (a loaded machine): the next kSerialRuns calls run every
// part on the caller's thread, one after the other, and then the team tries
// again. The parts are the same either way, so the results are too. (A
// 2-thread fit of a 200-node block beside two busy processes took 77 s
// with the helpers only, 4 s with this watch; yielding in the spin loops
// did not help.)
constexpr int kWindow = 256;
constexpr double kMaxWaitShare = 0.5;
constexpr int kSerialRuns = 8192;

using Clock = std::chrono::steady_clock;
using Seconds = std::chrono::duration<double>;

}  // namespace

struct ThreadTeam::State {
  int size = 1;
  // The load watch of run() (caller's thread only).
  int window_runs = 0;
  double window_own = 0;
  double window_wait = 0;
  int serial_left = 0;

  // Adds one call to the load watch (see kWindow).
  void watch_load(double own, double wait) {
    window_own += own;
    window_wait += wait;
    if (++window_runs < kWindow) return;
    if (window_wait > kMaxWaitShare * window_own) serial_left = kSerialRuns;
    window_runs = 0;
    window_own = 0;
    window_wait = 0;
  }
  std::vector<std::thread> helpers;
  std::mutex mutex;
  std::condition_variable wake;
  // Work of the current generation.
  void (*fn)(void*, int) = nullptr;
  void* ctx = nullptr;
  std::atomic<unsigned long> generation{0};
  std::atomic<int> pending{0};
  std::atomic<bool> failed{false};
  std::atomic<bool> stop{false};
  std::atomic<int> sleeping{0};

  void helper(int part) {
    unsigned long seen = 0;
    for (;;) {
      // Spin briefly for the next generation, then sleep.
      long spins = 0;
      while (generation.load(std::memory_order_acquire) == seen &&
             !stop.load(std::memory_order_acquire)) {
        cpu_relax();
        if (++spins > kSpins) {
          std::unique_lock<std::mutex> lock(mutex);
          sleeping.fetch_add(1, std::memory_order_acq_rel);
          wake.wait(lock, [&] {
            return generation.load(std::memory_order_acquire) != seen ||
                   stop.load(std::memory_order_acquire);
          });
          sleeping.fetch_sub(1, std::memory_order_acq_rel);
          break;
        }
      }
      if (stop.load(std::memory_order_acquire)) return;
      seen = generation.load(std::memory_order_acquire);
      try {
        fn(ctx, part);
      } catch (...) {
        failed.store(true, std::memory_order_release);
      }
      pending.fetch_sub(1, std::memory_order_acq_rel);
    }
  }
};

ThreadTeam::ThreadTeam(int threads) : state_(new State) {
  state_->size = threads < 1 ? 1 : threads;
  try {
    for (int part = 1; part < state_->size; ++part)
      state_->helpers.emplace_back([this, part] { state_->helper(part); });
  } catch (...) {
    // Could not start a thread: run with those that started.
    state_->size = static_cast<int>(state_->helpers.size()) + 1;
  }
}

ThreadTeam::~ThreadTeam() {
  {
    std::lock_guard<std::mutex> lock(state_->mutex);
    state_->stop.store(true, std::memory_order_release);
  }
  state_->wake.notify_all();
  for (std::thread& t : state_->helpers) t.join();
  delete state_;
}

int ThreadTeam::size() const { return state_->size; }

void ThreadTeam::run(void (*fn)(void*, int), void* ctx) {
  State& s = *state_;
  if (s.size == 1) {
    fn(ctx, 0);
    return;
  }
  if (s.serial_left > 0) {
    // every part runs, and a failure is reported as with the helpers
    --s.serial_left;
    bool failed = false;
    for (int part = 0; part < s.size; ++part) {
      try {
        fn(ctx, part);
      } catch (...) {
        failed = true;
      }
    }
    if (failed) throw std::runtime_error("a part of the step kernel failed (out of memory?)");
    return;
  }
  s.fn = fn;
  s.ctx = ctx;
  s.failed.store(false, std::memory_order_relaxed);
  s.pending.store(s.size - 1, std::memory_order_relaxed);
  {
    // Under the mutex, so that a helper about to sleep cannot miss it.
    std::lock_guard<std::mutex> lock(s.mutex);
    s.generation.fetch_add(1, std::memory_order_acq_rel);
  }
  if (s.sleeping.load(std::memory_order_acquire) > 0) s.wake.notify_all();
  bool failed = false;
  Clock::time_point t0 = Clock::now();
  try {
    fn(ctx, 0);
  } catch (...) {
    failed = true;  // after the helpers are done with ctx
  }
  Clock::time_point t1 = Clock::now();
  while (s.pending.load(std::memory_order_acquire) > 0) cpu_relax();
  s.watch_load(Seconds(t1 - t0).count(), Seconds(Clock::now() - t1).count());
  if (failed || s.failed.load(std::memory_order_acquire))
    throw std::runtime_error("a helper thread of the step kernel failed (out of memory?)");
}

}  // namespace calm
