#!/usr/bin/env bash
# Builds the pure C++ core (src/*.cpp except the Rcpp glue) with
# AddressSanitizer and UndefinedBehaviorSanitizer into standalone drivers and
# runs them. Any sanitizer report makes the run fail.
# Usage: bash tools/sanitize/run.sh   (from the package root)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
eigen="$(Rscript -e 'cat(system.file("include", package = "RcppEigen"))')"
build="$(mktemp -d)"
CXX="${CXX:-g++}"
FLAGS="-std=c++17 -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all -DEIGEN_NO_DEBUG -Wno-ignored-attributes -Wno-deprecated-declarations"
core=$(ls "$root"/src/*.cpp | grep -v -E '/(rcpp_[^/]*|RcppExports)\.cpp$')
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
status=0
for driver in "$root"/tools/sanitize/driver_*.cpp; do
  name=$(basename "$driver" .cpp)
  echo "== building $name with -fsanitize=address,undefined"
  # shellcheck disable=SC2086
  $CXX $FLAGS -I"$root/src" -I"$root/tools/sanitize" -isystem "$eigen" "$driver" $core -o "$build/$name"
  echo "== running $name"
  if ! "$build/$name"; then status=1; fi
done
rm -rf "$build"
if [ "$status" -eq 0 ]; then echo "sanitizers: all drivers clean"; else echo "sanitizers: FAILED"; fi
exit "$status"
