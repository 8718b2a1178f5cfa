# boss(): best order score search (C++ in src/search_boss.cpp, src/search_order.cpp
# and src/search_grow_shrink.cpp), with its starts spread through future.

#' Best order score search (BOSS)
#'
#' Searches over orders of the variables for the DAG with the best value of
#' calm's decomposable score ([score_dag()]), the permutation search of
#' Andrews et al. (2023). For an order, each variable takes the best parent
#' set among the variables before it; one variable at a time is moved to the
#' position that most improves the total score, until no move helps. The
#' final graph is pruned by backward equivalence search (the Delete moves of
#' GES). The search is repeated from `starts` random orders and the best
#' scoring graph is kept.
#'
#' Best parent sets come from grow-shrink trees: for a variable, the greedy
#' additions of parents that improve its score are computed once and reused
#' by every query with a different set of predecessors. For a variable with
#' at most `exact_parents_max` candidate parents the best parent set is instead
#' exact, from a table over all subsets of its candidates. The trees and
#' tables are shared by the starts that run in one process.
#'
#' @section Score:
#' The score is `sum_j [ 1/2 log(v_j) + edge_penalty |pa(j)| ]` per sample, with
#' `v_j` the residual variance of variable `j` on its parents. By default
#' `edge_penalty = penalty_discount * log(n) / (2 n)` ([bic_lambda()]): the BIC
#' with a penalty discount, as in Tetrad's BOSS (default discount 2, used
#' here when there are more rows than variables) and in
#' pcalg's `GaussL0penObsScore` with `lambda = penalty_discount * log(n) / 2`.
#' causal-learn's BOSS takes `lambda_value`: the discount in its code before
#' its BIC scores were rewritten in March 2026, half the discount since (in
#' its current source `lambda_value = 1` gives the graphs and scores of
#' `penalty_discount = 2`, and its default 2 is discount 4). A population covariance
#' (`n = Inf`) has no BIC; `edge_penalty` then defaults to 0.001 (a larger
#' penalty stops the greedy parent choices early there).
#'
#' @section Defaults:
#' `boss()` runs BOSS as published unless `control` says otherwise; where
#' [search_control()] leaves a setting at its default, `boss()` uses its own
#' for three of them:
#' * `penalty_discount = "auto"`: 2, as Tetrad's BOSS, when there are more
#'   observations than variables, and the extended BIC ([ebic_lambda()])
#'   when `n <= d`, where discount 2 fits the noise (on 10 random graphs of
#'   60 variables and 40 rows: 82 edges on average for 60 true ones, and a
#'   mean SHD of 47 against 26 with the extended BIC). `"cv"`, the default
#'   of [calm()], chooses it from the data (see [select_penalty()]).
#' * `kicks = 0`: no iterated local search after the starts, BOSS as
#'   published; calm's refinement kicks 20 times.
#' * `grow_ratio = 1`: the plain grow-shrink of BOSS (the refinement's
#'   `"auto"` runs its starts twice, see [search_control()]).
#'
#' @section Starts and parallel runs:
#' The start orders are drawn with R's random number generator, so
#' `set.seed()` reproduces a run. When `future::plan()` provides more than
#' one worker, the starts are split between the workers with
#' [future.apply::future_lapply()]; the result is the same as a sequential
#' run, because the best graph is chosen by score, ties going to the earlier
#' start. Progress over the groups of starts is reported through progressr
#' (wrap the call in `progressr::with_progress()`). With
#' `penalty_discount = "cv"` the folds of the selection spread over the
#' workers too (see [select_penalty()]); the kicks run after the starts, in
#' the calling R process.
#'
#' @inheritParams exact_search
#' @param control The settings of the search and of its penalty: the
#'   result of [search_control()] (the object [calm()] and [exact_search()]
#'   take) or a list of its arguments by name. `boss()` reads
#'   `penalty_discount`, `penalty_grid`, `penalty_folds`, the selection
#'   settings, `order_starts`, `exact_parents_max`, `max_sweeps`, `grow_ratio`,
#'   `kicks` and `kick_size`. Three of them have other defaults here than in
#'   [calm()]'s refinement, used where the object does not set them (see
#'   "Defaults"). `NULL` (default): `search_control()` with those three.
#' @param edge_penalty Penalty per edge and per sample (formerly `lambda1`,
#'   still accepted with a deprecation warning). `NULL` (default): the
#'   BIC with `control`'s `penalty_discount` for finite `n`, 0.001 for a
#'   population covariance.
#' @param starts The number of random start orders (`NULL`, the default:
#'   `control`'s `order_starts`, 10), or a list of start orders, each a
#'   permutation of the variables (names or column positions).
#' @param ... Deprecated: the settings `boss()` took as arguments before
#'   `control` (`penalty_discount`, `penalty_grid`, `penalty_folds`,
#'   `exact_limit`, `max_sweeps`, `grow_ratio`, `kicks`, `kick_size`) are
#'   still accepted by name, with a deprecation warning, and set those
#'   fields of `control` (`exact_limit` sets `exact_parents_max`); so is
#'   `lambda1`, the former name of `edge_penalty`.
#' @param bes Prune each start's graph by backward equivalence search
#'   (default `TRUE`).
#' @param moral Restricts the search to the edges of a moral graph.
#'   `"none"` (default) allows every pair, as BOSS does; `"auto"` estimates
#'   it as [calm()] does. `"iamb"` or
#'   `"precision"` estimate it (see [estimate_moral_graph()]); a symmetric
#'   0/1 matrix or an undirected igraph graph is used as given.
#' @param knowledge Background knowledge from [background_knowledge()] (or a
#'   list of its arguments), as in [calm()]; `NULL` (default): none. A
#'   forbidden edge is never chosen as a parent, a required edge is in every
#'   graph the search visits (each order is rearranged so that a required
#'   parent comes before its child), and a variable never takes a parent
#'   from a later tier. The pruning by backward equivalence search makes
#'   only moves whose equivalence class keeps a member that obeys the
#'   knowledge; `amat` is such a member and the CPDAG is the maximally
#'   oriented one (see [background_knowledge()]).
#' @param targets,target_index Intervention targets of the rows of `x`
#'   (see [intervention_targets()]). The search then optimises the
#'   interventional (GIES) score ([score_dag()], "Interventional data"),
#'   which the order search uses as it is. The pruning by backward
#'   equivalence search moves between observational classes, which that
#'   score does not treat alike, so its graph is polished last: an order
#'   search inside its skeleton from its order and, up to 20 variables, the
#'   exact optimum inside it, keeping the best-scoring DAG. The fit's CPDAG
#'   is the interventional essential graph. `NULL` (default): observational
#'   data.
#' @return A `calm_fit` (see [calm()]) with `method = "boss"`: the DAG in
#'   `amat` (a member of the best class), its CPDAG, least-squares weights
#'   `B` and noise variances `omega`, and further `score` (the best score,
#'   equal to `score_dag(fit, cov = fit_covariance, edge_penalty = fit$settings$edge_penalty)`),
#'   `order` (the best start's final order), `starts` (a data frame with each
#'   start's score after the order search and after BES, its node moves and
#'   BES moves, and whether it gave the result), `kicks_improved` (the
#'   number of kicks that found a better graph) and `moral` (the moral graph
#'   used, igraph, or `NULL` with `moral = "none"`), and `knowledge` (the
#'   knowledge as two 0/1 matrices, or `NULL`).
#' @references Andrews, B., Ramsey, J., Sanchez-Romero, R., Camchong, J. and
#'   Kummerfeld, E. (2023). Fast scalable and accurate discovery of DAGs
#'   using the best order score search and grow-shrink trees. *NeurIPS*.
#' @seealso [calm()], whose default refinement uses the same moves;
#'   [exact_search()] for the exact optimum of small problems;
#'   [ges_pcalg()].
#' @examples
#' set.seed(1)
#' sem <- simulate_sem(15, k = 2, n = 1000)
#' fit <- boss(sem$x, starts = 4)
#' fit
#' compare_graphs(fit, sem$B)
#' fit$starts
#' # with background knowledge: X1 -> X2 required, X3 -> X1 forbidden
#' bk <- background_knowledge(required = c("X1", "X2"), forbidden = c("X3", "X1"))
#' fit_bk <- boss(sem$x, starts = 4, knowledge = bk)
#' fit_bk$amat[c("X1", "X3"), c("X2", "X1")]
#' @export
boss <- function(x, cov = NULL, n = NULL, control = NULL, edge_penalty = NULL, starts = NULL,
                 bes = TRUE, moral = "none", standardize = TRUE, knowledge = NULL,
                 targets = NULL, target_index = NULL, ...) {
  cl <- match.call()
  env <- environment()
  learner <- learner_record("boss", env)
  if (missing(x)) x <- NULL
  check_flag(standardize, "standardize", call = env)
  check_flag(bes, "bes", call = env)
  dots <- take_old_names(list(...), c(lambda1 = "edge_penalty"), "boss", env)
  sc <- boss_settings(control, dots, call = env)
  exact_parents_max <- sc$exact_parents_max
  max_sweeps <- sc$max_sweeps
  grow_ratio <- sc$grow_ratio
  kicks <- sc$kicks
  kick_size <- sc$kick_size
  cv <- resolve_covariance(x, cov, n, standardize, call = env, small_n = TRUE)
  sigma <- set_node_names(cv$sigma)
  tg <- learner_targets(targets, target_index, colnames(sigma), cv$x, call = env)
  sigma <- with_targets(sigma, cv$x, tg, standardize)
  # penalty_discount = "cv" keeps each condition's share in every fold
  if (!is.null(tg)) attr(cv$x, "calm_strata") <- tg$index
  if (!is.null(tg)) attr(cv$x, "calm_targets") <- tg
  nm <- colnames(sigma)
  d <- ncol(sigma)
  orders <- start_orders(starts %||% sc$order_starts, nm, call = env)
  kn <- resolve_knowledge(knowledge, nm, call = env)
  mo <- if (identical(moral, "none")) NULL else resolve_moral(moral, sigma, cv$n, call = env,
                                                             knowledge = kn)
  mask <- if (is.null(mo)) matrix(1, d, d) - diag(d) else mo$mask
  storage.mode(mask) <- "double"
  pen <- boss_penalty(edge_penalty, sc, cv, mask, call = env)
  lambda <- pen$lambda

  t0 <- proc.time()[["elapsed"]]
  mp <- max_parents_for(cv$n)
  r <- boss_run(sigma, mask, lambda, orders, max_sweeps, exact_parents_max, bes, grow_ratio,
                kn = kn, max_parents = mp)
  # kicks from the best start's order; the starts' record stays the one above
  r <- kick_search(r, sigma, mask, lambda, max_sweeps, exact_parents_max, bes, grow_ratio,
                   kicks, kick_size, c(1, 0.5), kn = kn, max_parents = mp)
  if (!is.null(tg)) {
    r[c("dag", "score")] <- polish_interventional(r$dag, sigma, lambda, cv$n, kn, exact_parents_max)
  }
  elapsed <- proc.time()[["elapsed"]] - t0

  amat <- r$dag
  dimnames(amat) <- list(nm, nm)
  starts_df <- r$starts
  starts_df$best <- seq_len(nrow(starts_df)) == r$best_start
  new_calm_fit(
    amat, sigma = sigma, n = cv$n, method = "boss",
    settings = list(edge_penalty = lambda, penalty_discount = pen$discount,
                    starts = ncol(orders), bes = bes, moral = if (is.null(mo)) "none" else mo$source,
                    standardize = standardize, exact_parents_max = exact_parents_max,
                    max_sweeps = max_sweeps,
                    grow_ratio = grow_ratio, kicks = kicks, kick_size = kick_size,
                    control = sc),
    converged = TRUE, time = elapsed, call = cl,
    extra = c(list(penalty = pen, score = r$score, order = nm[r$order], starts = starts_df,
                 kicks_improved = r$kicks_improved,
                 moral = if (is.null(mo)) NULL else mo$graph, knowledge = kn,
                 learner = learner, targets = tg), data_summary(x, cov, standardize))
  )
}

