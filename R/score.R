# The decomposable l0-penalised Gaussian score shared by the discrete searches
# (refinement, exact search) and reported by fits: C++ in src/search_score.cpp.

#' Score a DAG with calm's decomposable l0-penalised Gaussian score
#'
#' For a DAG `G` the score is, per sample,
#' `sum_j [ 1/2 log(v_j) + edge_penalty |pa_G(j)| ]`, where `v_j` is the residual
#' variance of variable `j` regressed on its parents (from the covariance).
#' This is CALM's objective evaluated at the least-squares weights of `G` (the
#' log-determinant term of the profiled likelihood is zero for a DAG), so it is
#' what [calm()], the refinement and [exact_search()] minimise. Lower is better.
#' Markov-equivalent DAGs have the same score, so a CPDAG can be scored too (any
#' DAG in its class is used).
#'
#' `edge_penalty = bic_lambda(n)` gives the BIC (the score of pcalg's
#' `GaussL0penObsScore` at its default penalty, divided by `-n`, up to a
#' constant); `bic_lambda(n, k)` gives BIC with penalty discount `k`, i.e.
#' `k log(n) / (2 n)`.
#'
#' @section Fewer observations than variables:
#' The score needs each variable's regression on its own parents only, not
#' the inverse of the whole covariance, so data with `n <= d` (and a
#' singular covariance given with its `n`) are accepted. For a sample of
#' size `n` a parent set is *admissible* when it has at most `n - 2` members
#' (one residual degree of freedom is left after the intercept and the
#' slopes) and its residual variance is at least `1e-12` times the
#' variable's variance (the regression is not exact on the sample, as it is
#' for collinear or duplicated parents). An inadmissible parent set scores
#' `Inf`, so the searches of [calm()], [boss()] and [exact_search()] never
#' choose one; `score_dag()` returns `Inf` for a DAG that has one. With
#' `n > d` and a positive definite covariance neither bound binds. A
#' population covariance (`n = Inf`) must be positive definite. Data that
#' no regression can use are refused with an error naming the variables: a
#' constant column, two perfectly correlated columns.
#'
#' @section Interventional data:
#' With `targets` (see [intervention_targets()]) the score is Hauser and
#' Buehlmann's (2012) GIES score: variable `j` is regressed on its parents
#' using only the `n_j` rows where it was not intervened on (with an
#' intercept, over those rows pooled), and its term is
#' `(n_j / n) 1/2 log(v_j) + edge_penalty |pa(j)|`. Times `-n` this is pcalg's
#' `GaussL0penIntScore` with `lambda = n * edge_penalty`, up to a constant. It
#' tells apart DAGs of one Markov equivalence class whose edges at a
#' target point different ways; interventionally equivalent DAGs
#' ([dag_to_cpdag()] with `targets`) score the same. A CPDAG is scored by
#' an arbitrary member, so give a DAG.
#'
#' @param graph A DAG or a CPDAG: a 0/1 adjacency matrix (`[i, j]` for
#'   `i -> j`; a mutual pair is an undirected edge), an igraph graph or a fit
#'   (its DAG, which scores as every member of its class).
#' @inheritParams calm
#' @param edge_penalty Penalty per edge and per sample (default the paper's
#'   0.005; formerly `lambda1`, a name calm keeps for CALM's l0 weight in
#'   [calm_control()]).
#' @param ... `lambda1`, the former name of `edge_penalty` (deprecated).
#' @param targets,target_index Intervention targets of the rows of `x`
#'   (see [intervention_targets()]); `NULL` (default): observational data.
#' @return The score, a number, with attribute `local`: the score of each node
#'   (`Inf` for a node whose parent set is inadmissible, see below).
#' @seealso [bic_lambda()], [exact_search()]
#' @examples
#' set.seed(1)
#' sem <- simulate_sem(8, k = 1, n = 500)
#' score_dag(sem$B, sem$x)
#' score_dag(matrix(0, 8, 8), sem$x)   # the empty graph scores worse
#' # the first 100 rows with X1 set from outside
#' idx <- rep(1:2, c(400, 100))
#' score_dag(sem$B, sem$x, targets = list(integer(0), 1L), target_index = idx)
#' @export
score_dag <- function(graph, x, cov = NULL, n = NULL, edge_penalty = 0.005, standardize = TRUE,
                      targets = NULL, target_index = NULL, ...) {
  env <- environment()
  rest <- take_old_names(list(...), c(lambda1 = "edge_penalty"), "score_dag", env)
  do.call(check_dots_empty, c(rest, list(fn = "score_dag", call = env)))
  if (missing(x)) x <- NULL
  check_flag(standardize, "standardize", call = env)
  check_number(edge_penalty, "edge_penalty", lower = 0, call = env)
  cv <- resolve_covariance(x, cov, n, standardize, call = env, small_n = TRUE)
  sigma <- set_node_names(cv$sigma)
  tg <- learner_targets(targets, target_index, colnames(sigma), cv$x, call = env)
  sigma <- with_targets(sigma, cv$x, tg, standardize)
  g <- graph_arg(graph, "graph", call = env)
  g <- check_same_nodes(sigma, g, "data", "graph", call = env)
  dag <- cpdag_to_dag_arg(g, "graph", call = env)
  r <- cpp_dag_local_scores(sigma, dag, edge_penalty, max_parents_for(cv$n))
  structure(r$total, local = stats::setNames(r$local, colnames(sigma)))
}

