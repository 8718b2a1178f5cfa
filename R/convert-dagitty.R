# Conversion to and from dagitty, whose graphs are text in its own DOT-like
# syntax ("dag { a -> b }", "pdag { a -> b; b -- c }"). The text is built
# here in plain R; dagitty (which runs JavaScript through V8) is only needed
# to parse it.

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
#' @examplesIf requireNamespace("dagitty", quietly = TRUE)
#' g <- igraph::graph_from_literal(A -+ C, B -+ C, C -+ D)
#' as_dagitty(g)
#' cp <- as_dagitty(dag_to_cpdag(igraph::graph_from_literal(A -+ B, B -+ C)))
#' cp
#' as_amat(cp)
#' @export
as_dagitty <- function(x) {
  code <- dagitty_code(x, call = environment())
  rlang_check_installed("dagitty")
  dagitty::dagitty(code)
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
  rlang_check_installed("dagitty")
  nm <- names(x)
  e <- dagitty::edges(x)
  m <- matrix(0, length(nm), length(nm), dimnames = list(nm, nm))
  if (NROW(e) == 0L) return(m)
  from <- as.character(e$v)
  to <- as.character(e$w)
  mark <- as.character(e$e)
  bad <- !mark %in% c("->", "--")
  if (any(bad)) {
    cli::cli_abort(
      c("{.arg x} has edge mark{?s} {.val {unique(mark[bad])}}, which {?has/have} no adjacency-matrix form here.",
        i = "Only directed ({.code ->}) and undirected ({.code --}) edges convert."),
      class = c("calm_error_argument", "calm_error"), call = NULL
    )
  }
  m[cbind(from, to)] <- 1
  und <- mark == "--"
  m[cbind(to[und], from[und])] <- 1
  m
}
