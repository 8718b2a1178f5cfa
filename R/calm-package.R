# Package documentation. Not "_PACKAGE": that would also give this page the
# alias `calm`, which belongs to the function calm() (R CMD check warns about
# a duplicated alias).

#' calm: differentiable causal structure learning with an l0 penalty
#'
#' The package learns directed acyclic graphs (DAGs) and their Markov
#' equivalence classes (CPDAGs) from observational data under a linear
#' Gaussian structural equation model with non-equal noise variances.
#'
#' Conventions used by every function:
#' * Adjacency matrices are oriented so that `B[i, j] != 0` means the edge
#'   `i -> j` (column `j` is the child). pcalg's `amat` is the transpose;
#'   [as_pcalg_amat()] and [as_amat()] convert.
#' * A CPDAG is a 0/1 matrix `C` where `C[i, j] = 1, C[j, i] = 0` is
#'   `i -> j` and `C[i, j] = C[j, i] = 1` is the undirected edge `i - j`;
#'   as igraph it is a directed graph in which an undirected edge is a pair
#'   of mutual edges with edge attribute `undirected = TRUE`.
#' * Randomness comes from R's random number generator: set [set.seed()]
#'   before a call to reproduce it.
#'
#' @keywords internal
#' @docType package
#' @name calm-package
#' @aliases calm-package
#' @useDynLib calm, .registration = TRUE
#' @importFrom Rcpp sourceCpp
#' @importFrom igraph vcount
NULL
# igraph is imported (not only called with igraph::) so that loading calm
# loads igraph's namespace and with it its print method: the graphs calm
# returns and ships (sachs_consensus, fit$dag, dag_to_cpdag()) then print
# as graphs without igraph attached, not as igraph's internal list.
