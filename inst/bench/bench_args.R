# Shared by the scripts in inst/bench (and sourced by the README and the
# vignettes to read stored results): one way to read a script's command
# line, one way to store a result with where it came from, one way to read
# it back. Every script sources it once, from the installed package:
#   source(system.file("bench", "bench_args.R", package = "calm", mustWork = TRUE))
# and, when it sources a neighbour (accuracy_data.R, realistic_data.R),
# finds its own folder with bench_script_dir() below.

# The folder of the running script (Rscript's --file=), or "." when sourced
# interactively.
bench_script_dir <- function() {
  f <- sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE))
  if (length(f)) dirname(normalizePath(f[1])) else "."
}

# Parse the command line against `defaults`, a named list giving every
# argument's default in positional order. Arguments are given by position
# (`Rscript s.R 50 4`), by name (`d=50 k=4`, also `--d=50`), or mixed: named
# ones are taken out first, the rest fill the remaining names in order.
# Each value takes the type of its default: numbers accept "Inf", logicals
# "TRUE"/"FALSE"/"1"/"0"; a default of NULL keeps the string. A default of
# NA (NA_integer_, NA_real_, NA_character_) marks a required argument. On an
# unknown name, too many arguments or a missing required one the script
# stops with `usage`. `keyed` names the arguments whose values may themselves
# read `word=value` (bench_small_n.R's "calm=1500"): a word whose name is not
# an argument's is then taken by position, and stops the script only if its
# position is not one of those. Returns the named list of values.
bench_args <- function(defaults, usage = NULL, args = commandArgs(TRUE), keyed = character(0)) {
  fail <- function(msg) {
    if (!is.null(usage)) msg <- paste0(msg, "\nusage: ", usage)
    stop(msg, call. = FALSE)
  }
  out <- defaults
  looks_named <- grepl("^(--)?[A-Za-z_][A-Za-z0-9_.]*=", args)
  keys <- ifelse(looks_named, sub("^(--)?([^=]+)=.*$", "\\2", args), "")
  named <- looks_named & (keys %in% names(defaults) | !length(keyed))
  for (i in which(named)) {
    if (!keys[i] %in% names(defaults)) fail(sprintf("unknown argument '%s'", keys[i]))
    out[keys[i]] <- list(bench_convert(sub("^[^=]+=", "", args[i]), defaults[[keys[i]]],
                                       keys[i], fail))
  }
  free <- setdiff(names(defaults), keys[named])
  pos <- args[!named]
  pos_keys <- keys[!named]
  if (length(pos) > length(free)) fail("too many arguments")
  for (i in seq_along(pos)) {
    if (nzchar(pos_keys[i]) && !free[i] %in% keyed) {
      fail(sprintf("unknown argument '%s'", pos_keys[i]))
    }
    out[free[i]] <- list(bench_convert(pos[i], defaults[[free[i]]], free[i], fail))
  }
  missing <- names(out)[vapply(out, function(v) length(v) == 1L && is.na(v), NA)]
  if (length(missing)) fail(sprintf("argument '%s' is required", missing[1]))
  out
}

bench_convert <- function(value, default, key, fail) {
  if (is.null(default) || is.character(default) || identical(default, NA)) return(value)
  v <- if (is.logical(default)) {
    switch(toupper(value), `TRUE` = , `1` = TRUE, `FALSE` = , `0` = FALSE, NA)
  } else if (is.integer(default)) {
    suppressWarnings(as.integer(value))
  } else {
    suppressWarnings(as.numeric(value))
  }
  if (is.na(v)) fail(sprintf("argument '%s' must be %s, not '%s'", key, typeof(default), value))
  v
}

# A comma-separated list ("default,boss") as a character vector.
bench_list <- function(x) if (is.null(x) || !nzchar(x)) character(0) else strsplit(x, ",")[[1]]

# The command that ran this script, as it would be typed from the package's
# source folder.
bench_command <- function(args = commandArgs(TRUE)) {
  f <- sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE))
  script <- if (length(f)) file.path("inst", "bench", basename(f[1])) else "<script>"
  paste(c("Rscript", script, args), collapse = " ")
}

