#!/usr/bin/env bash
# The browser check of the built pkgdown site (see tools/check-site.R):
# every page opened in headless Chromium; one line per problem, naming the
# page; exit status non-zero on any.
# Usage: bash tools/check-site.sh [site dir, default docs] [page ...]
set -uo pipefail
cd "$(dirname "$0")/.."
site=${1:-docs}
shift || true
Rscript tools/check-site.R "$site" . "$@"
