# Conversion to and from dagitty, whose graphs are text in its own DOT-like
# syntax ("dag { a -> b }", "pdag { a -> b; b -- c }"). The text is written
# and read here in plain R, so neither direction needs dagitty installed
# (dagitty runs JavaScript through V8, which cannot always be installed).

#' Convert a graph to or from dagitty
#'
#' `as_dagitty()` turns a DAG or CPDAG into a graph of the package
#' dagitty: a graph without undirected edges becomes a `dag`, one with
#' undirected edges (a mutual pair `i -> j`, `j -> i`) a `pdag` in which
#' they are written `i -- j`. Every node is listed, so isolated nodes are
#' kept. The reverse conversion is the [as_amat()] method for `dagitty`
#' objects: `->` gives `[i, j] = 1`, `--` gives both entries; dagitty's other
#' edge marks (bidirected `<->` and the partial marks of PAGs) have no
#' counterpart here and are an error.
#'
#' dagitty may list nodes in another order than the input (for example
#' sorted); compare matrices after ordering them by name, as
#' [shd_cpdag()] does.
#'
#' @param x For `as_dagitty()`, a graph or fit (see [as_amat()]); edge
#'   weights are dropped. For the `as_amat()` method, a `dagitty` object.
#' @return A `dagitty` object. The [as_amat()] method returns a 0/1 matrix
#'   with dagitty's node names.
#' @seealso [dag_to_cpdag()] to turn a DAG into its CPDAG before converting.
#' @examples
#' g <- igraph::graph_from_literal(A -+ C, B -+ C, C -+ D)
#' as_dagitty(g)
#' cp <- as_dagitty(dag_to_cpdag(igraph::graph_from_literal(A -+ B, B -+ C)))
#' cp
#' as_amat(cp)
#' @export
as_dagitty <- function(x) {
  # A dagitty object is its model text with class "dagitty"; dagitty's own
  # functions take it as it is, so the package itself is not needed here.
  structure(dagitty_code(x, call = environment()), class = "dagitty")
}

# dagitty model text for a graph argument (pure R, so it is testable where
# dagitty is not installed).
dagitty_code <- function(x, call = parent.frame()) {
  m <- graph_arg(x, "x", call = call)
  m[] <- as.double(m != 0)
  nm <- rownames(m)
  if (anyDuplicated(nm)) {
    abort_arg("x", "must have distinct node names; dagitty identifies nodes by name.",
              call = call)
  }
  id <- dagitty_quote(nm)
  mutual <- m != 0 & t(m) != 0
  directed <- which(m != 0 & !mutual, arr.ind = TRUE)
  undirected <- which(mutual & upper.tri(m), arr.ind = TRUE)
  type <- if (nrow(undirected) > 0L) "pdag" else "dag"
  lines <- c(
    id,
    if (nrow(directed) > 0L) paste(id[directed[, 1]], "->", id[directed[, 2]]),
    if (nrow(undirected) > 0L) paste(id[undirected[, 1]], "--", id[undirected[, 2]])
  )
  paste0(type, " {\n", paste(lines, collapse = "\n"), "\n}\n")
}

# dagitty accepts bare identifiers made of letters, digits, "_" and "."; any
# other name must be double-quoted, with inner quotes escaped.
dagitty_quote <- function(nm) {
  bare <- grepl("^[0-9A-Za-z_.]+$", nm)
  nm[!bare] <- paste0("\"", gsub("\"", "\\\"", nm[!bare], fixed = TRUE), "\"")
  nm
}

#' @rdname as_dagitty
#' @param weighted Ignored: dagitty graphs carry no weights here.
#' @param ... Unused.
#' @export
as_amat.dagitty <- function(x, weighted = TRUE, ...) {
  parsed <- parse_dagitty(as.character(x))
  nm <- parsed$nodes
  m <- matrix(0, length(nm), length(nm), dimnames = list(nm, nm))
  e <- parsed$edges
  bad <- !e$mark %in% c("->", "--")
  if (any(bad)) {
    cli::cli_abort(
      c("{.arg x} has edge mark{?s} {.val {unique(e$mark[bad])}}, which {?has/have} no adjacency-matrix form here.",
        i = "Only directed ({.code ->}) and undirected ({.code --}) edges convert."),
      class = c("calm_error_argument", "calm_error"), call = NULL
    )
  }
  if (nrow(e) == 0L) return(m)
  m[cbind(e$from, e$to)] <- 1
  und <- e$mark == "--"
  m[cbind(e$to[und], e$from[und])] <- 1
  m
}

# A small reader of dagitty's model text: the graph type and braces, node
# statements with optional [attributes], edge chains such as "a -> b <- c",
# statements separated by newlines or ";". Graph-level settings ("bb=...")
# are skipped. Returns the nodes in order of appearance and the edges with
# "<-" turned around into "->".
parse_dagitty <- function(text) {
  body <- sub("^\\s*[A-Za-z]*\\s*\\{", "", text)
  body <- sub("\\}\\s*$", "", body)
  body <- gsub("\\[[^]]*\\]", " ", body)          # attributes
  stmts <- trimws(unlist(strsplit(body, "[;\n]")))
  stmts <- stmts[nzchar(stmts) & !grepl("^[A-Za-z_]+\\s*=", stmts)]
  op <- "(<->|->|<-|--|@->|@--|@-@|<-@|--@|->@)"
  nodes <- character()
  edges <- data.frame(from = character(), to = character(), mark = character())
  for (st in stmts) {
    parts <- trimws(strsplit(st, op, perl = TRUE)[[1]])
    ops <- regmatches(st, gregexpr(op, st, perl = TRUE))[[1]]
    ids <- gsub('^"|"$', "", parts)
    nodes <- c(nodes, setdiff(ids, nodes))
    for (k in seq_along(ops)) {
      a <- ids[k]
      b <- ids[k + 1]
      edges <- rbind(edges, switch(ops[k],
        "->" = data.frame(from = a, to = b, mark = "->"),
        "<-" = data.frame(from = b, to = a, mark = "->"),
        data.frame(from = a, to = b, mark = ops[k])
      ))
    }
  }
  list(nodes = nodes, edges = edges)
}
