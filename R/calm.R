# calm(): checks, moral graph, restarts through future, the C++ optimizer
# (src/calm_optimizer.cpp), thresholding, acyclic repair and the fit object.

#' Learn a DAG with CALM
#'
#' @description
#' Learns a causal DAG and its CPDAG from data (or a covariance matrix).
#' Start here:
#' * Install from a copy of the source:
#'   `install.packages("path/to/calm", repos = NULL, type = "source")`.
#' * The one call: `fit <- calm(x)` with `x` a data frame or numeric matrix,
#'   one column per variable; then `fit`, `as.data.frame(fit)`, `plot(fit)`.
#' * Which function when: `calm(x)` (the default: CALM, then a refinement on
#'   the same score; also on networks with many weak effects, vignette *calm
#'   on networks that look like real ones*); [boss()] for a fast search of
#'   many variables or a baseline, and `boss(x, penalty_discount = "cv")` for
#'   a fast search with the penalty chosen from the data; `calm(x, refine =
#'   "none")` for the paper's method as
#'   published; [exact_search()] for the exact optimum of small problems;
#'   `knowledge =` ([background_knowledge()]) in any of them for known edges
#'   or tiers; [bootstrap_edges()] for edge stability.
#' * The evidence (accuracy, time, choice of defaults) is in the vignettes,
#'   `browseVignettes("calm")` (*Getting started* first), and in the scripts
#'   under `system.file("bench", package = "calm")`.
#'
#' @details
#' Fits CALM (Continuous and Acyclicity-constrained L0-penalised likelihood
#' with estimated Moral graph; Jin, Ng, Zhang and Huang, 2025): a linear
#' Gaussian structural equation model with non-equal noise variances whose
#' graph is searched inside a moral graph, with an l0 penalty approximated by
#' stochastic gates and acyclicity enforced by a quadratic-penalty schedule.
#'
#' The model. With the default `gate = "gumbel"` the weighted adjacency
#' matrix is `B = M * A * P`: `M` the moral graph (0/1, zero diagonal), `P`
#' free weights and `A = sigmoid((U + G) / tau)` Gumbel-sigmoid gates with
#' logits `U` and fresh logistic noise `G` at every step. Adam minimises
#' `L(B; Sigma) + lambda1 * sum(A) + rho / 2 * h(A)^2`, where `L` is the
#' profiled Gaussian likelihood
#' `1/2 sum_j log(((I - B)^T Sigma (I - B))_jj) - log|det(I - B)|` and
#' `h(A) = tr((I + A / d)^d) - d` is zero exactly for acyclic `A`. `rho`
#' grows round by round until `h` at the deterministic gate
#' `M * sigmoid(U / tau)` is below `h_tol`, or the learned graph has settled;
#' [calm_control()] describes the schedule and its early stopping.
#'
#' The graph. The output has the edges whose deterministic gate exceeds
#' `threshold` (0.5). If it still has a directed cycle (the round cap was
#' hit, or with `constraint = "soft"`), the edges with the smallest weights
#' `|A * P|` on cycles are removed until it is acyclic, with a warning; they
#' are kept in `fit$removed`.
#'
#' Refinement (`refine = "ges"`, the default). For a DAG, CALM's objective at
#' the least-squares weights is a decomposable score ([score_dag()]) that
#' gives Markov-equivalent DAGs the same value. Starting from CALM's CPDAG,
#' the refinement applies the Delete and Turn moves of greedy equivalence
#' search (Chickering, 2002; Hauser and Buehlmann, 2012), also starts greedy
#' equivalence search from the empty graph, runs best order score search
#' ([boss()]) from CALM's order, the refined graph's order and random orders,
#' and up to 20 variables takes the exact optimum ([exact_search()]); it
#' keeps whichever graph scores best. For data with more rows than variables
#' (at most 150 of them, `refine_control(risk_max_d)`) a last step then runs
#' the order search from 40 more random orders and returns, among their local
#' optima and the best graph, the one with the smallest expected SHD to the
#' others, each weighted by how well it scores: where several graphs score
#' within a few units of log-likelihood of the best (weak effects), this graph
#' is closer to the truth than the best-scoring one; where one graph scores
#' clearly best, it is returned (`refine_control(risk_starts,
#' risk_temperature, risk_max_d)`). For data the score is the BIC with a
#' penalty discount chosen from the data (`penalty_discount = "cv"`,
#' [select_penalty()]; the extended BIC with `n <= d` or above
#' `refine_control(order_all_pairs)` variables); a covariance with finite `n` uses the extended BIC
#' ([ebic_lambda()]) and a population covariance `lambda1`. Its settings
#' are in [refine_control()] (the `refine_*` names of [calm_control()] still
#' work). Background knowledge constrains every stage. What it did is in `fit$refine`:
#' the graphs before (`dag_before`, `cpdag_before`), the scores before and
#' after (`score_before`, `score_after`) and the best score found
#' (`score_best`; above `score_after` only when the last step chose another
#' graph), the penalty (`lambda`), the moves made
#' (`moves`) and the pairs the search could use (`mask`); the penalty used is
#' in `fit$penalty`.
#'
#' Components. No directed cycle can cross two connected components of the
#' moral graph (read with the background knowledge), and the objective is a
#' sum over them. By default (`calm_control(split_components = TRUE)`) each
#' component of two or more variables is fitted on its own, with its own `d`
#' in `h`, its own schedule and its own seed,
#' `(seed + 1000003 * j) mod (2^31 - 1)` with `j` the component's smallest
#' variable index; a variable alone in its component gets no parents. The
#' components run through [future.apply::future_lapply()], largest first,
#' so `future::plan()` decides where. The pieces are put back together:
#' `trace` has a `component` column, `h` is the sum of the components' `h`,
#' `converged` holds when every component converged, and `fit$components`
#' has one row per fitted component. A connected moral graph gives the same
#' fit as `split_components = FALSE`, bit for bit.
#'
#' Memory. Before it allocates anything large, and again once the moral
#' graph is known, `calm()` estimates the memory the fit needs; when that
#' exceeds `MemAvailable` in `/proc/meminfo`, or `options(calm.max_bytes = )`
#' (bytes) when set, it stops with an error of class `calm_error_memory`
#' that names the number of variables and the bytes needed. As a guide, a
#' 1000-variable fit with an IAMB moral graph needs some 0.6 GB for the whole
#' R process; without a moral graph (`moral = "none"`) about 0.55 GB more.
#' With a parallel `future::plan()`, each worker needs its share besides its
#' own R process. The order searches of the refinement and of [boss()] keep
#' their caches (grow-shrink trees and local scores) under 1 GB: beyond that
#' they are emptied and rebuilt, which costs time on dense graphs and never
#' changes the result.
#'
#' Weights. `fit$B` is the least-squares refit of every node on its parents
#' in the learned graph (the maximum-likelihood estimate for that graph;
#' `fit$omega` holds the residual variances); `fit$B_raw` holds the
#' optimizer's own weights `A * P` on the same support (`P` for
#' `gate = "tanh"`).
#'
#' Variants (the paper's ablations). `gate = "stg"` uses stochastic gates
#' `clamp(mu + eps, 0, 1)`, `eps ~ N(0, stg_sigma^2)`, with penalty
#' `sum(pnorm(mu / stg_sigma))`; `gate = "tanh"` has no gate (`B = M * P`),
#' penalty `sum(tanh(tanh_c * |B|))`, acyclicity on `B * B` and edges
#' `|B| > weight_threshold`. `constraint = "soft"` replaces the schedule by
#' one run of `soft_iter` steps on `L + lambda1 * penalty + lambda2 * h(A)`.
#' `score = "colide"` replaces `L` by the CoLiDE-NV score with the noise
#' profiled out, `sum_j sqrt(((I - B)^T Sigma (I - B))_jj)`.
#'
#' @param x Data: a numeric matrix or data frame, one column per variable
#'   (column names become node names). Leave missing when `cov` is given.
#'   Fewer rows than columns are fine: the searches keep to parent sets the
#'   sample can fit (see "Fewer observations than variables" in
#'   [score_dag()]).
#' @param cov A covariance matrix instead of data. Without `n` it is taken as
#'   the population covariance (the paper's infinite-sample setting) and
#'   must be positive definite; with `n <= d` it may be singular.
#' @param n Sample size behind `cov` (default `Inf`).
#' @param standardize If `TRUE` (default) the correlation matrix is used, as
#'   in the paper's main experiments; weights and noise variances are then on
#'   the standardised scale.
#' @param moral The moral graph `M` that restricts the search. `NULL`
#'   (default): estimated, by IAMB (`"iamb"`) for data or a covariance with
#'   finite `n`, as the support of the precision matrix (`"precision"`) for a
#'   population covariance; see `estimate_moral_graph()`. `"iamb"` or
#'   `"precision"` choose the estimator, `"none"` allows every edge. A
#'   symmetric 0/1 matrix or an undirected igraph graph is used as given
#'   (matched to the variables by node name when it has names).
#' @param gate `"gumbel"` (default), `"stg"` or `"tanh"`: see Details.
#' @param constraint `"hard"` (default, quadratic-penalty schedule) or
#'   `"soft"`.
#' @param score `"likelihood"` (default) or `"colide"`.
#' @param refine `"ges"` (default): after the continuous optimization, refine
#'   the learned equivalence class on the decomposable score (see
#'   [score_dag()]) with the penalty of `calm_control(penalty_discount)`
#'   (by default chosen from the data, see [select_penalty()]): moves of
#'   greedy equivalence search, an order search (BOSS) and, up to 20
#'   variables, the exact optimum (see Details).
#'   A [refine_control()] object: the same, with those settings.
#'   `"none"`: the paper's CALM, unchanged.
#' @param control Hyperparameters: the result of [calm_control()] (default), or a list
#'   of its arguments.
#' @param restarts Number of independently seeded fits (default 1); the one
#'   with the smallest final objective is returned. Restarts run through
#'   [future.apply::future_lapply()]; results do not depend on the plan.
#' @param verbose Show progress (default `interactive()`): a bar per round
#'   for one restart, over the components when the fit is split, over the
#'   restarts otherwise (through progressr, with the user's handlers).
#' @param ... Control parameters overriding those in `control`, e.g.
#'   `calm(x, iter_per_round = 5000)`. bnlearn's `whitelist` and `blacklist`
#'   are accepted here too and read as
#'   `knowledge = background_knowledge(required = whitelist, forbidden =
#'   blacklist)`.
#' @param alpha Significance level of IAMB's Fisher-z tests (default 0.01)
#'   when the moral graph is estimated with IAMB ([estimate_moral_graph()]).
#' @param knowledge Background knowledge: required and forbidden directed
#'   edges and tiers, from [background_knowledge()] (or a list of its
#'   arguments). A forbidden entry is never free; a required one is always
#'   in the graph and outside the sparsity penalty; every step of the
#'   refinement (GES moves, BOSS, the exact search) obeys both, and tiers.
#'   `NULL` (default): none.
#' @param na What to do with missing values in `x`: `"fail"` (default) stops
#'   with an error; `"complete"` (or `"omit"`, as in [stats::na.omit()])
#'   uses the complete rows only and says how many rows were dropped (the
#'   number is kept in `fit$na_dropped`).
#' @param seed Integer seeds of the restarts' continuous phase, one per
#'   restart, each between 0 and `.Machine$integer.max`. `NULL` (default)
#'   draws them from R's random numbers, so that [set.seed()] reproduces a
#'   fit; `fit$seed` or `fit$restarts$seed` reproduces a restart. The order
#'   search's random starts always come from R's random numbers.
#' @return An object of class `calm_fit`: a list with the learned DAG
#'   (`amat`, 0/1; `dag`, igraph with weights), its CPDAG (`cpdag`,
#'   `cpdag_amat`), weights `B` (least-squares refit) and `B_raw` (`A * P`),
#'   noise variances `omega`, the per-round `trace` (`component`, the fitted
#'   component the row belongs to, 1 when the fit was not split; round, rho, h at the
#'   deterministic gate, objective, number of edges, whether the edge set is
#'   acyclic (`dag`) and differs from the previous round's (`changed`), Adam
#'   steps run in the round, steps skipped in it because the objective was
#'   not finite (`skipped`), elapsed seconds),
#'   `removed` (edges dropped to make the graph acyclic), `converged`,
#'   `stop` (why the schedule ended: `"h_tol"`, `"settled"` (see
#'   [calm_control()]), `"max_rounds"`, or `"steps"` for the soft
#'   constraint), `settings` (`gate`, `constraint`, `score`, `refine`, `standardize`, `moral` source, `restarts`, `control`), `time` (seconds), and `seed` (the integer seed of the
#'   returned restart), `moral` (the moral graph used, igraph; when
#'   estimated, the graph [estimate_moral_graph()] returned, with its
#'   attributes), `objective` (final objective), `h` (final `h`),
#'   `gate_values` (the deterministic gates, a matrix; `NULL` for `"tanh"`),
#'   `restarts` (seed, objective, rounds, converged, stop and time of every
#'   restart), `skipped` (steps skipped because the objective was not
#'   finite), `isa` (the kernel build used, `"avx2"` or `"generic"`) and
#'   `components` (for a fit split by the components of the moral graph, one
#'   row per fitted component, see Details; `NULL` otherwise).
#'   Use [print()], [summary()], [coef()], [plot()], [compare_graphs()].
#' @references Chickering, D. M. (2002). Optimal structure identification
#'   with greedy search. *JMLR* 3, 507-554.
#'
#'   Hauser, A. and Buehlmann, P. (2012). Characterization and greedy learning
#'   of interventional Markov equivalence classes of directed acyclic graphs.
#'   *JMLR* 13, 2409-2464.
#'
#'   Jin, K., Ng, I., Zhang, K. and Huang, B. (2025). Revisiting
#'   differentiable structure learning: inconsistency of l1 penalty and
#'   beyond. *ICLR*.
#' @seealso [calm_control()], [compare_graphs()], [simulate_sem()]
#' @examples
#' set.seed(1)
#' sem <- simulate_sem(6, k = 1, n = 500)
#' fit <- calm(sem$x)
#' fit
#' compare_graphs(fit, sem$B)
#'
#' # background knowledge: X1 -> X2 required, nothing points into X1
#' bk <- background_knowledge(required = data.frame(from = "X1", to = "X2"),
#'                            tiers = list("X1", paste0("X", 2:6)))
#' fit_bk <- calm(sem$x, knowledge = bk)
#' @export
calm <- function(x, cov = NULL, n = NULL, standardize = TRUE, moral = NULL,
                 gate = c("gumbel", "stg", "tanh"), constraint = c("hard", "soft"),
                 score = c("likelihood", "colide"), refine = c("ges", "none"),
                 control = calm_control(), restarts = 1, verbose = interactive(), ...,
                 alpha = 0.01, knowledge = NULL, na = c("fail", "complete"), seed = NULL) {
  cl <- match.call()
  env <- environment()
  if (missing(x)) x <- NULL
  if (identical(na, "omit")) na <- "complete"
  na <- match_choice(na, c("fail", "complete"), "na", call = env)
  alpha <- check_number(alpha, "alpha", lower = 0, upper = 1, lower_open = TRUE,
                        upper_open = TRUE, call = env)
  x <- complete_rows(x, na, call = env)
  check_flag(standardize, "standardize", call = env)
  gate <- match_choice(gate, c("gumbel", "stg", "tanh"), "gate", call = env)
  constraint <- match_choice(constraint, c("hard", "soft"), "constraint", call = env)
  score <- match_choice(score, c("likelihood", "colide"), "score", call = env)
  refine_settings <- NULL
  if (inherits(refine, "calm_refine_control")) {
    refine_settings <- refine
    refine <- "ges"
  }
  refine <- match_choice(refine, c("ges", "none"), "refine", call = env)
  restarts <- check_count(restarts, "restarts", min = 1, max = 1e6, call = env)
  check_flag(verbose, "verbose", call = env)
  dots <- list(...)
  knowledge <- bnlearn_lists(dots, knowledge, call = env)
  if (!is.null(names(dots))) dots <- dots[!names(dots) %in% c("whitelist", "blacklist")]
  if (!is.null(refine_settings)) dots$refine <- refine_settings
  ctrl <- schedule_for_refine(resolve_control(control, dots, call = env), refine)
  seed <- check_seeds(seed, restarts, call = env)
  # the memory guard, before anything of size d x d is allocated
  d0 <- if (!is.null(x)) NCOL(x) else if (!is.null(cov)) NCOL(cov) else NA
  check_fit_memory(d0, if (!is.null(x)) NROW(x) else 0, moral = moral, refine = refine,
                   ctrl = ctrl, call = env)
  cv <- resolve_covariance(x, cov, n, standardize, call = env, small_n = TRUE)
  sigma <- cv[["sigma"]]
  kn <- resolve_knowledge(knowledge, colnames(sigma), call = env)
  if (!is.null(kn) && gate == "tanh" && any(kn[["required"]] != 0)) {
    abort_arg("knowledge", "has required edges, which need a gate: use {.code gate = \"gumbel\"} or {.code \"stg\"}.",
              call = env)
  }
  mo <- resolve_moral(moral, sigma, cv[["n"]], call = env, alpha = alpha, knowledge = kn,
                      correlation = standardize)
  mask <- knowledge_mask(mo[["mask"]], kn)
  # again, now that the free entries and components are known
  check_fit_memory(ncol(sigma), mask = mask, refine = refine, ctrl = ctrl, call = env)

  seeds <- if (is.null(seed)) sample.int(.Machine$integer.max, restarts) else seed
  t0 <- proc.time()[["elapsed"]]
  runs <- run_restarts(seeds, sigma, mask, ctrl, gate, score, constraint, verbose)
  threshold_empty <- warn_threshold_empty(runs, ctrl, gate)
  if (refine == "ges") {
    pen <- refine_penalty_record(ctrl, cv[["n"]], ncol(sigma), cv[["x"]],
                                 selection_mask(mask, mo, kn, ctrl), call = env)
    runs <- refine_runs(runs, sigma, mo, pen[["lambda"]], ctrl, cv[["n"]], kn, verbose)
  }
  elapsed <- proc.time()[["elapsed"]] - t0

  chosen <- vapply(runs, function(r) r[["select_score"]] %||% r[["final_objective"]], numeric(1))
  best <- runs[[which.min(chosen)]]
  warn_run(best, ctrl, constraint)

  fit <- new_calm_fit(
    best[["amat"]], sigma = sigma, n = cv[["n"]], B_raw = best[["B_raw"]], method = "calm",
    settings = list(gate = gate, constraint = constraint, score = score, refine = refine,
                    standardize = standardize, moral = mo[["source"]], restarts = restarts,
                    control = ctrl, alpha = alpha, na = na),
    trace = best[["trace"]], removed = best[["removed"]], converged = best[["converged"]] && !threshold_empty,
    time = elapsed, call = cl, refit = best[["refit"]],
    extra = list(seed = best[["seed"]], moral = mo[["graph"]], stop = best[["stop"]],
                 objective = best[["final_objective"]], h = best[["h"]],
                 gate_values = best[["gate_values"]], restarts = restart_table(runs, seeds),
                 skipped = best[["skipped"]], isa = best[["isa"]], refine = best[["refine"]],
                 components = best[["components"]],
                 penalty = if (refine == "ges") pen, knowledge = kn, na_dropped = attr(x, "na_dropped"),
                 data_var = data_variances(x, cov, standardize), data_mean = data_means(x))
  )
  fit
}