# Where and when: the provenance stored with every result.
bench_provenance <- function(command = bench_command(), note = NULL) {
  commit <- tryCatch(suppressWarnings(system2("git", c("rev-parse", "--short", "HEAD"),
                                              stdout = TRUE, stderr = FALSE)),
                     error = function(e) character(0))
  cpu <- tryCatch({
    l <- grep("^model name", readLines("/proc/cpuinfo", warn = FALSE), value = TRUE)
    if (length(l)) sub("^model name\\s*:\\s*", "", l[1]) else NA_character_
  }, error = function(e) NA_character_, warning = function(w) NA_character_)
  out <- list(date = format(Sys.time(), "%Y-%m-%d %H:%M:%S UTC", tz = "UTC"),
              machine = sprintf("%s, %d cores, %s", cpu, parallel::detectCores(),
                                R.version.string),
              blas = extSoftVersion()[["BLAS"]],
              commit = if (length(commit) == 1L) commit else NA_character_,
              calm = as.character(utils::packageVersion("calm")),
              command = command)
  if (!is.null(note)) out$note <- note
  out
}

# Write a result with its provenance (attribute "provenance") to `file`.
bench_save <- function(x, file, command = bench_command(), note = NULL) {
  attr(x, "provenance") <- bench_provenance(command, note)
  saveRDS(x, file)
  invisible(x)
}

# The stored results of one benchmark: a data frame with a column naming the
# run each row came from (`key`), and an attribute "provenance" holding one
# entry per run (its date, machine, command and notes, as the run wrote them).
# bench_append() adds (or replaces) the rows of one run in such a file, so
# that a benchmark keeps one stored file whatever the number of runs; the
# run's own columns, class and other attributes are kept (attribute
# "layout") so that stored_result() gives the run back as it was written.
bench_append <- function(x, file, run, provenance = attr(x, "provenance"), key = "run") {
  # read before `x` is changed below (a lazy default would see it without)
  force(provenance)
  stored <- if (file.exists(file)) readRDS(file) else NULL
  prov <- if (is.null(stored)) list() else attr(stored, "provenance")
  layout <- if (is.null(stored)) list() else attr(stored, "layout")
  extra <- attributes(x)[setdiff(names(attributes(x)), c("names", "row.names", "class",
                                                         "provenance"))]
  layout[[run]] <- list(columns = names(x), types = vapply(x, typeof, ""), class = class(x),
                        row_names = attr(x, "row.names"), attributes = extra)
  x <- as.data.frame(unclass(x)[names(x)], stringsAsFactors = FALSE, optional = TRUE)
  x[[key]] <- rep(run, nrow(x))
  if (!is.null(stored)) {
    stored <- stored[stored[[key]] != run, , drop = FALSE]
    cols <- union(names(stored), names(x))
    for (cl in setdiff(cols, names(stored))) stored[[cl]] <- rep(NA, nrow(stored))
    for (cl in setdiff(cols, names(x))) x[[cl]] <- rep(NA, nrow(x))
    x <- rbind(stored[cols], x[cols])
  }
  prov[run] <- list(provenance)
  attributes(x)[c("provenance", "layout")] <- list(prov, layout)
  rownames(x) <- NULL
  # xz: the stored files are installed with the package (a quarter smaller
  # than gzip's, which took the installed size past R CMD check's 5 Mb)
  saveRDS(x, file, compress = "xz")
  invisible(x)
}

# The runs of a stored result, in the order they were added.
stored_runs <- function(x, key = "run") unique(x[[key]])

# One run of a stored result (as bench_append() received it), with its
# provenance as attribute "provenance".
stored_run <- function(x, run, key = "run") {
  lay <- attr(x, "layout")[[run]]
  prov <- attr(x, "provenance")[[run]]
  out <- x[x[[key]] == run, lay$columns, drop = FALSE]
  # a column another run stored with another type (numbers bound to text)
  for (cl in lay$columns[vapply(out, typeof, "") != lay$types]) {
    out[[cl]] <- match.fun(paste0("as.", lay$types[[cl]]))(out[[cl]])
  }
  attributes(out) <- c(list(names = lay$columns, row.names = lay$row_names,
                            class = lay$class), lay$attributes)
  attr(out, "provenance") <- prov
  out
}

# Read a stored result of the installed package (inst/extdata/<name>.rds);
# with `run`, that run alone (stored_run()).
stored_result <- function(name, run = NULL, key = "run") {
  x <- readRDS(system.file("extdata", paste0(name, ".rds"), package = "calm", mustWork = TRUE))
  if (is.null(run)) x else stored_run(x, run, key)
}