# The start orders as an integer matrix, one order per column.
start_orders <- function(starts, nm, call) {
  d <- length(nm)
  if (is.numeric(starts) && length(starts) == 1L) {
    k <- check_count(starts, "starts", min = 1, max = 1e5, call = call)
    return(vapply(seq_len(k), function(i) sample.int(d), integer(d)))
  }
  if (!is.list(starts) || length(starts) == 0L) {
    abort_arg("starts", "must be a number of random starts or a non-empty list of orders.",
              call = call)
  }
  out <- vapply(seq_along(starts), function(i) {
    o <- starts[[i]]
    if (is.character(o)) o <- match(o, nm)
    if (!is.numeric(o) || length(o) != d || anyNA(o) || !setequal(o, seq_len(d)) ||
        any(o != round(o))) {
      abort_arg("starts", "element {i} is not an order of the {d} variables (names or positions 1 to {d}, each once).",
                call = call)
    }
    as.integer(o)
  }, integer(d))
  matrix(out, nrow = d)
}

# Runs the starts in one C++ call, or split between the workers of the
# current future plan (see start_groups()); the best result over all starts
# is returned with every start's record (`starts`, `orders` and, with
# `keep_graphs`, `start_cpdags`, in the order of the starts). The best start
# is the one a single call over all starts picks (best_start_of()), so the
# result does not depend on the plan (nor on `groups`, consecutive runs of
# start indices, which tests set). `progress`: report the groups through
# progressr (boss()); the refinement's runs report nothing. `threads`: of
# the one call (boss_search()); 1 where the plan's workers share the starts.
boss_run <- function(sigma, mask, lambda, orders, max_sweeps, exact_parents_max, bes, grow_ratio,
                     kn = NULL, max_parents = -1L, keep_graphs = FALSE, progress = TRUE,
                     groups = start_groups(ncol(orders)), with_dag = TRUE, threads = 1L) {
  p <- if (progress) progressr::progressor(steps = length(groups)) else NULL
  if (length(groups) > 1L) threads <- 1L
  search <- function(idx) {
    boss_search(sigma, mask, lambda, orders[, idx, drop = FALSE], max_sweeps, exact_parents_max,
                bes, grow_ratio, kn = kn, max_parents = max_parents, keep_graphs = keep_graphs,
                with_dag = with_dag, threads = threads)
  }
  runs <- if (length(groups) == 1L) {
    # one worker: the one call, without a future around it
    r <- search(groups[[1L]])
    if (!is.null(p)) p()
    list(r)
  } else {
    future.apply::future_lapply(groups, function(idx) {
      r <- search(idx)
      if (!is.null(p)) p()
      r
    }, future.seed = FALSE, future.packages = "calm")
  }
  if (length(runs) == 1L) return(runs[[1L]])
  starts <- do.call(rbind, lapply(runs, `[[`, "starts"))
  rownames(starts) <- NULL
  b <- best_start_of(starts$score)
  g <- findInterval(b, vapply(groups, `[[`, integer(1), 1L))
  best <- runs[[g]]
  if (groups[[g]][best$best_start] != b) {
    # the group's own choice differs only when scores within score_tol of
    # each other chain across groups; the chosen start alone gives its graph
    best[c("dag", "cpdag", "score", "order")] <- search(b)[c("dag", "cpdag", "score", "order")]
  }
  best$best_start <- b
  best$starts <- starts
  best$orders <- do.call(cbind, lapply(runs, `[[`, "orders"))
  best$start_cpdags <- do.call(c, lapply(runs, `[[`, "start_cpdags"))
  best$cache_clears <- sum(vapply(runs, `[[`, integer(1), "cache_clears"))
  best
}