# The refinement of every restart's graph (refine_dag(), with the moral
# graph `mo` and penalty `lambda`): each run's graph, raw weights and record
# replaced, and the refined score kept to compare the restarts by.
refine_runs <- function(runs, sigma, mo, lambda, ctrl, n, kn, verbose) {
  lapply(runs, function(r) {
    if (verbose) inform_refine(NULL, ncol(sigma), ctrl)
    ref <- refine_dag(r[["amat"]], sigma, mo[["mask"]], lambda, ctrl, n = n,
                      extend = mo[["source"]] == "iamb", kn = kn)
    r$refine <- ref[["record"]]
    if (verbose) inform_refine(ref[["record"]])
    # the run's refit is of its own graph: kept only if the refinement
    # left the graph as it was
    if (any(ref[["dag"]] != r[["amat"]])) r["refit"] <- list(NULL)
    r$amat <- ref[["dag"]]
    r$B_raw <- r[["B_raw"]] * ref[["dag"]]
    # restarts are compared by the best score the refinement found
    r$select_score <- ref[["record"]][["score_best"]]
    r
  })
}

# One row per restart: its seed, final objective, rounds, h, convergence,
# why it stopped and its time (fit$restarts).
restart_table <- function(runs, seeds) {
  data.frame(
    restart = seq_along(runs), seed = seeds,
    objective = vapply(runs, `[[`, numeric(1), "final_objective"),
    rounds = vapply(runs, function(r) trace_rounds(r[["trace"]]), integer(1)),
    h = vapply(runs, `[[`, numeric(1), "h"),
    converged = vapply(runs, `[[`, logical(1), "converged"),
    stop = vapply(runs, `[[`, character(1), "stop"),
    seconds = vapply(runs, `[[`, numeric(1), "seconds")
  )
}