#' BIC penalty per sample
#'
#' The per-sample penalty per edge that makes calm's l0 score the Bayesian
#' information criterion with penalty discount `discount`:
#' `discount * log(n) / (2 * n)`. pcalg's `GaussL0penObsScore` calls
#' `n` times this its `lambda` (default `log(n) / 2`).
#'
#' @param n Sample size (finite, at least 2).
#' @param discount Penalty discount `k` (1 is the BIC; larger values give
#'   sparser graphs).
#' @return A number.
#' @examples
#' bic_lambda(1000)      # 0.00345
#' bic_lambda(1000, 2)
#' @export
bic_lambda <- function(n, discount = 1) {
  env <- environment()
  check_number(n, "n", lower = 2, call = env)
  check_number(discount, "discount", lower = 0, call = env)
  discount * log(n) / (2 * n)
}

#' Extended BIC penalty per sample
#'
#' The per-sample penalty per edge of the extended BIC (EBIC; Chen and Chen,
#' 2008; Foygel and Drton, 2010) for a DAG on `d` variables: the BIC's
#' `discount * log(n) / (2 n)` plus `gamma * log(d * (d - 1)) / n`, which
#' charges each edge for the `d * (d - 1)` directed edges it was chosen from.
#' With many variables and few samples the BIC alone lets spurious edges in:
#' the number of candidate edges grows like `d^2` while the penalty does not
#' grow with `d`. The refinement of [calm()] optimises it with
#' `search_control(penalty = "ebic")`, and by default when it is given a
#' covariance matrix with finite `n` (no data to choose a penalty from).
#'
#' In terms of a penalty discount (the `penalty_discount` of [boss()] or
#' pcalg's GES), the EBIC is the BIC with discount
#' `discount + 2 * gamma * log(d * (d - 1)) / log(n)`, returned as the
#' attribute `"discount"`.
#'
#' @inheritParams bic_lambda
#' @param d Number of variables (at least 2).
#' @param gamma Weight of the extended term (default 0.75; 0 gives the
#'   BIC).
#' @param discount Penalty discount of the BIC part.
#' @return A number, with attribute `"discount"` (see Details).
#' @references Chen, J. and Chen, Z. (2008). Extended Bayesian information
#'   criteria for model selection with large model spaces. *Biometrika* 95,
#'   759-771.
#'
#'   Foygel, R. and Drton, M. (2010). Extended Bayesian information criteria
#'   for Gaussian graphical models. *NeurIPS 23*.
#' @examples
#' ebic_lambda(1000, d = 50)
#' # as a penalty discount for boss() or GES
#' attr(ebic_lambda(1000, d = 200), "discount")
#' @export
ebic_lambda <- function(n, d, gamma = 0.75, discount = 1) {
  env <- environment()
  check_number(n, "n", lower = 2, call = env)
  check_number(d, "d", lower = 2, call = env)
  check_number(gamma, "gamma", lower = 0, call = env)
  check_number(discount, "discount", lower = 0, call = env)
  extra <- gamma * log(d * (d - 1))
  structure(bic_lambda(n, discount) + extra / n, discount = discount + 2 * extra / log(n))
}

# The largest parent set the score admits for a covariance of n
# observations (src/search_score.h): n - 2, or -1 (no limit, and no floor on
# the residual variance) for a population covariance.
max_parents_for <- function(n) {
  if (!is.finite(n)) return(-1L)
  as.integer(min(floor(n) - 2, .Machine$integer.max))
}

# A DAG from a graph argument that holds a DAG or a CPDAG (mutual pairs are
# undirected edges): the CPDAG's consistent extension.
cpdag_to_dag_arg <- function(g, arg, call) {
  if (all(g == 0 | t(g) == 0)) {
    if (!cpp_is_dag(g)) abort_arg(arg, "has a directed cycle.", call = call)
    return(g)
  }
  dag <- cpp_pdag_extension(g)
  if (is.null(dag)) {
    abort_arg(arg, "is not a DAG and has no consistent extension to one (not a CPDAG).", call = call)
  }
  dimnames(dag) <- dimnames(g)
  dag
}