# The groups of start indices (consecutive, in order) that boss_run() sends
# to the workers of the current future plan: one group per worker, or all
# starts in one group with one worker, where one C++ call shares its caches
# between all the starts. A plan with no fixed number of workers (Inf, as
# on a scheduler) gets one start per group.
start_groups <- function(k) {
  workers <- future::nbrOfWorkers()
  if (workers <= 1 || k <= 1L) return(list(seq_len(k)))
  unname(split(seq_len(k), cut(seq_len(k), min(k, workers), labels = FALSE)))
}

# The start a single boss_search() call over the starts with final scores
# `scores` chooses (src/search_boss.cpp): a later start replaces the best so far
# only when it scores better by more than score_tol.
best_start_of <- function(scores) {
  best <- 1L
  for (k in seq_along(scores)[-1L]) if (scores[k] < scores[best] - score_tol) best <- k
  best
}

# Iterated local search after the starts: `kicks` kicks of `kick_size`
# variables from the order of `best` (a cpp_boss() result), the search
# alternating the grow ratios in `ratios` after the first at `grow_ratio`.
# The kicked search's graph, score and order replace those of `best` when
# they score better; `kicks_improved` counts the kicks that found a better
# graph (0 when `best` is kept). `max_parents`: see max_parents_for().
# `local`: repair each kicked order from the moved variables only
# (boss_search()'s `kick_local`). `threads`: see boss_search().
kick_search <- function(best, sigma, mask, lambda, max_sweeps, exact_parents_max, bes, grow_ratio,
                        kicks, kick_size, ratios, kn = NULL,
                        max_parents = -1L, with_dag = TRUE, local = FALSE, threads = 1L) {
  best$kicks_improved <- 0L
  if (kicks <= 0) return(best)
  d <- ncol(sigma)
  kk <- boss_search(sigma, mask, lambda, matrix(best$order, nrow = d), max_sweeps,
                    exact_parents_max, bes, grow_ratio, draw_kicks(d, kicks, kick_size), ratios,
                    kn = kn, max_parents = max_parents, with_dag = with_dag, kick_local = local,
                    threads = threads)
  if (kk$score < best$score - score_tol) {
    best[c("dag", "cpdag", "score", "order")] <- kk[c("dag", "cpdag", "score", "order")]
    best$kicks_improved <- kk$kicks_improved
  }
  best
}