# bnlearn's `whitelist` and `blacklist`, given to calm() through `...`, as
# background knowledge (required and forbidden edges), with a word on the
# translation; an error when `knowledge` is given as well.
bnlearn_lists <- function(dots, knowledge, call) {
  lists <- intersect(names(dots), c("whitelist", "blacklist"))
  if (length(lists) == 0L) return(knowledge)
  if (!is.null(knowledge)) {
    abort_arg(lists[1], "and {.arg knowledge} are both given: put the edges in {.code knowledge = background_knowledge(required = , forbidden = )}.",
              call = call)
  }
  cli::cli_inform(c(i = "Read bnlearn's {.arg {lists}} as {.code knowledge = background_knowledge(required = whitelist, forbidden = blacklist)}."),
                  class = "calm_message_knowledge")
  tryCatch(background_knowledge(required = dots[["whitelist"]], forbidden = dots[["blacklist"]]),
           calm_error_argument = function(e) {
             abort_arg(lists[1], "is not a valid edge list: {conditionMessage(e)}", call = call)
           })
}

# verbose = TRUE: say that the refinement starts (record NULL) and what it
# did.
inform_refine <- function(record, d = NULL, ctrl = NULL) {
  if (is.null(record)) {
    exact <- !is.null(ctrl[["refine_exact_max_d"]]) && d <= ctrl[["refine_exact_max_d"]]
    cli::cli_inform("Refining the graph: GES moves, order search{if (exact) ', exact search' else ''}.",
                    class = "calm_message_refine")
  } else {
    cli::cli_inform(c(v = "{refine_line(record)} ({signif(record[['seconds']] %||% NA, 3)} s)"),
                    class = "calm_message_refine")
  }
  invisible()
}

