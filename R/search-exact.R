# exact_search(): the global optimum of calm's score by dynamic programming
# over subsets (C++ in src/search_exact.cpp).

#' Exact structure search: the DAG with the best score
#'
#' Finds a DAG that minimises calm's decomposable l0-penalised Gaussian score
#' ([score_dag()]),
#' `sum_j [ 1/2 log(v_j) + edge_penalty |pa(j)| ]`, globally, among all DAGs whose
#' skeleton lies inside a moral graph, by dynamic programming over subsets of
#' the variables (Silander and Myllymäki, 2006). This is the optimum that
#' [calm()] approximates, so the function serves as a reference for small
#' problems.
#'
#' For every node `j` the candidate parents are its neighbours in the moral
#' graph. The search first scores every subset of each node's candidates and
#' turns these scores into best-parent-set tables (the best subset of every
#' candidate subset), then computes, for every subset `S` of the variables,
#' the best score of a DAG on `S` by choosing its last node (sink), and
#' finally reads an optimal order and each node's parents back from the
#' choices. Time and memory grow as `2^d` (plus `2^c` per node with `c`
#' candidates), with 9 bytes per table entry: `d = 20` needs about 10 MB for
#' the subsets of the variables and `d = 25` about 300 MB; without a moral
#' graph the parent tables add `d 2^(d - 1)` entries (about 100 MB and 2
#' seconds for `d = 20`, 3.8 GB and minutes for `d = 25`, most of it spent
#' scoring parent sets). The memory needed is computed before anything is
#' allocated; the search stops with an error when it exceeds `max_gb`. The
#' search can be interrupted (Ctrl-C).
#'
#' Markov-equivalent DAGs have the same score, so the optimum is a Markov
#' equivalence class; the returned DAG is one member (`fit$cpdag` is the
#' class). Ties between classes are broken deterministically.
#'
#' @inheritParams calm
#' @param edge_penalty Penalty per edge and per sample (default the paper's
#'   0.005); [bic_lambda()] gives the BIC. `NULL`: the penalty of
#'   `control` (as in [boss()]). Formerly `lambda1`, a name calm keeps for
#'   CALM's l0 weight in [calm_control()].
#' @param ... `lambda1`, the former name of `edge_penalty` (deprecated).
#' @param control The settings of the discrete search, [search_control()]
#'   (the object [calm()] and [boss()] take) or a list of its arguments;
#'   `NULL` (default): its defaults. The exact search reads its penalty
#'   settings (`penalty_discount`, `penalty_grid`, `penalty_folds` and the
#'   selection settings) when `edge_penalty = NULL`.
#' @param moral The moral graph that restricts the search. `"auto"`
#'   (default; `NULL` means the same): estimated as in [calm()], by IAMB for data or a covariance with finite
#'   `n`, as the support of the precision matrix for a population covariance
#'   (see [estimate_moral_graph()]). `"iamb"` or `"precision"` choose the
#'   estimator, `"none"` allows every edge (the unrestricted optimum). A
#'   symmetric 0/1 matrix or an undirected igraph graph is used as given.
#' @param knowledge Background knowledge ([background_knowledge()]): the
#'   optimum is taken over the DAGs with every required edge and no forbidden
#'   one (required adjacencies join the moral graph). `NULL`: none.
#' @param targets,target_index Intervention targets of the rows of `x`
#'   (see [intervention_targets()]): the optimum is then that of the
#'   interventional (GIES) score ([score_dag()], "Interventional data"),
#'   and the fit's CPDAG the interventional essential graph. `NULL`
#'   (default): observational data.
#' @param max_d Largest number of variables accepted (at most 25).
#' @param max_gb Memory limit in GB for the search's tables (default 4).
#' @return A `calm_fit` (see [calm()]) with `method = "exact"`, the optimal
#'   DAG in `amat`, its CPDAG, least-squares weights `B` and noise variances
#'   `omega`, and further `score` (the optimal score; equal to
#'   `score_dag(fit, cov = fit_covariance, edge_penalty = edge_penalty)`), `order` (an
#'   optimal topological order, node names), `moral` (the moral graph used,
#'   igraph) and `memory` (bytes the tables took).
#' @references Silander, T. and Myllymäki, P. (2006). A simple approach for
#'   finding the globally optimal Bayesian network structure. *UAI*.
#' @seealso [score_dag()], [calm()]
#' @examples
#' set.seed(1)
#' sem <- simulate_sem(6, k = 1)
#' fit <- exact_search(cov = sem$sigma, moral = moral_graph(sem$dag))
#' fit
#' fit$score
#' shd_cpdag(fit, sem$B)
#' @export
exact_search <- function(x, cov = NULL, n = NULL, edge_penalty = 0.005, moral = "auto",
                         standardize = TRUE, max_d = 25, max_gb = 4, knowledge = NULL,
                         targets = NULL, target_index = NULL, control = NULL, ...) {
  cl <- match.call()
  env <- environment()
  learner <- learner_record("exact_search", env)
  if (missing(x)) x <- NULL
  data_arg <- if (is.null(x)) "cov" else "x"
  check_flag(standardize, "standardize", call = env)
  sc <- search_settings_arg(control, call = env, arg = "control")
  rest <- take_old_names(list(...), c(lambda1 = "edge_penalty"), "exact_search", env)
  do.call(check_dots_empty, c(rest, list(fn = "exact_search", call = env)))
  if (!is.null(edge_penalty)) {
    edge_penalty <- check_number(edge_penalty, "edge_penalty", lower = 0, call = env)
  }
  max_d <- check_count(max_d, "max_d", min = 1, max = 25, call = env)
  max_gb <- check_number(max_gb, "max_gb", lower = 0, lower_open = TRUE, allow_inf = TRUE,
                         call = env)
  cv <- resolve_covariance(x, cov, n, standardize, call = env, small_n = TRUE)
  sigma <- set_node_names(cv$sigma)
  tg <- learner_targets(targets, target_index, colnames(sigma), cv$x, call = env)
  sigma <- with_targets(sigma, cv$x, tg, standardize)
  d <- ncol(sigma)
  if (d > max_d) {
    abort_arg(data_arg, "has {d} variables, more than {.arg max_d} = {max_d}; the exact search takes time and memory of order 2^d.",
              call = env)
  }
  kn <- resolve_knowledge(knowledge, colnames(sigma), call = env)
  mo <- resolve_moral(moral, sigma, cv$n, call = env, knowledge = kn)
  mask <- mo$mask
  storage.mode(mask) <- "double"
  if (!is.null(kn)) mask[kn$forbidden != 0] <- 0
  pen <- if (is.null(edge_penalty)) boss_penalty(NULL, sc, cv, mask, call = env)
  lambda <- edge_penalty %||% pen$lambda
  max_bytes <- if (is.finite(max_gb)) max_gb * 1024^3 else .Machine$double.xmax
  need <- cpp_exact_search_bytes(pmax(mask, t(mask)))  # an upper bound under knowledge
  if (need > max_bytes) {
    abort_arg("max_gb", "is {max_gb} but the search needs about {format_gb(need)} GB of memory for its tables; restrict it with a sparser {.arg moral} graph or raise {.arg max_gb}.",
              call = env)
  }

  t0 <- proc.time()[["elapsed"]]
  r <- if (is.null(kn)) {
    cpp_exact_search(sigma, mask, lambda, max_bytes, NULL, max_parents_for(cv$n))
  } else {
    cpp_exact_search(sigma, mask, lambda, max_bytes, kn$required, max_parents_for(cv$n))
  }
  elapsed <- proc.time()[["elapsed"]] - t0

  nm <- colnames(sigma)
  amat <- r$amat
  storage.mode(amat) <- "double"
  dimnames(amat) <- list(nm, nm)
  new_calm_fit(
    amat, sigma = sigma, n = cv$n, method = "exact",
    settings = list(edge_penalty = lambda, standardize = standardize, moral = mo$source,
                    max_d = max_d, max_gb = max_gb, control = sc),
    converged = TRUE, time = elapsed, call = cl,
    extra = c(if (!is.null(pen)) list(penalty = pen),
              list(score = r$score, order = nm[r$order], moral = mo$graph, memory = r$bytes,
                   knowledge = kn, learner = learner, targets = tg),
              data_summary(x, cov, standardize))
  )
}

format_gb <- function(bytes) format(signif(bytes / 1024^3, 3))
