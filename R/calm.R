# calm(), stage by stage: prepare (R/calm-prepare.R, R/calm-memory.R,
# R/moral-resolve.R), optimize (run_restarts() here, R/calm-restarts.R,
# R/calm-components.R), choose the penalty (R/search-penalty.R), refine
# (R/search-calm.R, R/search-refine.R) and wrap the best restart as a
# calm_fit (here).

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
#'   the same score, CALM's continuous phase cut to one step with more rows
#'   than variables, where it changed no graph; also on networks with many weak effects, vignette *calm
#'   on networks that look like real ones*); [boss()] for a fast search of
#'   many variables or a baseline, and `boss(x, control = search_control(penalty_discount = "cv"))` for
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
#' ([boss()]) from CALM's order, the refined graph's order and random orders
#' (above `search_control(order_all_pairs)` variables inside the moral graph,
#' then over every pair from the best orders found there),
#' and up to 20 variables takes the exact optimum ([exact_search()]) when
#' fewer than half of BOSS's starts agree on its best score; it keeps
#' whichever graph scores best. For data with more rows than variables
#' (at most 150 of them, `search_control(risk_max_d)`) a last step runs
#' BOSS from 12 more random orders and returns, among the local optima of
#' these and of BOSS's 8 random starts and the best graph, the one with the
#' smallest expected SHD to the others, each weighted by how well it scores: where several graphs score
#' within a few units of log-likelihood of the best (weak effects), this graph
#' is closer to the truth than the best-scoring one; where one graph scores
#' clearly best, it is returned (`search_control(risk_starts,
#' risk_temperature, risk_max_d)`). For data the score is the BIC with a
#' penalty discount chosen from the data (`penalty_discount = "cv"`,
#' [select_penalty()]; the extended BIC with `n <= d`; above
#' `search_control(order_all_pairs)` variables chosen in the order of a
#' first fit at the extended BIC); a covariance with finite `n` uses the extended BIC
#' ([ebic_lambda()]) and a population covariance `lambda1`. Its settings
#' are in [search_control()]. Background knowledge constrains every stage.
#'
#' With more rows than variables the refinement reaches the same graph from
#' any start (90 of 90 data sets in the stage ablation), so by default
#' (`calm_control(continuous = "auto")`) the continuous phase is then cut to
#' one Adam step, whose graph is only the refinement's start: no warning is
#' given about it, `fit$continuous` is `"start"` (`"none"` above 1000
#' variables, where even the one step is skipped; otherwise `"full"`),
#' `fit$converged` is `TRUE` and `print()` says so. `calm_control(continuous
#' = "always")` runs the continuous phase in full before the refinement, and
#' `refine = "none"` always runs it in full. What the refinement did is in `fit$refine`:
#' the stages that ran (`stages`, in order: `"ges_start"`, `"ges_empty"`,
#' `"boss"`, `"boss_wide"`, `"scan"` (see [search_control()], `scan_beyond`), `"kicks"` (`scan_kicks`), `"exact"`,
#' `"min_risk"`), the graph before (`dag_before`; its class is `dag_to_cpdag(dag_before)`), the scores before and
#' after (`score_before`, `score_after`) and the best score found
#' (`score_best`; above `score_after` only when the last step chose another
#' graph), whether the exact search ran (`exact_run`), the penalty (`lambda`), the moves made
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
#' Above 1000 variables (no continuous phase) the peak is about 14 d x d
#' matrices of doubles and the data twice: 4.1 GB at 5000 variables and
#' 3000 rows; the fit returned keeps the covariance and five d x d
#' matrices.
#' With a parallel `future::plan()`, each worker needs its share besides its
#' own R process. BOSS in the refinement and in [boss()] keeps
#' their caches (grow-shrink trees and local scores) under 1 GB: beyond that
#' they are emptied and rebuilt, which costs time on dense graphs and never
#' changes the result.
#'
#' Parallel runs. The independent searches of one fit run through
#' [future.apply::future_lapply()], so `future::plan()` decides where they
#' run (other R sessions, other machines of a cluster): the restarts, the
#' components of the moral graph, the folds of the penalty selection (each
#' fold of each split, with its path of discounts, is one task; see
#' [select_penalty()]), and the random starts of BOSS in the refinement and
#' in its last step (split into one group per worker). GES moves, the
#' scan's rounds, the kicks and the exact search run in the calling R
#' process: each kick starts from the best order found by the kicks before
#' it. Every random
#' draw (seeds, folds, start orders, kicks) is made in the calling process
#' before any work is sent out, and the best of several starts is chosen as
#' one run over all of them chooses it, so `set.seed()` gives the same fit,
#' bit for bit, under any plan (with workers on other machines: when they
#' run the same builds of R and calm). With one worker (the default
#' sequential plan) the starts of each BOSS run share one C++ call and its
#' caches, and the folds run one after the other in the calling process.
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
#' @param moral The moral graph `M` that restricts the search. `"auto"`
#'   (default; `NULL` means the same): estimated, by IAMB (`"iamb"`) for data or a covariance with
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
#'   [score_dag()]) with the penalty of `search_control(penalty_discount)`
#'   (by default chosen from the data, see [select_penalty()]): moves of
#'   greedy equivalence search, BOSS and, up to 20
#'   variables, the exact optimum (see Details).
#'   A [search_control()] object: the same, with those settings.
#'   `"none"`: the paper's CALM, unchanged.
#' @param control Hyperparameters: the result of [calm_control()] (default), or a list
#'   of its arguments.
#' @param restarts Number of independently seeded fits (default 1); the one
#'   with the smallest final objective is returned. Restarts run through
#'   [future.apply::future_lapply()]; results do not depend on the plan.
#' @param verbose Show progress (default `interactive()`): a bar per round
#'   for one restart, over the components when the fit is split, over the
#'   restarts otherwise (through progressr, with the user's handlers).
#'   Whatever `verbose`, the fit's phases (covariance, moral graph,
#'   continuous phase, penalty, each step of the refinement) are signalled
#'   as a progressr bar that names the phase it is in: wrap the call in
#'   `progressr::with_progress()`, or set `progressr::handlers(global =
#'   TRUE)`, to see it on fits that take minutes.
#' @param ... Control parameters overriding those in `control`, e.g.
#'   `calm(x, iter_per_round = 5000)`. bnlearn's `whitelist` and `blacklist`
#'   are accepted here too and read as
#'   `knowledge = background_knowledge(required = whitelist, forbidden =
#'   blacklist)`.
#' @param alpha Significance level of IAMB's Fisher-z tests when the moral
#'   graph is estimated with IAMB ([estimate_moral_graph()]): a number, or
#'   `"auto"` (default), 0.01 up to 500 variables and `5 / d` above, so that
#'   the expected number of false members of a blanket, which a fixed level
#'   lets grow with `d`, stays at that of 500 variables (measured in the
#'   vignette *What each stage of calm() buys*, "Thousands of variables").
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
#' @param targets,target_index Intervention targets of the rows of `x`,
#'   for data that mix observation with experiments (see
#'   [intervention_targets()] for the two forms: pcalg's list of target sets
#'   with an index per row, or a named list with a factor of conditions).
#'   The refinement then optimises the interventional (GIES) score
#'   ([score_dag()], "Interventional data"), and ends by polishing the
#'   DAG's orientations on that score (an order search inside its skeleton
#'   and, up to 20 variables, the exact optimum there), since GES moves go
#'   between observational classes. The penalty's selection learns each
#'   fold's graph with the interventional score and scores each variable
#'   on the held-out rows where it was not intervened on (its folds hold
#'   each condition in proportion). The continuous phase uses all rows as
#'   if observational (the fit's print says so). The fit's CPDAG (`cpdag_amat`,
#'   print, plots, [compare_graphs()], [causal_effects()]) is the
#'   interventional essential graph; the weights are fitted on the rows
#'   where each variable was not intervened on. `NULL` (default):
#'   observational data.
#' @param seed Integer seeds of the restarts' continuous phase, one per
#'   restart, each between 0 and `.Machine$integer.max`. `NULL` (default)
#'   draws them from R's random numbers, so that [set.seed()] reproduces a
#'   fit; `fit$seed` or `fit$restarts$seed` reproduces a restart. The order
#'   search's random starts always come from R's random numbers.
#' @return An object of class `calm_fit`: a list with the learned DAG
#'   (`amat`, 0/1; `dag`, igraph with weights), its CPDAG (`cpdag`,
#'   `cpdag_amat`), weights `B` (least-squares refit) and `B_raw` (`A * P`; `NULL` when the continuous phase was skipped),
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
#'   row per fitted component, see Details; `NULL` otherwise); the data's
#'   summary (`n`, `sigma`, `data_mean`, `data_var`, `data_check`: see
#'   "What a fit keeps of its data" in [calm_fit_predict], and how to drop
#'   the covariance) and `learner` (the function's name and its arguments
#'   as given, without the data, `verbose` and `seed`; bootstrap effects of
#'   [causal_effects()] refit with them).
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
calm <- function(x, cov = NULL, n = NULL, standardize = TRUE, moral = "auto",
                 gate = c("gumbel", "stg", "tanh"), constraint = c("hard", "soft"),
                 score = c("likelihood", "colide"), refine = c("ges", "none"),
                 control = calm_control(), restarts = 1, verbose = interactive(), ...,
                 alpha = "auto", knowledge = NULL, na = c("fail", "complete"), seed = NULL,
                 targets = NULL, target_index = NULL) {
  cl <- match.call()
  env <- environment()
  learner <- learner_record("calm", env)
  if (missing(x)) x <- NULL
  phase <- fit_progress()
  target_index <- complete_target_index(x, target_index, na)
  p <- calm_prepare(x, cov, n, standardize, moral, gate, constraint, score, refine, control,
                    restarts, verbose, list(...), alpha, knowledge, na, seed, call = env,
                    phase = phase)
  p$tg <- learner_targets(targets, target_index, colnames(p$sigma), p$x_used, call = env)
  p$sigma <- with_targets(p$sigma, p$x_used, p$tg, p$standardize)
  # the penalty's selection keeps each condition's share in every fold
  if (!is.null(p$tg)) attr(p$x_used, "calm_strata") <- p$tg$index
  if (!is.null(p$tg)) attr(p$x_used, "calm_targets") <- p$tg
  t0 <- proc.time()[["elapsed"]]
  phase(if (p$skip) "continuous phase skipped" else if (p$cut) "continuous phase (one step)" else
    "continuous phase")
  runs <- if (p$skip) {
    lapply(p$seeds, skipped_run, sigma = p$sigma, mask = p$mask, ctrl = p$ctrl, score = p$score)
  } else {
    run_restarts(p$seeds, p$sigma, p$mask, p$ctrl, p$gate, p$score, p$constraint, verbose)
  }
  p$seconds[["continuous"]] <- proc.time()[["elapsed"]] - t0
  # a cut continuous phase (calm_control(continuous)) is only the refinement's
  # start: its warnings would be about a graph nobody sees
  threshold_empty <- !p$cut && warn_threshold_empty(runs, p$ctrl, p$gate)
  pen <- NULL
  if (p$refine == "ges") {
    ref <- refine_at_penalty(p, runs, verbose, call = env, phase = phase)
    runs <- ref[["runs"]]
    pen <- ref[["penalty"]]
    p$seconds <- c(p$seconds, ref[["seconds"]])
  }
  elapsed <- proc.time()[["elapsed"]] - t0
  phase()
  # the moral graph's mask is not part of the fit (its edges are in
  # fit$moral): at scale it is freed before the fit's matrices are made
  p$mask <- p$mo$mask <- NULL
  release_memory(ncol(p$sigma))
  fit <- wrap_calm_fit(p, runs, pen, threshold_empty, elapsed, call = cl)
  fit$learner <- learner
  fit
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

# calm()'s last stage: the best restart (by the refined score when the
# refinement ran) as a calm_fit, with the warnings about it.
wrap_calm_fit <- function(p, runs, pen, threshold_empty, elapsed, call) {
  chosen <- vapply(runs, function(r) r[["select_score"]] %||% r[["final_objective"]], numeric(1))
  best <- runs[[which.min(chosen)]]
  if (!p$cut) warn_run(best, p$ctrl, p$constraint)
  new_calm_fit(
    best[["amat"]], sigma = p$sigma, n = p$n, B_raw = best[["B_raw"]], method = "calm",
    settings = list(gate = p$gate, constraint = p$constraint, score = p$score, refine = p$refine,
                    standardize = p$standardize, moral = p$mo[["source"]],
                    restarts = p$restarts, control = p$ctrl, alpha = p$alpha, na = p$na),
    trace = best[["trace"]],
    removed = if (p$cut) best[["removed"]][0, , drop = FALSE] else best[["removed"]],
    converged = (p$cut || best[["converged"]]) && !threshold_empty, time = elapsed, call = call,
    refit = if (is.null(p$tg)) best[["refit"]],
    extra = c(list(seed = best[["seed"]], moral = p$mo[["graph"]], stop = best[["stop"]],
                 objective = best[["final_objective"]], h = best[["h"]],
                 gate_values = best[["gate_values"]], restarts = restart_table(runs, p$seeds),
                 skipped = best[["skipped"]], isa = best[["isa"]], refine = best[["refine"]],
                 components = best[["components"]], penalty = pen, knowledge = p$kn,
                 na_dropped = attr(p$x, "na_dropped"),
                 continuous = if (p$skip) "none" else if (p$cut) "start" else "full",
                 targets = p$tg,
                 stages = data.frame(stage = names(p$seconds), seconds = unname(p$seconds),
                                     stringsAsFactors = FALSE)),
            data_summary(p$x, p$cov, p$standardize))
  )
}

