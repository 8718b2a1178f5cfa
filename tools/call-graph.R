# The R file-level call graph of calm: an edge a -> b when a function
# defined in R/a.R calls (by name) a function defined in R/b.R. Prints the
# loops (strongly connected groups of files) and exits with status 1 when
# there is one, so that CI (.ci/run) fails on a loop; the layers are meant to
# go one way (graph and metrics at the bottom, then conversion, then plots and
# the bootstrap). S3 dispatch (print(x) reaching print.calm_fit) is not a
# call by name and does not count.
#   Rscript tools/call-graph.R [--dot FILE] [R folder]
#     --dot FILE    also write the graph in Graphviz's dot format
args <- commandArgs(TRUE)
option <- function(name) {
  i <- match(name, args)
  if (is.na(i) || i == length(args)) return(NULL)
  v <- args[i + 1L]
  args <<- args[-c(i, i + 1L)]
  v
}
dot <- option("--dot")
dir <- if (length(args)) args[1] else "R"
files <- list.files(dir, pattern = "\\.[Rr]$", full.names = TRUE)

# The top-level functions a file defines (`name <- function`), and the
# names of the functions it calls.
file_parse <- function(path) {
  exprs <- parse(path, keep.source = TRUE)
  pd <- utils::getParseData(exprs)
  defined <- character()
  for (e in exprs) {
    if (is.call(e) && as.character(e[[1L]]) %in% c("<-", "=") && is.name(e[[2L]]) &&
        is.call(e[[3L]]) && identical(e[[3L]][[1L]], as.name("function"))) {
      defined <- c(defined, as.character(e[[2L]]))
    }
  }
  list(defined = defined, calls = unique(pd$text[pd$token == "SYMBOL_FUNCTION_CALL"]))
}

topic <- function(path) sub("\\.[Rr]$", "", basename(path))
parsed <- stats::setNames(lapply(files, file_parse), vapply(files, topic, ""))
owner <- unlist(lapply(names(parsed), function(f) {
  stats::setNames(rep(f, length(parsed[[f]]$defined)), parsed[[f]]$defined)
}))
edges <- do.call(rbind, lapply(names(parsed), function(f) {
  to <- unique(owner[intersect(parsed[[f]]$calls, names(owner))])
  to <- setdiff(to, f)
  if (length(to)) data.frame(from = f, to = to) else NULL
}))

if (!is.null(dot)) {
  writeLines(c("digraph calm {", sprintf('  "%s" -> "%s";', edges$from, edges$to), "}"), dot)
}

# Strongly connected groups of more than one file, found with Tarjan's
# algorithm (no package needed).
strong_groups <- function(nodes, edges) {
  adj <- split(edges$to, factor(edges$from, levels = nodes))
  index <- stats::setNames(rep(NA_integer_, length(nodes)), nodes)
  low <- index
  on_stack <- stats::setNames(rep(FALSE, length(nodes)), nodes)
  stack <- character()
  counter <- 0L
  groups <- list()
  visit <- function(v) {
    counter <<- counter + 1L
    index[v] <<- counter
    low[v] <<- counter
    stack <<- c(stack, v)
    on_stack[v] <<- TRUE
    for (w in adj[[v]]) {
      if (is.na(index[w])) {
        visit(w)
        low[v] <<- min(low[v], low[w])
      } else if (on_stack[w]) {
        low[v] <<- min(low[v], index[w])
      }
    }
    if (low[v] == index[v]) {
      k <- match(v, stack)
      g <- stack[k:length(stack)]
      stack <<- stack[seq_len(k - 1L)]
      on_stack[g] <<- FALSE
      if (length(g) > 1L) groups[[length(groups) + 1L]] <<- sort(g)
    }
  }
  for (v in nodes) if (is.na(index[v])) visit(v)
  groups
}

groups <- strong_groups(names(parsed), edges)
cat(sprintf("call graph of %s/: %d files, %d edges between files\n", dir, length(parsed),
            nrow(edges)))
if (length(groups) == 0L) {
  cat("no loop\n")
  quit(status = 0L)
}
cat(sprintf("%d loop%s:\n", length(groups), if (length(groups) > 1L) "s" else ""))
for (g in groups) {
  inner <- edges[edges$from %in% g & edges$to %in% g, ]
  cat(sprintf("- %s\n", paste(g, collapse = ", ")))
  for (i in seq_len(nrow(inner))) {
    f <- inner$from[i]
    t <- inner$to[i]
    via <- intersect(parsed[[f]]$calls, parsed[[t]]$defined)
    cat(sprintf("    %s -> %s (%s)\n", f, t, paste(via, collapse = ", ")))
  }
}
quit(status = 1L)