# The seed argument of calm(): NULL, or one whole number in
# [0, .Machine$integer.max] per restart; returned as an integer vector.
check_seeds <- function(seed, restarts, call = parent.frame()) {
  if (is.null(seed)) return(NULL)
  imax <- .Machine$integer.max
  if (!is.numeric(seed) || length(seed) != restarts || anyNA(seed) || any(seed != round(seed)) ||
      any(seed < 0) || any(seed > imax)) {
    abort_arg("seed", "must be NULL or {restarts} whole number{?s} between 0 and {imax} (one per restart).",
              call = call)
  }
  as.integer(seed)
}

# The memory guard of calm(): the bytes a fit needs, estimated before
# anything is allocated, against what the machine can give (see
# memory_available()). Called twice: before the covariance and moral graph
# are computed, from the number of variables alone (the free entries of an
# estimated moral graph are not known yet: none are counted, and the kernel
# is taken to hold one component of all variables), and again before the
# optimizer, with the mask's free entries and components.
check_fit_memory <- function(d, n_rows = 0, mask = NULL, moral = NULL, refine = "ges", ctrl,
                             call = parent.frame()) {
  avail <- memory_available()
  if (is.null(avail) || !is.finite(d) || d < 1) return(invisible(NULL))
  d <- as.double(d)
  free <- if (!is.null(mask)) {
    mask_sizes(mask)
  } else if (identical(moral, "none")) {
    list(m = d * (d - 1), blocks2 = d * d)
  } else if (is.matrix(moral) && (is.numeric(moral) || is.logical(moral)) && !anyNA(moral) &&
             nrow(moral) == d && ncol(moral) == d) {
    # a moral graph given as a matrix fixes the free entries now
    mask_sizes(moral)
  }
  need <- fit_memory_need(d, n_rows, free[["m"]], free[["blocks2"]], refine, ctrl)
  if (need > avail) {
    cli::cli_abort(c(
      "A {.fn calm} fit on {d} variable{?s} needs about {format_bytes(need)} of memory, more than the {format_bytes(avail)} available ({attr(avail, 'source')}).",
      i = "Restrict the search with a sparser {.arg moral} graph, fit fewer variables, or set {.code options(calm.max_bytes = )} (bytes) if the machine has more to give; see {.topic calm} (Memory)."
    ), class = c("calm_error_memory", "calm_error"), call = call)
  }
  invisible(need)
}