# boss()'s penalty, through resolve_penalty(): `edge_penalty` when given, 0.001
# for a population covariance, else the discount of `sc` (a search_control()
# object; boss()'s default "auto" is 2, Tetrad's BOSS, with more rows than
# variables, and the extended BIC with n <= d, where discount 2 fits the
# noise: on 10 ER1 graphs at d = 60, n = 40, mean SHD 47.2 against 26.3, and
# the same fits with n = 200).
boss_penalty <- function(edge_penalty, sc, cv, mask, call) {
  fixed <- if (!is.null(edge_penalty)) {
    penalty_record("lambda", NA_real_,
                   check_number(edge_penalty, "edge_penalty", lower = 0, call = call))
  }
  resolve_penalty(sc$penalty_discount, cv$n, ncol(cv$sigma), cv$x, mask, fixed = fixed,
                  population = penalty_record("lambda", NA_real_, 0.001), sc = sc, call = call)
}

# The settings boss() took as arguments before `control` (deprecated): old
# argument = search_control() field.
boss_old_settings <- c(penalty_discount = "penalty_discount", penalty_grid = "penalty_grid",
                       penalty_folds = "penalty_folds", exact_limit = "exact_parents_max",
                       max_sweeps = "max_sweeps", grow_ratio = "grow_ratio", kicks = "kicks",
                       kick_size = "kick_size")

