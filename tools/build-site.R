# Builds calm's pkgdown site into docs/, offline: `make site` runs it.
#
# 1. Checks that every export (and every documented S3 method) has a topic
#    listed under `reference:` in _pkgdown.yml; stops naming those that do
#    not (pkgdown itself only notices topics missing from the index, not an
#    export without a help page).
# 2. Uses the calm installed in the library named by CALM_SITE_LIB (CI
#    points it at calm.Rcheck, which `make test` has just installed);
#    otherwise installs this checkout into a temporary library first.
# 3. Builds home (README.md, with its figures), reference (running the
#    examples), articles (the vignettes), news (NEWS.md) and the search
#    index, with pkgdown's internet look-ups (CRAN and Bioconductor links
#    for the sidebar) switched off.
options(pkgdown.internet = FALSE, warn = 1)
src <- normalizePath(".")
t0 <- proc.time()[["elapsed"]]
say <- function(...) cat("== build-site:", sprintf(...), "\n")

# --- 1. every export has a reference entry ---------------------------------
source(file.path(src, "tools", "site-topics.R"))
topics <- site_topics(src)
exports <- topics$exports
s3 <- topics$s3
alias_topic <- topics$alias_topic
yml <- yaml::read_yaml(file.path(src, "_pkgdown.yml"))
listed <- unlist(lapply(yml$reference, `[[`, "contents"))
problems <- character()
for (e in exports) {
  topic <- alias_topic[e]
  if (is.na(topic)) {
    problems <- c(problems, sprintf("export %s has no help page (no \\alias{%s} in man/)", e, e))
  } else if (!topic %in% listed) {
    problems <- c(problems, sprintf("export %s (topic %s) is not listed under reference: in _pkgdown.yml", e, topic))
  }
}
for (m in s3) {
  topic <- alias_topic[m]
  if (!is.na(topic) && !topic %in% listed) {
    problems <- c(problems, sprintf("S3 method %s (topic %s) is not listed under reference: in _pkgdown.yml", m, topic))
  }
}
if (length(problems)) {
  cat(paste0("build-site: ", problems, "\n"), sep = "")
  stop(length(problems), " reference problem(s); add the topics to _pkgdown.yml", call. = FALSE)
}
say("%d exports and %d S3 methods, all with a reference entry", length(exports), length(s3))

# --- 2. the installed calm the examples and articles run with -------------
lib <- Sys.getenv("CALM_SITE_LIB")
if (nzchar(lib)) {
  lib <- normalizePath(lib, mustWork = TRUE)
  say("using the calm installed in %s", lib)
} else {
  lib <- tempfile("calm-site-lib")
  dir.create(lib)
  say("installing calm into %s", lib)
  st <- system2(file.path(R.home("bin"), "R"),
                c("CMD", "INSTALL", "--no-test-load", "-l", shQuote(lib), shQuote(src)))
  if (st != 0) stop("R CMD INSTALL failed", call. = FALSE)
}
.libPaths(c(lib, .libPaths()))
Sys.setenv(R_LIBS = paste(.libPaths(), collapse = .Platform$path.sep))
inst <- utils::packageDescription("calm", lib.loc = lib)$Version
here <- read.dcf(file.path(src, "DESCRIPTION"), "Version")[1, 1]
if (!identical(as.character(inst), unname(as.character(here)))) stop(sprintf("the calm in %s is %s, this checkout is %s", lib, inst, here), call. = FALSE)

# --- 3. the site ---------------------------------------------------------
unlink(file.path(src, "docs"), recursive = TRUE)
pkgdown::build_site(src, lazy = FALSE, preview = FALSE, devel = FALSE,
                    install = FALSE, new_process = FALSE)
pages <- list.files(file.path(src, "docs"), pattern = "\\.html$", recursive = TRUE)
say("built %d pages into docs/ in %.0f s", length(pages), proc.time()[["elapsed"]] - t0)