# Bytes a calm() fit needs at its peak, beyond what R held before the call.
# Counted from what is allocated, with coefficients set by the peaks
# measured with inst/bench/bench_memory.R (see ?calm, "Memory"; from d =
# 200 to 800 the estimate was 0.73 to 1.53 times the measured peaks, and
# 0.85 to 1.37 times from d = 400):
# - 16 MB that R's heap grows by in any fit (measured at d = 100 to 200);
# - data (n_rows x d): the centred and scaled copies made for the
#   covariance, 2 n d doubles;
# - R's and the optimizer's d x d matrices (the covariance, masks, the
#   optimizer's copies and outputs, the refit, the CPDAG), of which about 12
#   are alive at once at the peak (counted: 22; measured: 6 to 14);
# - the optimizer's kernel: 9 n_b x n_b matrices per block (component) of
#   n_b nodes (15 with acyclicity = "exp");
# - per free entry of the mask: parameters, gradient, Adam's moments, gate
#   noise and values, the early-stopping history (20 + patience doubles)
#   and entry indices, with R's copies: 32 doubles and 8 integers
#   (measured: 256 bytes);
# - the refinement (refine = "ges"): its GES, BOSS and grow-shrink state,
#   20 d^2 doubles (measured: 160 at d = 400), and the exact search's tables
#   where it runs (at most refine_exact_max_d variables and within the 2 GB
#   it is allowed).
# m: the number of free entries, blocks2 the sum of the squared sizes of
# the mask's components; NULL when not known (no free entry, one block of
# all d nodes).
fit_memory_need <- function(d, n_rows = 0, m = NULL, blocks2 = NULL, refine = "ges",
                            ctrl = calm_control()) {
  d <- as.double(d)
  dd <- d * d
  m <- if (is.null(m)) 0 else as.double(m)
  blocks2 <- if (is.null(blocks2)) dd else as.double(blocks2)
  per_block <- if (identical(ctrl[["acyclicity"]], "exp")) 15 else 9
  bytes <- 16e6 + 8 * (2 * as.double(n_rows) * d + 12 * dd + per_block * blocks2 + 32 * m) +
    4 * 8 * m
  if (identical(refine, "ges")) {
    bytes <- bytes + 8 * 20 * dd
    if (d >= 2 && d <= ctrl[["refine_exact_max_d"]]) {
      full <- matrix(1, d, d) - diag(d)
      ex <- cpp_exact_search_bytes(full)
      if (ex <= exact_search_budget) bytes <- bytes + ex
    }
  }
  bytes
}

# The free entries of a mask (off the diagonal) and the sum of the squared
# sizes of its components of two or more nodes, for fit_memory_need().
mask_sizes <- function(mask) {
  sizes <- tabulate(mask_components(mask))
  list(m = as.double(sum(mask != 0)) - sum(diag(mask) != 0),
       blocks2 = sum(as.double(sizes[sizes >= 2L])^2))
}

# The bytes this R process may still allocate: getOption("calm.max_bytes")
# when set, else MemAvailable of /proc/meminfo (Linux), else NULL (unknown:
# no check). The attribute "source" says which.
memory_available <- function() {
  opt <- getOption("calm.max_bytes")
  if (!is.null(opt)) {
    if (!is.numeric(opt) || length(opt) != 1L || is.na(opt) || opt <= 0) {
      cli::cli_abort("Option {.code calm.max_bytes} must be a positive number of bytes, not {.obj_type_friendly {opt}}.",
                     class = c("calm_error_argument", "calm_error"), call = NULL)
    }
    return(structure(as.double(opt), source = "option calm.max_bytes"))
  }
  info <- "/proc/meminfo"
  if (!file.exists(info)) return(NULL)
  lines <- tryCatch(readLines(info, warn = FALSE), error = function(e) character())
  hit <- grep("^MemAvailable:", lines, value = TRUE)
  if (length(hit) != 1L) return(NULL)
  kb <- suppressWarnings(as.numeric(sub("^MemAvailable:[[:space:]]*([0-9]+).*$", "\\1", hit)))
  if (!is.finite(kb)) return(NULL)
  structure(kb * 1024, source = "MemAvailable in /proc/meminfo")
}

