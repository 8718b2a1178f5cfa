# The repository the install scripts use: the one R is configured with
# (getOption("repos"), e.g. a mirror or a company repository set in
# Rprofile.site or ~/.Rprofile). Only when R has none (Debian's R leaves the
# placeholder "@CRAN@") is the environment variable CALM_CRAN used, or
# else CRAN's cloud mirror.
local({
  repos <- getOption("repos")
  if (is.null(repos) || !"CRAN" %in% names(repos) || repos[["CRAN"]] %in% c("", "@CRAN@")) {
    repos[["CRAN"]] <- Sys.getenv("CALM_CRAN", "https://cloud.r-project.org")
    options(repos = repos)
  }
})

# The address of an archived source package in the configured repository
# (CRAN's layout: src/contrib/Archive/<pkg>/<pkg>_<version>.tar.gz).
cran_archive_url <- function(pkg, version) {
  base <- sub("/+$", "", getOption("repos")[["CRAN"]])
  sprintf("%s/src/contrib/Archive/%s/%s_%s.tar.gz", base, pkg, pkg, version)
}
