#!/usr/bin/env bash
# Installs what calm needs for one task, on Debian 12 with R.
# Usage: bash tools/install-deps.sh [demo|test|site|site-check|all]   (default all)
#   demo        install calm with its vignettes and run the demo (make install,
#               make demo, make readme): the packages calm imports and links to,
#               knitr and rmarkdown, pandoc.
#   test        make test: the above, and what R CMD check --as-cran and the
#               test suite use: testthat and the Suggests packages (pcalg and
#               bnlearn from CRAN), qpdf, OpenBLAS as R's BLAS.
#   site        make site: the demo set and pkgdown.
#   site-check  make site-check: Chromium, the headless browser.
#   all         everything (CI, .ci/run).
# As root: Debian's prebuilt r-cran-*/r-bioc-* packages through apt-get (fast),
# then the packages Debian lacks from CRAN.
# As another user: everything from CRAN into the user's library.
# Idempotent: what is already installed is skipped.
set -euo pipefail
cd "$(dirname "$0")/.."

task=${1:-all}
case "$task" in
  demo | test | site | site-check | all) ;;
  *) echo "usage: bash tools/install-deps.sh [demo|test|site|site-check|all]" >&2; exit 2 ;;
esac
wants() { # wants TASK...: whether the requested task includes one of these
  local t
  for t in "$@"; do [ "$task" = "$t" ] || [ "$task" = all ] && return 0; done
  return 1
}
is_root_with_apt() { [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; }

# R packages (Debian package, R name) and system tools, per task. The demo
# set is what building and installing calm needs (its vignettes are knitr +
# rmarkdown, through pandoc); pcalg is left to the test set: built from
# source it takes longer than calm itself, and the demo only adds PC and GES
# rows to its comparison when pcalg is there.
deb=""; rpkgs=""; tools=""
if wants demo test site; then
  deb="$deb r-cran-rcpp r-cran-rcppeigen r-cran-igraph r-cran-cli r-cran-rlang r-cran-future
r-cran-future.apply r-cran-progressr r-cran-knitr r-cran-rmarkdown pandoc"
  rpkgs="$rpkgs Rcpp RcppEigen igraph cli rlang future future.apply progressr knitr rmarkdown"
  tools="$tools pandoc"
fi
if wants test; then
  deb="$deb r-cran-withr r-cran-testthat r-cran-callr r-bioc-graph r-bioc-rbgl r-cran-robustbase
r-cran-ggm r-cran-corpcor r-cran-fastica r-cran-abind r-cran-sfsmisc r-cran-bdsmatrix r-cran-clue
r-cran-rcpparmadillo r-cran-bh r-cran-vcd r-cran-curl r-cran-matrix qpdf libblas3 liblapack3"
  rpkgs="$rpkgs withr testthat callr graph RBGL Matrix"
  tools="$tools qpdf"
fi
if wants site; then
  deb="$deb r-cran-pkgdown"
  rpkgs="$rpkgs pkgdown"
fi
if [ "$task" = all ]; then
  deb="$deb r-cran-roxygen2"
  rpkgs="$rpkgs roxygen2"
fi
if wants site-check; then tools="$tools chromium"; fi

have_all_r() {
  Rscript -e 'p <- commandArgs(TRUE); q(status = as.integer(!all(vapply(p, requireNamespace, logical(1), quietly = TRUE))))' "$@" >/dev/null 2>&1
}

if [ -n "$rpkgs" ]; then
  # shellcheck disable=SC2086
  if ! have_all_r $rpkgs || { [[ " $tools " == *" pandoc "* ]] && ! command -v pandoc >/dev/null 2>&1; }; then
    if is_root_with_apt; then
      echo "== installing Debian packages ($task)"
      apt-get update -qq
      # shellcheck disable=SC2086
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $deb >/dev/null
    else
      echo "== installing R packages from CRAN (not root: no apt-get)"
      # shellcheck disable=SC2086
      Rscript -e 'source("tools/repos.R"); p <- setdiff(commandArgs(TRUE), c("graph", "RBGL")); p <- p[!vapply(p, requireNamespace, logical(1), quietly = TRUE)]; if (length(p)) install.packages(p); if (any(c("graph", "RBGL") %in% commandArgs(TRUE)) && !requireNamespace("RBGL", quietly = TRUE)) { if (!requireNamespace("BiocManager", quietly = TRUE)) install.packages("BiocManager"); BiocManager::install(c("graph", "RBGL"), update = FALSE, ask = FALSE) }' $rpkgs
    fi
  fi
fi

# System tools that R CMD check needs, each checked on its own (R and its
# packages being present says nothing about them): qpdf (PDF size checks)
# and pandoc (the vignettes); and Chromium, the headless browser of the
# website's check (tools/check-site.sh). Installed when possible (the
# Debian package is named as the command); when not, say so plainly:
# tools/run-tests.sh then leaves out what needs the missing tool instead of
# failing, and tools/check-site.sh says that it cannot run.
need_tool() { ! command -v "$1" >/dev/null 2>&1; }
missing_tools=""
for tool in $tools; do
  need_tool "$tool" && missing_tools="$missing_tools $tool"
done
if [ -n "$missing_tools" ]; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    echo "== installing$missing_tools"
    apt-get update -qq || true
    # shellcheck disable=SC2086
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing_tools >/dev/null || true
  fi
  for tool in $missing_tools; do
    if need_tool "$tool"; then
      echo "NOTE: $tool is not installed and cannot be installed here (not root, or no apt-get);"
      if [ "$tool" = chromium ]; then
        echo "      tools/check-site.sh (the website's browser check) cannot run without it."
      elif [ "$tool" = pandoc ] && [ "$task" = demo ]; then
        echo "      make install builds calm without its vignettes."
      else
        echo "      tools/run-tests.sh will skip the checks that need it."
      fi
    fi
  done
fi

# OpenBLAS as R's BLAS and LAPACK: the most common fast-R set-up on Debian
# (libopenblas0-pthread, multithreaded), so that the tests run under it. As
# root only; elsewhere R keeps the BLAS it has and the tests run under that.
if wants test && is_root_with_apt && [ -z "${CALM_NO_OPENBLAS:-}" ]; then
  arch=$(dpkg --print-architecture 2>/dev/null || echo amd64)
  multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || echo x86_64-linux-gnu)
  if ! dpkg -s libopenblas0-pthread >/dev/null 2>&1; then
    echo "== installing OpenBLAS (libopenblas0-pthread) for R's BLAS and LAPACK"
    apt-get update -qq || true
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends libopenblas0-pthread >/dev/null ||
      echo "NOTE: OpenBLAS could not be installed; R keeps its current BLAS ($arch)"
  fi
  ob="/usr/lib/$multiarch/openblas-pthread"
  if [ -e "$ob/libblas.so.3" ]; then
    update-alternatives --set "libblas.so.3-$multiarch" "$ob/libblas.so.3" >/dev/null 2>&1 || true
    update-alternatives --set "liblapack.so.3-$multiarch" "$ob/liblapack.so.3" >/dev/null 2>&1 || true
  fi
