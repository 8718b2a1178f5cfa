# The `moral` argument of calm() and boss(): estimated, none, or a graph
# given by the user, as the mask the searches keep to.

# The moral graph argument as list(mask = 0/1 matrix named like sigma,
# source = how it was obtained, graph = undirected igraph). `sigma` has been
# checked already (resolve_covariance()); `correlation` says it is a
# correlation matrix. `threads`: IAMB's (moral_from_covariance()).
resolve_moral <- function(moral, sigma, n, call = parent.frame(), alpha = 0.01, knowledge = NULL,
                          correlation = FALSE, threads = 1L) {
  nm <- colnames(sigma)
  d <- length(nm)
  if (is.null(moral)) moral <- "auto"
  if (is.character(moral)) {
    source <- match_choice(moral, c("auto", "iamb", "precision", "none"), "moral", call = call)
    # "auto" (NULL before it had a name): IAMB for data, the precision
    # matrix's support for a population covariance
    if (source == "auto") source <- if (is.finite(n)) "iamb" else "precision"
    if (source == "none") {
      mask <- matrix(1, d, d) - diag(d)
    } else {
      # estimate_moral_graph()'s defaults of `rule`, `max_size` and `zero_tol`
      defaults <- formals(estimate_moral_graph)
      g <- moral_from_covariance(sigma, n, alpha, method = source, rule = "or",
                                 max_size = defaults[["max_size"]],
                                 zero_tol = defaults[["zero_tol"]], knowledge = knowledge,
                                 correlation = correlation, call = call, threads = threads)
      mask <- edges_to_mask(igraph::as_edgelist(g, names = FALSE), nm)
      # the estimated graph itself, with its attributes (blankets, tests,
      # capped), is what fit$moral holds
      graph <- g
    }
  } else {
    source <- "user"
    mask <- moral_matrix_arg(moral, nm, call)
  }
  dimnames(mask) <- list(nm, nm)
  # required adjacencies (background knowledge) stay in the moral graph;
  # estimate_moral_graph() already kept them in the graphs it estimated
  if (!is.null(knowledge)) mask <- pmax(mask, knowledge[["required"]], t(knowledge[["required"]]))
  if (source != "iamb" && source != "precision") {
    graph <- igraph::graph_from_adjacency_matrix(mask, mode = "undirected")
  }
  list(mask = mask, source = source, graph = graph)
}

# The symmetric 0/1 matrix, named by `nm`, of the undirected edges `edges`
# (a two-column matrix of node indices): one d x d matrix allocated.
edges_to_mask <- function(edges, nm) {
  d <- length(nm)
  mask <- matrix(0, d, d, dimnames = list(nm, nm))
  mask[edges] <- 1
  mask[edges[, 2:1, drop = FALSE]] <- 1
  mask
}

moral_matrix_arg <- function(moral, nm, call) {
  d <- length(nm)
  if (is.data.frame(moral)) moral <- as.matrix(moral)
  named <- FALSE
  if (is.matrix(moral)) {
    if (!(is.numeric(moral) || is.logical(moral)) || anyNA(moral) ||
        !all(moral %in% c(0, 1))) {
      abort_arg("moral", "must be a 0/1 (or logical) adjacency matrix.", call = call)
    }
    if (nrow(moral) != d || ncol(moral) != d) {
      abort_arg("moral", "must be a {d} x {d} matrix (one row and column per variable), not {nrow(moral)} x {ncol(moral)}.",
                call = call)
    }
    named <- !is.null(rownames(moral)) || !is.null(colnames(moral))
  } else if (inherits(moral, "igraph")) {
    named <- !is.null(igraph::V(moral)$name)
  } else {
    abort_arg("moral", "must be {.val auto}, {.val iamb}, {.val precision}, {.val none}, a symmetric 0/1 matrix or an undirected igraph graph, not {.obj_type_friendly {moral}}.",
              call = call)
  }
  m <- graph_arg(moral, "moral", weighted = FALSE, call = call)
  if (nrow(m) != d) {
    abort_arg("moral", "has {nrow(m)} node{?s} but the data have {d} variable{?s}.", call = call)
  }
  if (named) {
    if (!setequal(rownames(m), nm)) {
      abort_arg("moral", "has node names that are not the variables' names ({.val {utils::head(setdiff(rownames(m), nm), 3)}} {?is/are} not a variable).",
                call = call)
    }
    m <- m[nm, nm, drop = FALSE]
  }
  if (any(m != t(m))) {
    abort_arg("moral", "must be symmetric (an undirected graph): a moral graph has no orientation.",
              call = call)
  }
  m
}
