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
#' DAG or CPDAG: for a fit, `as_dagitty()` returns a `pdag` of its
#' **CPDAG** by default, as `print()` shows it; `graph = "dag"` gives the
#' one member of the class `fit$amat` holds.
#'
#' dagitty may list nodes in another order than the input (for example
#' sorted); compare matrices after ordering them by name, as
#' [shd_cpdag()] does.
#'
#' @param x For `as_dagitty()`, a graph or fit (see [as_amat()]); edge
#'   weights are dropped. For the `as_amat()` method, a `dagitty` object.
#' @param graph For a fit, which of its graphs: `"cpdag"` (default), `"dag"`
#'   or `"skeleton"`; see [as_amat()]. Ignored for other graphs.
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
as_dagitty <- function(x, graph = c("cpdag", "dag", "skeleton")) {
  # A dagitty object is its model text with class "dagitty"; dagitty's own
  # functions take it as it is, so the package itself is not needed here.
  structure(dagitty_code(x, call = environment(), graph = graph), class = "dagitty")
}

# dagitty model text for a graph argument (pure R, so it is testable where
# dagitty is not installed).
dagitty_code <- function(x, call = parent.frame(), graph = "cpdag") {
  m <- graph_arg(x, "x", call = call, graph = graph)
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
  # backslashes first, then quotes: the reader unescapes "\\x" to "x"
  esc <- gsub("\\", "\\\\", nm[!bare], fixed = TRUE)
  nm[!bare] <- paste0("\"", gsub("\"", "\\\"", esc, fixed = TRUE), "\"")
  nm
}

#' @rdname as_dagitty
#' @param weighted Ignored: dagitty graphs carry no weights here.
#' @param ... Unused.
#' @export
as_amat.dagitty <- function(x, weighted = TRUE, ...) {
  parsed <- parse_dagitty(unclass(x))
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

# A small reader of dagitty's model text: the graph type and outer braces;
# node statements with optional [attributes]; edge chains such as
# "a -> b <- c", whose ends may be groups "{a b}"; statements separated by
# ";", newlines or just spaces ("a b a -> b" is two nodes and an edge);
# graph-level settings ("bb = ...") skipped. Returns the nodes in order of
# appearance and the edges with "<-" turned around into "->". Text it cannot
# read is an error naming `x`, never a guess.
# One loop over the tokens, slightly over 80 lines: the grammar's cases (";",
# settings, edge marks, groups, names) read best side by side.
parse_dagitty <- function(text, call = NULL) {
  bad_text <- function(why) {
    abort_arg("x", paste("is not dagitty model text:", why), call = call, .envir = parent.frame())
  }
  if (!is.character(text) || length(text) != 1L || is.na(text)) {
    bad_text("it must be a single string.")
  }
  outer <- regmatches(text, regexec("(?s)^\\s*([A-Za-z]*)\\s*\\{(.*)\\}\\s*$", text, perl = TRUE))[[1]]
  if (length(outer) == 0L) bad_text("expected a graph type and braces, such as {.code dag {{ a -> b }}}.")
  body <- outer[3]
  quoted <- '"(?:[^"\\\\]|\\\\.)*"'
  body <- gsub(paste0("\\[(?:[^]\"]|", quoted, ")*\\]"), " ", body, perl = TRUE)  # attributes
  ops <- c("<->", "@->", "@--", "@-@", "<-@", "--@", "->@", "->", "<-", "--")
  token_re <- paste(c(quoted, ops, "[0-9A-Za-z_.]+", "[{};=]", "\\s+"), collapse = "|")
  toks <- regmatches(body, gregexpr(token_re, body, perl = TRUE))[[1]]
  if (!identical(paste(toks, collapse = ""), body)) {
    left <- gsub(token_re, "", body, perl = TRUE)
    bad_text("unexpected {.val {substr(left, 1, 1)}}.")
  }
  toks <- toks[!grepl("^\\s+$", toks)]
  is_id <- function(t) grepl("^[\"0-9A-Za-z_.]", t)
  unquote <- function(t) {
    q <- startsWith(t, "\"")
    t[q] <- gsub("\\\\(.)", "\\1", substr(t[q], 2L, nchar(t[q]) - 1L))
    t
  }
  nodes <- character()
  from <- to <- mark <- character()
  prev <- NULL   # the node(s) an edge mark would start from
  op <- NULL     # an edge mark waiting for its right-hand node(s)
  i <- 1L
  n <- length(toks)
  while (i <= n) {
    t <- toks[i]
    if (t == ";") {
      if (!is.null(op)) bad_text("edge {.code {op}} has no node on its right.")
      prev <- NULL
      i <- i + 1L
      next
    }
    if (is_id(t) && i < n && toks[i + 1L] == "=") {
      if (!is.null(op)) bad_text("edge {.code {op}} has no node on its right.")
      if (i + 2L > n || !is_id(toks[i + 2L])) bad_text("setting {.code {t}} has no value.")
      prev <- NULL
      i <- i + 3L
      next
    }
    if (t %in% ops) {
      if (is.null(prev) || !is.null(op)) bad_text("edge {.code {t}} has no node on its left.")
      op <- t
      i <- i + 1L
      next
    }
    if (t == "{") {
      close <- match("}", toks[-seq_len(i)]) + i
      group <- if (is.na(close)) NA else toks[seq_len(close - i - 1L) + i]
      if (anyNA(group) || !all(is_id(group))) bad_text("a group in braces must list node names.")
      operand <- unquote(group)
      i <- close + 1L
    } else if (is_id(t)) {
      operand <- unquote(t)
      i <- i + 1L
    } else {
      bad_text("unexpected {.val {t}}.")
    }
    nodes <- c(nodes, setdiff(operand, nodes))
    if (!is.null(op)) {
      pairs <- expand.grid(a = prev, b = operand, stringsAsFactors = FALSE)
      flip <- op == "<-"
      from <- c(from, if (flip) pairs$b else pairs$a)
      to <- c(to, if (flip) pairs$a else pairs$b)
      mark <- c(mark, rep(if (flip) "->" else op, nrow(pairs)))
      op <- NULL
    }
    prev <- operand
  }
  if (!is.null(op)) bad_text("edge {.code {op}} has no node on its right.")
  if (any(nodes == "")) bad_text("a node name is empty ({.code \"\"}).")
  list(nodes = nodes,
       edges = data.frame(from = from, to = to, mark = mark, stringsAsFactors = FALSE))
}