# The moral graph argument as list(mask = 0/1 matrix named like sigma,
# source = how it was obtained, graph = undirected igraph). `sigma` has been
# checked already (resolve_covariance()); `correlation` says it is a
# correlation matrix.
resolve_moral <- function(moral, sigma, n, call = parent.frame(), alpha = 0.01, knowledge = NULL,
                          correlation = FALSE) {
  nm <- colnames(sigma)
  d <- length(nm)
  if (is.null(moral)) moral <- if (is.finite(n)) "iamb" else "precision"
  if (is.character(moral)) {
    source <- match_choice(moral, c("iamb", "precision", "none"), "moral", call = call)
    if (source == "none") {
      mask <- matrix(1, d, d) - diag(d)
    } else {
      # estimate_moral_graph()'s defaults of `rule`, `max_size` and `zero_tol`
      defaults <- formals(estimate_moral_graph)
      g <- moral_from_covariance(sigma, n, alpha, method = source, rule = "or",
                                 max_size = defaults[["max_size"]],
                                 zero_tol = defaults[["zero_tol"]], knowledge = knowledge,
                                 correlation = correlation, call = call)
      mask <- as_amat(g, weighted = FALSE)
      mask <- check_same_nodes(set_node_names(sigma), mask, "data", "moral", call = call)
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
    abort_arg("moral", "must be NULL, {.val iamb}, {.val precision}, {.val none}, a symmetric 0/1 matrix or an undirected igraph graph, not {.obj_type_friendly {moral}}.",
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

# Runs the restarts (sequentially, or through future when there are
# several), each with its own seed. With ctrl$split_components, each restart
# fits the connected components of the mask separately (see
# calm_run_split()).
run_restarts <- function(seeds, sigma, mask, ctrl, gate, score, constraint, verbose) {
  comps <- if (isTRUE(ctrl[["split_components"]])) split_plan(mask) else NULL
  one <- function(seed, verbose, progress) {
    if (is.null(comps)) {
      calm_run_one(seed, sigma, mask, ctrl, gate, score, constraint, verbose)
    } else {
      calm_run_split(seed, sigma, mask, comps, ctrl, gate, score, constraint, verbose, progress)
    }
  }
  if (length(seeds) == 1L) return(list(one(seeds, verbose, progress = TRUE)))
  run_all <- function() {
    p <- progressr::progressor(steps = length(seeds))
    future.apply::future_lapply(seeds, function(seed) {
      # no progress bar over components inside a restart: the bar is over
      # the restarts
      r <- one(seed, verbose = FALSE, progress = FALSE)
      p(sprintf("restart done: objective %.4g", r[["final_objective"]]))
      r
    }, future.seed = FALSE)
  }
  if (!verbose) return(run_all())
  # verbose: show the progress over restarts with the user's progressr
  # handlers, or a text bar when none are set
  cli::cli_inform("Running {length(seeds)} restarts.")
  with_user_progress(run_all())
}

# Evaluates `expr` under progressr::with_progress() with the user's
# handlers, or a text bar when none are set.
with_user_progress <- function(expr) {
  handlers <- if (length(progressr::handlers())) progressr::handlers() else progressr::handler_txtprogressbar()
  progressr::with_progress(expr, handlers = handlers, enable = TRUE)
}

# The connected components of the mask (read as undirected, knowledge
# included) as a list of sorted integer index vectors, in the order of their
# smallest index, or NULL when there is nothing to split: the mask is
# connected, or has no free entry at all (then the one fit on the whole
# problem is the empty graph, at no cost).
split_plan <- function(mask) {
  memb <- mask_components(mask)
  sizes <- tabulate(memb)
  if (length(sizes) <= 1L || all(sizes < 2L)) return(NULL)
  unname(split(seq_along(memb), memb))
}

# Component membership of every node of the mask read as undirected
# (mask | t(mask)), numbered 1, 2, ... in the order of the components'
# smallest node.
mask_components <- function(mask) {
  d <- nrow(mask)
  if (d == 0L) return(integer())
  sym <- (mask != 0) | t(mask != 0)
  diag(sym) <- FALSE
  g <- igraph::graph_from_adjacency_matrix(sym * 1, mode = "undirected", diag = FALSE)
  memb <- igraph::components(g)[["membership"]]
  # renumber by first appearance, i.e. by smallest node
  match(memb, unique(memb))
}

# The seed of one component of a split fit (documented in ?calm,
# "Components"): the component whose smallest variable index is `first`
# gets (seed + 1000003 * first) mod (2^31 - 1), `seed` being the restart's.
# 2^31 - 1 is prime and 1000003 smaller, so the components of one restart
# get different seeds.
component_seed <- function(seed, first) {
  as.integer((as.double(seed) + 1000003 * as.double(first)) %% 2147483647)
}

# One restart split by components: each component of two or more nodes is
# fitted by calm_run_one() on its own (sigma[idx, idx], mask[idx, idx], so
# its own dimension enters the acyclicity function) with the seed
# component_seed(seed, idx[1]); nodes alone in their component get no
# parents. The components run through future.apply (largest first), with a
# progressr bar over them. The parts are put back together as one run.
calm_run_split <- function(seed, sigma, mask, comps, ctrl, gate, score, constraint, verbose,
                           progress = TRUE) {
  t0 <- proc.time()[["elapsed"]]
  fitted <- which(lengths(comps) >= 2L)
  tasks <- lapply(seq_along(fitted), function(k) {
    idx <- comps[[fitted[k]]]
    list(k = k, seed = component_seed(seed, idx[1L]), sigma = sigma[idx, idx, drop = FALSE],
         mask = mask[idx, idx, drop = FALSE])
  })
  # largest first, so that a parallel plan does not end waiting on a big one
  ord <- order(-lengths(comps[fitted]), fitted)
  run_all <- function() {
    p <- if (progress) progressr::progressor(steps = length(tasks)) else NULL
    # one future per component; the worker function lives in the namespace,
    # so that only the component's own rows and columns travel with it
    out <- future.apply::future_lapply(tasks[ord], fit_component, ctrl = ctrl, gate = gate,
                                       score = score, constraint = constraint, p = p,
                                       future.seed = FALSE, future.scheduling = Inf)
    out[order(ord)]
  }
  parts <- if (verbose && progress) {
    cli::cli_inform("Fitting {length(tasks)} components of the moral graph separately ({sum(lengths(comps) == 1L)} node{?s} alone).")
    with_user_progress(run_all())
  } else {
    run_all()
  }
  assemble_split(seed, sigma, mask, comps, fitted, tasks, parts, ctrl, score, constraint,
                 seconds = proc.time()[["elapsed"]] - t0)
}

# One component of calm_run_split(): tk holds its number k, seed, sigma
# and mask; p is a progressr progressor or NULL.
fit_component <- function(tk, ctrl, gate, score, constraint, p = NULL) {
  r <- calm_run_one(tk[["seed"]], tk[["sigma"]], tk[["mask"]], ctrl, gate, score, constraint,
                    verbose = FALSE)
  if (!is.null(p)) p(sprintf("component %d (%d nodes) done", tk[["k"]], nrow(tk[["sigma"]])))
  r
}

# Puts the per-component runs of calm_run_split() together as one run of
# the shape calm_run_one() returns.
assemble_split <- function(seed, sigma, mask, comps, fitted, tasks, parts, ctrl, score,
                           constraint, seconds) {
  nm <- colnames(sigma)
  d <- length(nm)
  zero <- matrix(0, d, d, dimnames = list(nm, nm))
  amat <- B_raw <- zero
  gate_values <- if (is.null(parts[[1L]][["gate_values"]])) NULL else zero
  for (i in seq_along(parts)) {
    idx <- comps[[fitted[i]]]
    amat[idx, idx] <- parts[[i]][["amat"]]
    B_raw[idx, idx] <- parts[[i]][["B_raw"]]
    if (!is.null(gate_values)) gate_values[idx, idx] <- parts[[i]][["gate_values"]]
  }
  trace <- do.call(rbind, lapply(seq_along(parts), function(i) {
    tr <- parts[[i]][["trace"]]
    tr$component <- rep(i, nrow(tr))
    tr
  }))
  removed <- do.call(rbind, lapply(parts, `[[`, "removed"))
  rownames(removed) <- NULL
  stops <- vapply(parts, `[[`, character(1), "stop")
  # every node's parents lie in its component, so the least-squares refit of
  # the whole graph is the components' refits put together (bit for bit:
  # the same entries of sigma in the same order); a node alone keeps its
  # variance
  refit <- list(B = zero, omega = stats::setNames(diag(sigma), nm))
  for (i in seq_along(parts)) {
    idx <- comps[[fitted[i]]]
    refit[["B"]][idx, idx] <- parts[[i]][["refit"]][["B"]]
    refit[["omega"]][idx] <- parts[[i]][["refit"]][["omega"]]
  }
  components <- data.frame(
    component = seq_along(fitted), size = lengths(comps[fitted]),
    seed = vapply(tasks, `[[`, integer(1), "seed"),
    rounds = vapply(parts, function(r) nrow(r[["trace"]]), integer(1)),
    steps = vapply(parts, function(r) as.double(sum(r[["trace"]][["steps"]])), numeric(1)),
    h = vapply(parts, `[[`, numeric(1), "h"),
    converged = vapply(parts, `[[`, logical(1), "converged"),
    stop = stops,
    seconds = vapply(parts, `[[`, numeric(1), "seconds")
  )
  components$nodes <- lapply(comps[fitted], function(idx) nm[idx])
  list(
    seed = seed, amat = amat, B_raw = B_raw, gate_values = gate_values,
    trace = trace[, c("component", setdiff(names(trace), "component"))],
    converged = all(components[["converged"]]), stop = combine_stops(stops),
    h = sum(components[["h"]]), removed = removed,
    skipped = sum(vapply(parts, function(r) as.double(r[["skipped"]]), numeric(1))),
    final_objective = run_objective(refit, amat, mask, ctrl, score),
    isa = parts[[1L]][["isa"]], seconds = seconds, components = components,
    isolated = nm[unlist(comps[lengths(comps) == 1L])], refit = refit
  )
}

# Why a split fit stopped: the cap when any component hit it, "steps" for
# the soft constraint, "settled" when some component settled, else "h_tol".
combine_stops <- function(stops) {
  for (s in c("max_rounds", "steps", "settled")) if (any(stops == s)) return(s)
  "h_tol"
}

# One seeded fit: the C++ optimizer, then the edge set, acyclic repair and
# the final objective (score of the least-squares refit + lambda1 * edges).
calm_run_one <- function(seed, sigma, mask, ctrl, gate, score, constraint, verbose) {
  nm <- colnames(sigma)
  progress <- NULL
  if (verbose) {
    # One bar per round (rounds can end early, so no estimate of the time
    # left for the whole schedule is honest): round, rho, h after the last
    # round, and the steps of this round.
    total <- if (constraint == "hard") ctrl[["iter_per_round"]] else ctrl[["soft_iter"]]
    cur_round <- 1L
    cur_h <- NA_real_
    cur_rho <- ctrl[["rho_init"]]
    # auto_terminate = FALSE: the bar is reused by every round (a full round
    # reaches its total) and closed by cli_progress_done() after the fit
    pb <- cli::cli_progress_bar(
      total = total, clear = TRUE, auto_terminate = FALSE,
      format = paste0("round {cur_round}, rho {signif(cur_rho, 2)}, ",
                      "h {if (is.finite(cur_h)) signif(cur_h, 2) else '-'} ",
                      "{cli::pb_bar} {cli::pb_percent} of the round")
    )
    progress <- function(round, iter, iter_total, rho, h) {
      cur_round <<- round
      cur_h <<- h
      cur_rho <<- rho
      cli::cli_progress_update(id = pb, set = iter)
    }
  }
  t0 <- proc.time()[["elapsed"]]
  r <- cpp_calm_fit(sigma, mask, unclass(ctrl), gate, score, constraint, seed, progress)
  if (verbose) cli::cli_progress_done(id = pb)
  seconds <- proc.time()[["elapsed"]] - t0

  named <- function(m) if (is.null(m)) NULL else set_node_names(m, nm)
  edges <- named(r[["edges"]])
  B_raw <- named(r[["B_raw"]])
  removed <- data.frame(from = character(), to = character(), weight = numeric())
  if (!cpp_is_dag(edges)) {
    w <- B_raw * edges
    # an edge with a learned weight of exactly zero is still an edge
    w[edges != 0 & w == 0] <- .Machine$double.xmin
    # required edges (background knowledge, mask value 2) are never removed
    w[edges != 0 & mask > 1.5] <- .Machine$double.xmax
    fix <- make_acyclic(w)
    removed <- fix[["removed"]]
    edges[] <- as.double(fix[["B"]] != 0)
  }
  refit <- refit_weights(edges, sigma)
  tr <- r[["trace"]]
  list(
    seed = seed, amat = edges, B_raw = B_raw * edges, gate_values = named(r[["gate_values"]]),
    trace = data.frame(component = rep(1L, length(tr[["round"]])),
                       round = tr[["round"]], rho = tr[["rho"]], h = tr[["h"]],
                       objective = tr[["objective"]], edges = tr[["edges"]],
                       dag = tr[["dag"]], changed = tr[["changed"]],
                       steps = tr[["steps"]], skipped = tr[["skipped"]],
                       seconds = tr[["seconds"]]),
    converged = r[["converged"]], stop = run_stop(r, constraint), h = r[["h"]], removed = removed,
    skipped = r[["skipped"]],
    final_objective = run_objective(refit, edges, mask, ctrl, score), isa = r[["isa"]],
    seconds = seconds, refit = refit
  )
}

# The final objective of a run: the score of the least-squares refit on its
# graph plus lambda1 per edge; required edges (mask value 2) are outside the
# sparsity penalty.
run_objective <- function(refit, amat, mask, ctrl, score) {
  omega <- refit[["omega"]]
  fit_score <- if (score == "likelihood") 0.5 * sum(log(omega)) else sum(sqrt(omega))
  fit_score + ctrl[["lambda1"]] * sum(amat[mask < 1.5])
}

# Why the optimizer stopped: "h_tol" (the constraint was met), "settled"
# (the graph settled before, see calm_control()), "max_rounds" (the cap),
# or "steps" (the single run of the soft constraint).
run_stop <- function(r, constraint) {
  if (constraint == "soft") return("steps")
  if (isTRUE(r[["settled"]])) return("settled")
  if (isTRUE(r[["converged"]])) "h_tol" else "max_rounds"
}

# Warnings about the returned run: never silent about a cap, a repair or
# skipped steps.
# With gate = "tanh" the graph is |B| > weight_threshold: a threshold above
# every weight empties it, and an empty graph ends the schedule as if the
# constraint were met. Say so rather than return the refinement's graph as
# if the optimizer had found nothing.
warn_threshold_empty <- function(runs, ctrl, gate) {
  if (gate != "tanh") return(FALSE)
  empty <- all(vapply(runs, function(r) all(r[["amat"]] == 0), logical(1)))
  h <- min(vapply(runs, `[[`, numeric(1), "h"))
  if (empty && h > ctrl[["h_tol"]]) {
    cli::cli_warn(c(
      "{.arg weight_threshold} = {format(ctrl[['weight_threshold']])} is above every weight of the optimizer (gate {.val tanh}): its graph is empty although the weights are still cyclic (h = {signif(h, 3)} > {.arg h_tol} = {ctrl[['h_tol']]}).",
      i = "Use a threshold on the scale of the weights (default 0.1); the fit is marked {.code converged = FALSE}."
    ), class = c("calm_warning_threshold", "calm_warning"))
  }
  empty && h > ctrl[["h_tol"]]
}

warn_run <- function(run, ctrl, constraint) {
  if (constraint == "hard" && !run[["converged"]]) {
    cli::cli_warn(c(
      "CALM hit {.arg max_rounds} = {ctrl[['max_rounds']]} before the acyclicity constraint was met (h = {signif(run[['h']], 3)} > {.arg h_tol} = {ctrl[['h_tol']]}).",
      i = "Increase {.arg max_rounds} or {.arg iter_per_round} in {.fn calm_control}; the fit is marked {.code converged = FALSE}."
    ), class = "calm_warning_not_converged")
  }
  if (nrow(run[["removed"]]) > 0L) {
    cli::cli_warn(c(
      "The thresholded graph had a directed cycle; {nrow(run[['removed']])} edge{?s} with the smallest weights {?was/were} removed to make it acyclic.",
      i = "See {.code fit$removed}."
    ), class = "calm_warning_repaired")
  }
  if (run[["skipped"]] > 0) {
    cli::cli_warn("{run[['skipped']]} optimizer step{?s} {?was/were} skipped because the objective was not finite.",
                  class = "calm_warning_skipped")
  }
  invisible(NULL)
}
