#!/usr/bin/env bash
# The numerically sensitive test files once more, under a forced OpenBLAS
# CPU kernel (default Haswell), so that a tolerance tuned to the machine's
# own kernel shows up in CI (issue 38: 0.0756 under Haswell/Zen kernels
# against 0.05 allowed). Ends with the line "kernel KERNEL: N passed, N failed".
# Usage: bash tools/run-kernel-tests.sh [KERNEL] [all]
#   KERNEL        an OpenBLAS core type (Haswell, Sandybridge, Zen, ...),
#                 "native" for the kernel OpenBLAS picks for this CPU, or
#                 "reference" for the reference BLAS and LAPACK of Debian's
#                 libblas3 and liblapack3 (through LD_PRELOAD)
#   all           the whole suite, not only the sensitive files
#   CALM_KERNEL_FILES="test-a.R test-b.R"  other test files instead
#   CALM_LIB=dir  library holding an installed calm (default: the one
#                 R CMD check left in calm.Rcheck; otherwise calm is
#                 installed into a temporary library first).
# Other BLAS (reference BLAS): run with LD_PRELOAD pointing at its
# libblas.so.3 and liblapack.so.3 instead.
set -uo pipefail
cd "$(dirname "$0")/.."
kernel="${1:-Haswell}"
files="${CALM_KERNEL_FILES:-test-baselines.R test-score-gradients.R test-loglik.R test-inconsistency.R test-search-boss.R test-search-exact.R test-calm-seeded.R test-metrics.R}"
if [ "${2:-}" = "all" ]; then files=$(cd tests/testthat && ls test-*.R | tr '\n' ' '); fi
preload=""
if [ "$kernel" = "reference" ]; then
  ref=/usr/lib/x86_64-linux-gnu/blas/libblas.so.3
  reflapack=/usr/lib/x86_64-linux-gnu/lapack/liblapack.so.3
  if [ ! -e "$ref" ] || [ ! -e "$reflapack" ]; then
    echo "the reference BLAS is not installed ($ref, $reflapack: Debian's libblas3 and liblapack3)"
    echo "kernel $kernel: 0 passed, 1 failed"; exit 1
  fi
  preload="$ref:$reflapack"
fi
lib="${CALM_LIB:-}"
if [ -z "$lib" ] && [ -d calm.Rcheck/calm ]; then lib="$PWD/calm.Rcheck"; fi
if [ -z "$lib" ]; then
  lib=$(mktemp -d)
  trap 'rm -rf "$lib"' EXIT
  R CMD INSTALL --no-test-load -l "$lib" . >"$lib/install.log" 2>&1 ||
    { tail -n 30 "$lib/install.log"; echo "kernel $kernel: 0 passed, 1 failed"; exit 1; }
fi
cd tests/testthat
# shellcheck disable=SC2086
coretype="$kernel"
if [ "$kernel" = "native" ] || [ "$kernel" = "reference" ]; then coretype=""; fi
# shellcheck disable=SC2086
env ${coretype:+OPENBLAS_CORETYPE="$coretype"} ${preload:+LD_PRELOAD="$preload"} CALM_KERNEL="$kernel" R_LIBS="$lib${R_LIBS:+:$R_LIBS}" NOT_CRAN=true Rscript -e '
  suppressMessages({library(testthat); library(calm)})
  kernel <- Sys.getenv("CALM_KERNEL")
  blas <- extSoftVersion()[["BLAS"]]
  if (nzchar(Sys.getenv("LD_PRELOAD"))) blas <- paste(blas, "with LD_PRELOAD =", Sys.getenv("LD_PRELOAD"))
  cat("BLAS:", blas, if (grepl("openblas", blas, ignore.case = TRUE))
    paste("with OPENBLAS_CORETYPE =", Sys.getenv("OPENBLAS_CORETYPE", "(unset)")) else "(not OpenBLAS: the kernel setting has no effect)", "\n")
  r <- do.call(rbind, lapply(commandArgs(TRUE), function(f) {
    d <- as.data.frame(test_file(f, reporter = "summary", stop_on_failure = FALSE))
    data.frame(nb = sum(d$nb), failed = sum(d$failed) + sum(d$error), skipped = sum(d$skipped))
  }))
  failed <- sum(r$failed)
  cat(sprintf("kernel %s: %d passed, %d failed\n", kernel,
              sum(r$nb) - sum(r$failed) - sum(r$skipped), failed))
  quit(status = failed > 0)
' $files