fi
if wants test; then
  Rscript -e 'cat("R uses BLAS:", extSoftVersion()[["BLAS"]], "\n"); cat("R uses LAPACK:", La_library(), "\n")' || true
fi

# RcppNumerical (headers of the LBFGSpp library, which calm's NOTEARS
# uses; calm links to it at build time): not in Debian, so from CRAN, for
# root and other users alike.
if wants demo test site; then
  Rscript -e 'source("tools/repos.R"); if (!requireNamespace("RcppNumerical", quietly = TRUE)) install.packages("RcppNumerical", quiet = TRUE); if (!requireNamespace("RcppNumerical", quietly = TRUE)) quit(status = 1)' ||
    { echo "RcppNumerical could not be installed"; exit 1; }
fi

# Suggested packages Debian does not ship: pcalg and bnlearn. bnlearn >= 5 needs
# a newer R than Debian 12's 4.2; 4.9 is its last release for R 4.2, taken from
# CRAN's archive. (dagitty is not installed: it needs V8, whose Debian package
# conflicts with the machine's Node.js and whose CRAN build downloads a binary;
# calm reads and writes dagitty's text format itself.)
wants test || exit 0
Rscript - <<'RS'
source("tools/repos.R")
options(Ncpus = 2L)
need <- function(p) !requireNamespace(p, quietly = TRUE)
try_install <- function(expr) tryCatch(expr, error = function(e) message("install failed: ", conditionMessage(e)))
if (need("pcalg")) try_install(install.packages("pcalg", quiet = TRUE))
if (need("bnlearn")) {
  try_install(install.packages("bnlearn", quiet = TRUE))
  if (need("bnlearn")) try_install(install.packages(
    cran_archive_url("bnlearn", "4.9"), repos = NULL, type = "source", quiet = TRUE))
}
for (p in c("pcalg", "bnlearn"))
  message(sprintf("%-8s %s", p, if (need(p)) "NOT available (its tests will skip)" else "available"))
RS
