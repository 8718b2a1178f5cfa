// A small team of threads for the step kernel's large matrix products.
// Pure C++ (std::thread). The caller's thread is part 0; size() - 1 helper
// threads, started by the constructor and joined by the destructor, take the
// other parts. A team lives for one fit (one kernel), so no thread outlives
// the call from R and a fork (future's multicore plan, parallel::mclapply)
// never copies a running team: OpenMP's thread pool, kept for the life of
// the process, hangs forked children that use it, which is why it is not
// used here.
//
// Helpers wait for work by spinning for a short while (the products of one
// step follow each other closely), then sleep on a condition variable.
//
// Not inline and not a template, so that the AVX2 build of the kernel
// (calm_kernel_avx2.cpp) shares no instantiation with the baseline build.
#ifndef CALM_THREAD_TEAM_H
#define CALM_THREAD_TEAM_H

namespace calm {

class ThreadTeam {
 public:
  // threads >= 1; 1 starts no thread and run() calls fn(ctx, 0) only.
  explicit ThreadTeam(int threads);
  ~ThreadTeam();
  ThreadTeam(const ThreadTeam&) = delete;
  ThreadTeam& operator=(const ThreadTeam&) = delete;

  int size() const;

  // Calls fn(ctx, part) for part = 0, ..., size() - 1, part 0 on the calling
  // thread, and returns when every part is done. If a part throws
  // (std::bad_alloc), run() throws std::runtime_error once all parts have
  // ended.
  void run(void (*fn)(void*, int), void* ctx);

 private:
  struct State;
  State* state_;
};

}  // namespace calm

#endif
