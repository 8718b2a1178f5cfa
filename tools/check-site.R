# The browser check of the pkgdown site (tools/check-site.sh runs it):
# opens every HTML page of the built site in headless Chromium and reports,
# one line per problem, naming the page:
#   - a page that does not render its main text (no <main>, no heading, or
#     almost no text once the browser has run its scripts);
#   - a JavaScript error or any other message on the browser's console;
#   - a local link, image, script or stylesheet that points at no file of
#     the site (links to other sites are not followed: the check is offline);
#   - an export (or documented S3 method) of the package without a
#     reference page linked from reference/index.html.
# Usage: Rscript tools/check-site.R [site dir, default docs] [source dir, default .] [page ...]
# (pages relative to the site dir: open only those; default every page)
# Exits 1 when there is a problem, 2 when it cannot run.
args <- commandArgs(TRUE)
site <- normalizePath(if (length(args) >= 1) args[1] else "docs", mustWork = FALSE)
src <- normalizePath(if (length(args) >= 2) args[2] else ".")
fail_run <- function(msg) {
  cat("check-site: ", msg, "\n", sep = "")
  quit(status = 2)
}
if (!dir.exists(site)) fail_run(sprintf("no site at %s: build it with `make site`", site))
if (!requireNamespace("xml2", quietly = TRUE)) fail_run("needs the R package xml2 (it comes with pkgdown)")
browser <- Sys.getenv("CHROMIUM")
if (!nzchar(browser)) {
  found <- Sys.which(c("chromium", "chromium-browser", "google-chrome"))
  browser <- found[nzchar(found)][1]
}
if (is.na(browser) || !nzchar(browser)) {
  fail_run("no headless browser: install Debian's chromium (tools/install-deps.sh does as root) or set CHROMIUM")
}
profile <- tempfile("check-site-profile")
dir.create(profile)
on.exit(unlink(profile, recursive = TRUE), add = TRUE)

problems <- character()
problem <- function(page, ...) problems <<- c(problems, paste0(page, ": ", sprintf(...)))

# The page as the browser leaves it once loaded, and its console messages.
render <- function(file) {
  out <- tempfile(fileext = ".html")
  err <- tempfile(fileext = ".log")
  on.exit(unlink(c(out, err)), add = TRUE)
  url <- paste0("file://", utils::URLencode(file))
  status <- suppressWarnings(system2(browser, c(
    "--headless", "--disable-gpu", "--no-sandbox", "--no-first-run",
    "--disable-extensions", "--disable-background-networking",
    paste0("--user-data-dir=", profile), "--enable-logging=stderr", "--v=0",
    "--virtual-time-budget=5000", "--dump-dom", shQuote(url)),
    stdout = out, stderr = err, timeout = 60))
  log <- if (file.exists(err)) readLines(err, warn = FALSE) else character()
  console <- grep(":CONSOLE", log, value = TRUE, fixed = TRUE)
  console <- sub("^\\[[^]]*CONSOLE[^]]*\\] *", "", console)
  dom <- if (file.exists(out)) paste(readLines(out, warn = FALSE), collapse = "\n") else ""
  list(status = status, dom = dom, console = console)
}

# A local URL as a file of the site ("" for a link elsewhere).
local_target <- function(url, page_dir) {
  if (!nzchar(url) || grepl("^(#|[a-zA-Z][a-zA-Z0-9+.-]*:)", url) && !grepl("^file:", url)) return("")
  if (grepl("^//", url)) return("")
  path <- sub("[?#].*$", "", url)
  if (!nzchar(path)) return("")
  path <- utils::URLdecode(path)
  if (grepl("^file:", path)) {
    path <- sub("^file://", "", path)
  } else if (startsWith(path, "/")) {
    path <- file.path(site, path)
  } else {
    path <- file.path(page_dir, path)
  }
  if (endsWith(url, "/") || dir.exists(path)) path <- file.path(path, "index.html")
  normalizePath(path, mustWork = FALSE)
}

pages <- sort(list.files(site, pattern = "\\.html?$", recursive = TRUE))
pages <- pages[!startsWith(pages, "deps/")]
if (length(args) >= 3) pages <- intersect(args[-(1:2)], pages)
if (!length(pages)) fail_run(sprintf("no HTML pages in %s", site))
t0 <- proc.time()[["elapsed"]]
for (page in pages) {
  file <- file.path(site, page)
  r <- render(file)
  if (!nzchar(trimws(r$dom))) {
    problem(page, "the browser rendered nothing (exit status %s)", r$status)
    next
  }
  for (m in r$console) problem(page, "JavaScript console: %s", m)
  doc <- xml2::read_html(r$dom)
  main <- xml2::xml_find_first(doc, "//main")
  if (inherits(main, "xml_missing")) {
    problem(page, "no <main> element: the page's content did not render")
  } else {
    text <- gsub("\\s+", " ", trimws(xml2::xml_text(main)))
    if (inherits(xml2::xml_find_first(main, ".//h1"), "xml_missing")) {
      problem(page, "the main text has no title (<h1>)")
    }
    if (nchar(text) < 40) {
      problem(page, "the main text did not render (%d characters: \"%s\")", nchar(text), text)
    }
  }
  refs <- c(xml2::xml_attr(xml2::xml_find_all(doc, "//a[@href] | //link[@href]"), "href"),
            xml2::xml_attr(xml2::xml_find_all(doc, "//*[@src]"), "src"))
  seen <- character()
  for (u in unique(refs)) {
    target <- local_target(u, dirname(file))
    if (!nzchar(target) || target %in% seen) next
    seen <- c(seen, target)
    if (!startsWith(target, paste0(site, "/"))) {
      problem(page, "points outside the site: %s", u)
    } else if (!file.exists(target)) {
      problem(page, "broken local link: %s (no file %s)", u, substring(target, nchar(site) + 2))
    }
  }
}
seconds <- proc.time()[["elapsed"]] - t0

# Every export has a reference page, linked from the reference index.
source(file.path(src, "tools", "site-topics.R"))
topics <- site_topics(src)
index <- file.path(site, "reference", "index.html")
if (!file.exists(index)) {
  problem("reference/index.html", "missing")
} else {
  linked <- xml2::xml_attr(xml2::xml_find_all(xml2::read_html(index), "//main//a[@href]"), "href")
  linked <- sub("#.*$", "", linked)
  named <- c(topics$exports, topics$s3[topics$s3 %in% names(topics$alias_topic)])
  for (e in named) {
    topic <- topics$alias_topic[e]
    what <- if (e %in% topics$exports) "export" else "S3 method"
    if (is.na(topic)) {
      problem("reference/index.html", "%s %s has no help topic", what, e)
    } else if (!file.exists(file.path(site, "reference", paste0(topic, ".html")))) {
      problem("reference/index.html", "%s %s has no reference page (no reference/%s.html)", what, e, topic)
    } else if (!paste0(topic, ".html") %in% linked) {
      problem("reference/index.html", "%s %s: its page %s.html is not linked from the index", what, e, topic)
    }
  }
}
# Search: the index the search box reads, and the box itself.
if (!file.exists(file.path(site, "search.json"))) problem("search.json", "missing: the site's search has no index")

for (p in problems) cat(p, "\n", sep = "")
cat(sprintf("site check: %d pages opened in %s in %.0f s, %d exports checked, %d problem%s\n",
            length(pages), basename(browser), seconds, length(topics$exports),
            length(problems), if (length(problems) == 1) "" else "s"))
quit(status = if (length(problems)) 1 else 0)
