# Shared by tools/build-site.R and tools/check-site.R: the package's exports
# and documented S3 methods, and the help topic (Rd \name) of each alias.
site_topics <- function(src) {
  ns <- parseNamespaceFile(basename(src), dirname(src))
  s3 <- if (length(ns$S3methods)) paste(ns$S3methods[, 1], ns$S3methods[, 2], sep = ".") else character()
  rd_files <- list.files(file.path(src, "man"), pattern = "\\.Rd$", full.names = TRUE)
  alias_topic <- character()
  internal <- character()
  for (f in rd_files) {
    rd <- tools::parse_Rd(f)
    tag <- vapply(rd, attr, character(1), "Rd_tag")
    field <- function(t) vapply(rd[tag == t], function(x) trimws(paste(unlist(x), collapse = "")), character(1))
    name <- field("\\name")
    aliases <- field("\\alias")
    alias_topic[aliases] <- name
    if ("internal" %in% field("\\keyword")) internal <- c(internal, name)
  }
  list(exports = ns$exports, s3 = s3, alias_topic = alias_topic, internal = internal)
}