# boss()'s own defaults where they differ from search_control()'s, for the
# reasons in ?boss ("Defaults"); they apply to the fields the user did not set.
boss_own_defaults <- list(penalty_discount = "auto", kicks = 0L, grow_ratio = 1)

# The settings of boss(): `control` (NULL, a search_control() object or a
# list of its arguments) updated by the old arguments in `dots` (deprecated),
# with boss()'s own defaults on the fields neither set.
boss_settings <- function(control, dots, call) {
  sc <- search_settings_arg(control, call = call, arg = "control")
  given <- attr(sc, "given")
  if (length(dots) > 0L) {
    nm <- names(dots) %||% rep("", length(dots))
    unknown <- setdiff(nm, names(boss_old_settings))
    unknown[unknown == ""] <- "<unnamed>"
    if (length(unknown) > 0L) {
      cli::cli_abort("Unknown argument{?s} of {.fn boss}: {.arg {unknown}}.",
                     class = c("calm_error_argument", "calm_error"), call = call)
    }
    dots <- undeprecate_args(dots, as.list(boss_old_settings), "search_control", "boss",
                             call = call)
    args <- unclass(sc)[given]
    args[names(dots)] <- dots
    sc <- do.call(search_control, args)
    given <- attr(sc, "given")
  }
  own <- boss_own_defaults[setdiff(names(boss_own_defaults), given)]
  sc[names(own)] <- own
  if (!is.numeric(sc$grow_ratio)) {
    abort_arg("control", "must give {.fn boss} a number for {.arg grow_ratio}, not {.val {sc$grow_ratio}}.",
              call = call)
  }
  sc
}
