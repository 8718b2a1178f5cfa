#!/usr/bin/env bash
# Installs everything calm needs to build, check and test, on Debian 12 with R.
# As root: Debian's prebuilt r-cran-*/r-bioc-* packages through apt-get (fast),
# then the packages Debian lacks (pcalg, bnlearn) from CRAN.
# As another user: everything from CRAN into the user's library.
# Idempotent: what is already installed is skipped.
set -euo pipefail
cd "$(dirname "$0")/.."

DEB_PKGS="r-cran-rcpp r-cran-rcppeigen r-cran-igraph r-cran-cli r-cran-future
r-cran-future.apply r-cran-progressr r-cran-knitr r-cran-rmarkdown r-cran-roxygen2
r-cran-withr r-cran-testthat r-cran-callr r-bioc-graph r-bioc-rbgl r-cran-robustbase r-cran-ggm
r-cran-corpcor r-cran-fastica r-cran-abind r-cran-sfsmisc r-cran-bdsmatrix r-cran-clue
r-cran-rcpparmadillo r-cran-bh r-cran-vcd r-cran-curl r-cran-testthat pandoc qpdf"

have_all_r() {
  Rscript -e 'p <- commandArgs(TRUE); q(status = as.integer(!all(vapply(p, requireNamespace, logical(1), quietly = TRUE))))' "$@" >/dev/null 2>&1
}

CORE="Rcpp RcppEigen igraph cli future future.apply progressr knitr rmarkdown roxygen2 withr testthat callr graph RBGL"
if ! have_all_r $CORE || ! command -v pandoc >/dev/null 2>&1; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    echo "== installing Debian packages"
    apt-get update -qq
    # shellcheck disable=SC2086
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $DEB_PKGS >/dev/null
  else
    echo "== installing R packages from CRAN (not root: no apt-get)"
    Rscript -e 'source("tools/repos.R"); p <- c("Rcpp","RcppEigen","igraph","cli","future","future.apply","progressr","knitr","rmarkdown","roxygen2","withr","testthat","BiocManager"); p <- p[!vapply(p, requireNamespace, logical(1), quietly = TRUE)]; if (length(p)) install.packages(p); if (!requireNamespace("graph", quietly = TRUE)) BiocManager::install(c("graph", "RBGL"), update = FALSE, ask = FALSE)'
  fi
fi

# Suggested packages Debian does not ship: pcalg and bnlearn. bnlearn >= 5 needs
# a newer R than Debian 12's 4.2; 4.9 is its last release for R 4.2, taken from
# CRAN's archive. (dagitty is not installed: it needs V8, whose Debian package
# conflicts with the machine's Node.js and whose CRAN build downloads a binary;
# calm reads and writes dagitty's text format itself.)
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
