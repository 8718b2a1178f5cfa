#!/usr/bin/env bash
# Builds the pure C++ core (src/*.cpp except the Rcpp glue) with
# AddressSanitizer and UndefinedBehaviorSanitizer, links it into one
# standalone program per tools/sanitize/driver_*.cpp and runs them. Any
# sanitizer report, failed check or build error makes the run fail.
# Usage: bash tools/sanitize/run.sh [driver_name ...]   (from anywhere)
#   SANITIZE_JOBS=2  compile the core files two at a time (default 1).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
eigen="$(Rscript -e 'cat(system.file("include", package = "RcppEigen"))')"
build="$(mktemp -d)"
trap 'rm -rf "$build"' EXIT
CXX="${CXX:-g++}"
FLAGS="-std=c++17 -O1 -g1 -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all -DEIGEN_NO_DEBUG -DEIGEN_DONT_PARALLELIZE -Wno-ignored-attributes -Wno-deprecated-declarations"
INCLUDES="-I$root/src -I$root/tools/sanitize -isystem $eigen"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
start=$SECONDS
# -g1 (line tables only) keeps file:line in sanitizer stack traces and
# halves the compile time of the Eigen-heavy files compared with -g.

# The core is compiled once and shared by every driver (each object takes
# tens of seconds under the sanitizers; the drivers are small).
core=$(ls "$root"/src/*.cpp | grep -v -E '/(rcpp_[^/]*|RcppExports)\.cpp$')
echo "== compiling the core with -fsanitize=address,undefined: $(echo $core | xargs -n1 basename | tr '\n' ' ')"
export CXX FLAGS INCLUDES build
# shellcheck disable=SC2016
if ! printf '%s\n' $core | xargs -P "${SANITIZE_JOBS:-1}" -I{} sh -c \
    '$CXX $FLAGS $INCLUDES -c "{}" -o "$build/$(basename "{}" .cpp).o"'; then
  echo "sanitizers: FAILED (the core does not compile with the sanitizer flags)"
  exit 1
fi
echo "   core compiled in $((SECONDS - start)) s"

drivers=("$root"/tools/sanitize/driver_*.cpp)
if [ "$#" -gt 0 ]; then
  drivers=()
  for name in "$@"; do drivers+=("$root/tools/sanitize/${name%.cpp}.cpp"); done
fi
status=0
for driver in "${drivers[@]}"; do
  name=$(basename "$driver" .cpp)
  t0=$SECONDS
  # shellcheck disable=SC2086
  if ! $CXX $FLAGS $INCLUDES "$driver" "$build"/*.o -o "$build/$name"; then
    echo "== $name: BUILD FAILED"
    status=1
    continue
  fi
  t1=$SECONDS
  if "$build/$name"; then result=ok; else result=FAILED; status=1; fi
  echo "== $name: $result (built in $((t1 - t0)) s, ran in $((SECONDS - t1)) s)"
done
echo "sanitizer run took $((SECONDS - start)) s"
if [ "$status" -eq 0 ]; then echo "sanitizers: all drivers clean"; else echo "sanitizers: FAILED"; fi
exit "$status"
