#!/usr/bin/env bash
# Builds the pure C++ core (src/*.cpp except the Rcpp glue) with
# AddressSanitizer and UndefinedBehaviorSanitizer, links it into one
# standalone program per tools/sanitize/driver_*.cpp and runs them. Any
# sanitizer report, failed check or build error makes the run fail.
# Usage: bash tools/sanitize/run.sh [driver_name ...]   (from anywhere)
#   SANITIZE_JOBS=n  compile n files at a time (default 2, the CI machine's
#                    cores; use 1 on a shared machine).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
eigen="$(Rscript -e 'cat(system.file("include", package = "RcppEigen"))')"
numerical="$(Rscript -e 'cat(system.file("include", package = "RcppNumerical"))')"
build="$(mktemp -d)"
trap 'rm -rf "$build"' EXIT
CXX="${CXX:-g++}"
# SANITIZER=thread (tools/sanitize/tsan.sh) builds with ThreadSanitizer instead.
SANITIZER="${SANITIZER:-address,undefined}"
FLAGS="-std=c++17 -O1 -g1 -fno-omit-frame-pointer -fsanitize=$SANITIZER -fno-sanitize-recover=all -DEIGEN_NO_DEBUG -DEIGEN_DONT_PARALLELIZE -Wno-ignored-attributes -Wno-deprecated-declarations"
INCLUDES="-I$root/src -I$root/tools/sanitize -isystem $eigen -isystem $numerical"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1
start=$SECONDS
SANITIZE_JOBS="${SANITIZE_JOBS:-2}"
# -g1 (line tables only) keeps file:line in sanitizer stack traces and
# halves the compile time of the Eigen-heavy files compared with -g.

# Every file (core and drivers) is compiled once, SANITIZE_JOBS at a time;
# each driver is then linked with the core objects and run. The Eigen-heavy
# files take tens of seconds each under the sanitizers.
core=$(ls "$root"/src/*.cpp | grep -v -E '/(rcpp_[^/]*|RcppExports)\.cpp$')
# driver_threads runs only when named (tools/sanitize/tsan.sh)
drivers=()
for f in "$root"/tools/sanitize/driver_*.cpp; do
  [ "$(basename "$f")" = driver_threads.cpp ] || drivers+=("$f")
done
if [ "$#" -gt 0 ]; then
  drivers=()
  for name in "$@"; do drivers+=("$root/tools/sanitize/${name%.cpp}.cpp"); done
fi
mkdir -p "$build/core" "$build/drivers"
echo "== compiling with -fsanitize=$SANITIZER (${SANITIZE_JOBS} at a time):" \
  $(for f in $core "${drivers[@]}"; do basename "$f"; done)
export CXX FLAGS INCLUDES build
# shellcheck disable=SC2016
if ! { for f in $core; do echo "core $f"; done
       for f in "${drivers[@]}"; do echo "drivers $f"; done; } |
    xargs -P "$SANITIZE_JOBS" -L 1 sh -c \
      '$CXX $FLAGS $INCLUDES -c "$1" -o "$build/$0/$(basename "$1" .cpp).o" || { echo "   FAILED: $1"; exit 255; }'; then
  echo "sanitizers: FAILED (a file does not compile with the sanitizer flags)"
  exit 1
fi
echo "   compiled in $((SECONDS - start)) s"

status=0
for driver in "${drivers[@]}"; do
  name=$(basename "$driver" .cpp)
  # shellcheck disable=SC2086
  if ! $CXX $FLAGS "$build/drivers/$name.o" "$build"/core/*.o -o "$build/$name"; then
    echo "== $name: LINK FAILED"
    status=1
    continue
  fi
  t1=$SECONDS
  if "$build/$name"; then result=ok; else result=FAILED; status=1; fi
  echo "== $name: $result (ran in $((SECONDS - t1)) s)"
done
echo "sanitizer run took $((SECONDS - start)) s"
if [ "$status" -eq 0 ]; then echo "sanitizers: all drivers clean"; else echo "sanitizers: FAILED"; fi
exit "$status"
