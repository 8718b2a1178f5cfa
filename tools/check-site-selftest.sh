#!/usr/bin/env bash
# Shows that tools/check-site.sh fails on a broken site: copies the built
# site (docs/) to a temporary folder, breaks five pages in five ways, runs
# the check on them and on one intact page, and asserts that it exits
# non-zero and names each broken page with its problem, and nothing else.
# Prints "site check self-test: passed" (exit 0) or what it missed (exit 1).
set -uo pipefail
cd "$(dirname "$0")/.."
[ -f docs/index.html ] || { echo "site check self-test: no site in docs/ (make site first)"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -r docs "$tmp/site"
s=$tmp/site
# 1. the home page's figure is gone
rm "$s/reference/figures/README-speed-accuracy-1.png"
# 2. ?calm's page lost its text
perl -0pi -e 's{<main(.*?)>.*</main>}{<main$1></main>}s' "$s/reference/calm.html"
# 3. an article throws a JavaScript error
perl -0pi -e 's{</body>}{<script>calm_no_such_function();</script></body>}' "$s/articles/getting-started.html"
# 4. the changelog links to a page that does not exist
perl -0pi -e 's{</main>}{<p><a href="../reference/no-such-page.html">gone</a></p></main>}' "$s/news/index.html"
# 5. an export's reference page is missing
rm "$s/reference/average_graph.html"

out=$(bash tools/check-site.sh "$s" index.html reference/calm.html articles/getting-started.html \
  news/index.html reference/index.html reference/boss.html 2>&1)
status=$?
echo "$out" | sed 's/^/  | /'
fail=0
expect() {
  if ! grep -qE "$1" <<<"$out"; then echo "site check self-test: the check did not report: $2"; fail=1; fi
}
[ "$status" -eq 1 ] || { echo "site check self-test: the check exited with $status, not 1"; fail=1; }
expect '^index\.html: broken local link: reference/figures/README-speed-accuracy-1\.png' "the home page's missing figure"
expect '^reference/calm\.html: the main text did not render' "?calm's page without its text"
expect '^articles/getting-started\.html: JavaScript console: .*calm_no_such_function' "the article's JavaScript error"
expect '^news/index\.html: broken local link: \.\./reference/no-such-page\.html' "the changelog's broken link"
expect '^reference/index\.html: export average_graph has no reference page' "the export whose page is missing"
expect '^reference/index\.html: broken local link: average_graph\.html' "the index's link to the missing page"
if grep -q '^reference/boss\.html:' <<<"$out"; then echo "site check self-test: an intact page (reference/boss.html) was reported"; fail=1; fi
if [ "$fail" -eq 0 ]; then echo "site check self-test: passed"; else echo "site check self-test: FAILED"; fi
exit "$fail"
