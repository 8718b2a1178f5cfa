#!/usr/bin/env bash
# The test command: build the package, run R CMD check --as-cran on the
# tarball (which runs the testthat suite, the examples and the vignettes) and
# end with the suite's line "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."

export _R_CHECK_CRAN_INCOMING_REMOTE_=false   # no network look-ups of CRAN's incoming checks

# --as-cran looks up whether suggested packages are orphaned in CRAN's package
# database (web/packages/packages.rds), which the package mirror reachable here
# does not serve. Point that look-up at a local database of the installed
# packages instead: every other --as-cran check stays on.
web=$(mktemp -d)
mkdir -p "$web/web/packages"
Rscript -e 'ip <- as.data.frame(installed.packages()[, c("Package", "Version")], stringsAsFactors = FALSE); ip$Maintainer <- "installed"; saveRDS(ip, file.path(commandArgs(TRUE)[1], "web/packages/packages.rds"))' "$web"
export R_CRAN_WEB="file://$web"
export _R_CHECK_FORCE_SUGGESTS_=false        # a Suggests package that failed to install skips its tests
export NOT_CRAN=true                         # run the slower tests too
export OMP_NUM_THREADS=2

# System tools the check uses, each on its own: a missing one is said
# plainly and what needs it is left out, rather than failing the run.
build_args=""
check_args=""
if ! command -v qpdf >/dev/null 2>&1; then
  echo "NOTE: qpdf is not installed: R CMD check's PDF size check is skipped (tools/install-deps.sh installs qpdf as root)."
  # R CMD check runs $R_QPDF to compact PDFs; calm ships none. 'true' stands
  # in so that --as-cran does not warn that qpdf is needed.
  export R_QPDF=true
fi
if ! command -v pandoc >/dev/null 2>&1; then
  echo "NOTE: pandoc is not installed: the vignettes are neither built nor checked (tools/install-deps.sh installs pandoc as root)."
  build_args="--no-build-vignettes"
  check_args="--ignore-vignettes"
  export _R_CHECK_BUILD_VIGNETTES_SEPARATELY_=false
fi
Rscript -e 'cat("BLAS:", extSoftVersion()[["BLAS"]], "\n")' || true

# every C++ file compiled (src/Makevars lists them)
bash tools/check-objects.sh || { echo "0 passed, 1 failed"; exit 1; }
rm -rf calm.Rcheck calm_*.tar.gz
# shellcheck disable=SC2086
R CMD build $build_args . || { echo "R CMD build failed"; echo "0 passed, 1 failed"; exit 1; }
tarball=$(ls calm_*.tar.gz | head -n 1)
# --strip: without it the debug information of R's default -g flags on the
# Eigen code makes the installed library ~47 MB (0.75 MB stripped). Only the
# debug information goes: the symbol table stays, so check can still see the
# native-routine registration.
export R_STRIP_SHARED_LIB="strip --strip-debug"
# shellcheck disable=SC2086
R CMD check --as-cran --no-manual $check_args --install-args="--strip" "$tarball"
status=$?

log=$(ls calm.Rcheck/tests/testthat.Rout* 2>/dev/null | head -n 1)
summary=""
[ -n "$log" ] && summary=$(grep -E '^testthat: [0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)
if [ -n "$log" ] && [ "$status" -ne 0 ]; then tail -n 60 "$log"; fi
if grep -qE '^Status: .*(ERROR|WARNING)' calm.Rcheck/00check.log 2>/dev/null; then
  grep -E '^\* .*\.\.\. (ERROR|WARNING)' -A 12 calm.Rcheck/00check.log
  status=1
fi
if [ -z "$summary" ]; then
  echo "the test suite did not report a summary"
  echo "0 passed, 1 failed"
  exit 1
fi
echo "$summary"
exit "$status"
