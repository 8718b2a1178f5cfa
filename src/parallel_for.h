// A loop over indices spread over threads for one call: the caller's thread
// and threads - 1 helpers take the next index in turn until none is left.
// Pure C++ (std::thread); no thread outlives the call.
#ifndef CALM_PARALLEL_FOR_H
#define CALM_PARALLEL_FOR_H

#include <cstddef>
#include <functional>

namespace calm {

// Calls fn(i) once for each i in 0..n-1, on `threads` threads (1: all on the
// caller's thread, in order). fn must be safe to call for different indices
// at once; which thread takes which index depends on timing. `interrupt`
// (may be empty) is called on the caller's thread before each index it
// takes, so it may call R. When fn or `interrupt` throws, the threads take
// no further index and are joined, and the first exception goes on from
// the caller's thread. A helper that cannot be started leaves its indices
// to the others.
void parallel_for(std::size_t n, int threads, const std::function<void(std::size_t)>& fn,
                  const std::function<void()>& interrupt);

}  // namespace calm

#endif
