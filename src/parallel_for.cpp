#include "parallel_for.h"

#include <atomic>
#include <exception>
#include <thread>
#include <vector>

namespace calm {

void parallel_for(std::size_t n, int threads, const std::function<void(std::size_t)>& fn,
                  const std::function<void()>& interrupt) {
  std::atomic<std::size_t> next{0};
  std::atomic<bool> stop{false};
  auto work = [&](bool caller) {
    for (std::size_t i = next++; i < n && !stop.load(); i = next++) {
      if (caller && interrupt) interrupt();
      fn(i);
    }
  };
  const int helpers_wanted = threads > 1 && n > 1 ? threads - 1 : 0;
  std::vector<std::thread> helpers;
  std::vector<std::exception_ptr> errors(helpers_wanted);
  try {
    for (int t = 0; t < helpers_wanted; ++t)
      helpers.emplace_back([&, t] {
        try {
          work(false);
        } catch (...) {
          errors[t] = std::current_exception();
          stop.store(true);
        }
      });
  } catch (...) {
    // a thread that could not start leaves its indices to the others
  }
  try {
    work(true);
  } catch (...) {
    stop.store(true);
    for (std::thread& h : helpers) h.join();
    throw;
  }
  for (std::thread& h : helpers) h.join();
  for (const std::exception_ptr& e : errors)
    if (e) std::rethrow_exception(e);
}

}  // namespace calm
