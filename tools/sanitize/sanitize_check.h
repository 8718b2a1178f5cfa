// Minimal assertion helpers for the sanitizer drivers (no test framework, so
// that the drivers build with nothing but a compiler and Eigen).
#ifndef CALM_SANITIZE_CHECK_H
#define CALM_SANITIZE_CHECK_H
#include <cstdio>

static int g_checks = 0, g_failures = 0;

#define CHECK(cond)                                                           \
  do {                                                                        \
    ++g_checks;                                                               \
    if (!(cond)) {                                                            \
      ++g_failures;                                                           \
      std::fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
    }                                                                         \
  } while (0)

static int report(const char* name) {
  std::printf("%s: %d checks, %d failed\n", name, g_checks, g_failures);
  return g_failures == 0 ? 0 : 1;
}
#endif
