#!/usr/bin/env bash
# Runs a small end-to-end use of the package under valgrind's memcheck and
# prints "valgrind: 0 errors" or fails.
#
# What counts as a failure, and why:
# * any memcheck error anywhere: invalid reads or writes, use of
#   uninitialised values, invalid or mismatched frees, overlapping copies.
#   R itself runs clean under memcheck (R's own CRAN checks rely on that), so
#   every such report points at a real bug, whoever's frame it is in; these
#   are what --error-exitcode counts, as leaks are excluded from the count
#   (--errors-for-leak-kinds=none).
# * memory "definitely lost" (no pointer to it remains) with a frame of this
#   package's compiled code in the allocation stack. R keeps much of its
#   memory until exit by design: "still reachable" blocks (pointers remain)
#   and "possibly lost" ones (interior pointers, typical of R's allocator and
#   of libraries that keep caches) are not leaks of ours and are not shown.
#   A definite loss with no frame of ours (R, BLAS, libc) is reported for
#   information only.
#
# Usage: bash tools/valgrind.sh   (from anywhere; takes a few minutes)
#   CALM_LIB=/path/to/library  use calm as installed there instead of
#                              installing the worktree into a temporary one.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
start=$SECONDS

if ! command -v valgrind >/dev/null 2>&1; then
  if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "== installing valgrind"
    apt-get install -y valgrind >/dev/null 2>&1 ||
      { apt-get update >/dev/null 2>&1 && apt-get install -y valgrind >/dev/null 2>&1; } ||
      { echo "valgrind: FAILED (could not install valgrind)"; exit 1; }
  else
    echo "valgrind: FAILED (valgrind is not installed; apt-get install valgrind)"
    exit 1
  fi
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
lib="${CALM_LIB:-}"
if [ -z "$lib" ]; then
  lib="$work/lib"
  mkdir -p "$lib"
  echo "== installing calm into a temporary library"
  # A copy of what installation needs, so that the worktree keeps no object
  # files and stale ones are not reused.
  mkdir -p "$work/src"
  for f in DESCRIPTION NAMESPACE R src man data inst; do
    [ -e "$root/$f" ] && cp -r "$root/$f" "$work/src/"
  done
  rm -f "$work"/src/src/*.o "$work"/src/src/*.so
  if ! R CMD INSTALL --no-multiarch --no-test-load --library="$lib" "$work/src" >"$work/install.log" 2>&1; then
    tail -n 30 "$work/install.log"
    echo "valgrind: FAILED (installation)"
    exit 1
  fi
fi

# A small fit with a short schedule, the
# baselines, the moral graph estimators and the graph algorithms.
cat >"$work/small.R" <<'EOF'
library(calm)
set.seed(1)
sem <- simulate_sem(12, k = 2, n = 300)
mg <- estimate_moral_graph(sem$x)
mg_p <- estimate_moral_graph(cov = sem$sigma, method = "precision")
mg_c <- estimate_moral_graph(cov = sem$sigma, n = 300, max_size = 3)
fit <- calm(sem$x, iter_per_round = 300, max_rounds = 3, verbose = FALSE)
fit_stg <- calm(cov = sem$sigma, moral = mg_p, gate = "stg", iter_per_round = 200,
                max_rounds = 2, verbose = FALSE)
fit_soft <- calm(cov = sem$sigma, moral = "none", constraint = "soft",
                 soft_iter = 300, verbose = FALSE)
print(compare_graphs(fit, sem$B))
# the baselines and the order search, through their Rcpp glue (which the
# sanitizer drivers do not cover: notears_linear() calls R's L-BFGS-B)
g <- golem_nv(sem$x, control = golem_control(max_iter = 500, trace_every = 100))
nt <- suppressWarnings(notears_linear(cov = sem$sigma, control = notears_control(max_rounds = 3)))
l1 <- l1_inconsistency(n_graphs = 2, d = 5, seed = 1)
rd <- regression_dag(sem$sigma, rev(seq_len(12)))
print(l1$summary)
cp <- dag_to_cpdag(sem$B)
print(shd_cpdag(cp, sem$B))
print(skeleton_metrics(mg, moral_graph(sem$B)))
print(nrow(calm:::make_acyclic(sem$B + 0.1 * t(sem$B))$removed))
cat("script finished\n")
EOF

# Frames of our compiled code: the shared object, the namespace, the sources.
ours="calm\\.so|calm::|$(cd "$root/src" && ls *.cpp *.h | sed 's/\./\\./g' | paste -sd'|')"
log="$work/valgrind.log"
echo "== running the script under valgrind memcheck"
R_LIBS="$lib${R_LIBS:+:$R_LIBS}" R --vanilla -d "valgrind --leak-check=full --show-leak-kinds=definite --errors-for-leak-kinds=none --error-exitcode=1 --log-file=$log" \
  -f "$work/small.R" >"$work/out.txt" 2>&1
status=$?
if ! grep -q "script finished" "$work/out.txt"; then
  tail -n 30 "$work/out.txt"
  echo "valgrind: FAILED (the script did not finish)"
  exit 1
fi

errors=$(grep -E "ERROR SUMMARY: [0-9]+ errors" "$log" | tail -n 1 | sed -E 's/.*ERROR SUMMARY: ([0-9]+) errors.*/\1/')
errors=${errors:-unknown}
# Split the log into records (separated by empty "==pid== " lines) and keep
# the definite losses, split by whether a frame of ours is in the stack.
awk -v ours="$ours" -v mine="$work/lost_ours.txt" -v other="$work/lost_other.txt" '
  /^==[0-9]+== *$/ { flush(); next }
  { rec = rec $0 "\n" }
  END { flush() }
  function flush() {
    if (rec ~ /definitely lost in loss record/) {
      if (rec ~ ours) printf "%s\n", rec >> mine; else printf "%s\n", rec >> other
    }
    rec = ""
  }' "$log"
lost_ours=$(grep -c "definitely lost in loss record" "$work/lost_ours.txt" 2>/dev/null || true)
lost_other=$(grep -c "definitely lost in loss record" "$work/lost_other.txt" 2>/dev/null || true)
lost_ours=${lost_ours:-0}
lost_other=${lost_other:-0}

grep -E "definitely lost:|indirectly lost:|possibly lost:|still reachable:" "$log" | sed -E 's/^==[0-9]+== +/   /'
echo "   memcheck errors: $errors; definite losses in our frames: $lost_ours, elsewhere: $lost_other"
echo "   took $((SECONDS - start)) s"
fail=0
if [ "$errors" != "0" ] || [ "$status" -ne 0 ]; then
  awk '/^==[0-9]+== *$/ { if (rec ~ /Invalid|uninitialised|free|overlap|Syscall param/) print rec; rec = ""; next } { rec = rec $0 "\n" }' "$log" | head -n 80
  fail=1
fi
if [ "$lost_other" -ne 0 ]; then
  echo "   (for information) definite losses outside our code:"
  head -n 40 "$work/lost_other.txt"
fi
if [ "$lost_ours" -ne 0 ]; then
  head -n 80 "$work/lost_ours.txt"
  fail=1
fi
if [ "$fail" -ne 0 ]; then
  echo "valgrind: FAILED"
  exit 1
fi
echo "valgrind: 0 errors"
