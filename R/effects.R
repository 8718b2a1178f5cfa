# Total causal effects over the DAGs of a learned equivalence class (IDA):
# the graph side lives in adjustment.R, the regressions and the shaping of
# results here, the bootstrap version in effects-bootstrap.R.

#' Possible total causal effects over the equivalence class (IDA)
#'
#' Estimates the total causal effect of each treatment `x` on each outcome
#' `y` in every way the learned equivalence class allows: the data identify
#' a CPDAG (maximally oriented under the fit's background knowledge), not
#' one DAG, and the DAGs of the class can disagree on the parents of a
#' treatment. The result is the multiset of possible effects, as pcalg's
#' `ida()` and `jointIda()` give it.
#'
#' * `method = "local"` (Maathuis, Kalisch and Bühlmann 2009): for every set
#'   of parents of `x` that some DAG of the class has, the coefficient of
#'   `x` in the regression of `y` on `x` and those parents (0 when `y` is
#'   among them). Whether a parent set occurs in the class is decided
#'   locally: no new v-structure at `x` and, for a PDAG under knowledge or
#'   for several treatments, no contradiction when Meek's rules propagate
#'   the orientation (Perković et al. 2017).
#' * `method = "optimal"` (Witte et al. 2020; Henckel, Perković and Maathuis
#'   2022): for each of the same local orientations, the regression of `y`
#'   on `x` and the optimal adjustment set in the PDAG that orientation
#'   gives (see [adjustment_set()]): the same effects in the population,
#'   smaller variance in samples. The effect is 0 when `y` is not a possible
#'   descendant of `x`, and `NA` when no valid adjustment set exists.
#'
#' Several treatments (`length(x) > 1`) give joint effects: the effect of
#' each treatment with the others held fixed. With `"local"` they come from
#' the joint parent sets by recursive regressions (jointIda's `RRC`
#' technique); with `"optimal"` from one regression of `y` on all
#' treatments and the optimal set.
#'
#' An outcome that is a descendant of `x` in no DAG of the class (no path
#' from `x` to it can be causal in any of them) has a total effect of 0 in
#' every DAG: both methods give 0 there, with standard error 0, and flag
#' the row (`possible_descendant = FALSE`). pcalg's `ida()` gives the
#' regression coefficient instead, an estimate of that 0; elsewhere the
#' effects equal `ida()`'s and `jointIda()`'s.
#'
#' Each effect that is one regression coefficient (one treatment, and
#' several with `"optimal"`) carries its ordinary least-squares standard
#' error from the covariance and `n` (`lm()`'s, for the regression of `y`
#' on `x` and the set) and a confidence interval at `level` from t
#' quantiles on the regression's residual degrees of freedom. Both are
#' conditional on the graph: they say how precisely the data fix the
#' effect if that orientation is the truth, not how sure the graph is (see
#' Uncertainty for that). Joint `"local"` effects combine several
#' regressions and get `NA`.
#'
#' Effects are on the scale of the data (or covariance) given, whatever
#' scale the learner worked on: the effect of one unit of `x` in its own
#' units, in units of `y`.
#'
#' @param fit A fit of [calm()], [boss()] or [exact_search()] (its CPDAG,
#'   maximally oriented under its knowledge, is used), a graph in any form
#'   [as_amat()] accepts (a CPDAG, a maximally oriented PDAG, or a DAG,
#'   used as it is), or a [bootstrap_edges()] result (see Uncertainty).
#' @param x Treatments: node names or positions.
#' @param y Outcomes: node names or positions, disjoint from `x`; `NULL`
#'   (default) for every other node.
#' @param data Data, one column per node (matched by name): the data the
#'   graph was learned from. Not needed for a fit, which keeps its
#'   covariance and `n` (see [calm_fit_predict]), unless `R > 0` (the
#'   replicates resample the rows). Given with a fit, it must be the fit's
#'   data: other rows or columns are an error of class
#'   `calm_error_data_mismatch`, other values a warning of class
#'   `calm_warning_data_mismatch`. Needed for a graph.
#' @param cov Instead of `data`, a covariance matrix of the nodes (standard
#'   errors then use the fit's `n`; for a graph they are `NA`).
#' @param method `"local"` (default) or `"optimal"`; see Details.
#' @param R For a fit or graph: `0` (default) for the effects on the
#'   fit's covariance or `data`; a number of bootstrap replicates to run
#'   [bootstrap_edges()] on `data` with `learner` first and summarise over
#'   its graphs (see Uncertainty).
#' @param learner,... The learner and its arguments for `R > 0`, as in
#'   [bootstrap_edges()]. By default a fit's replicates are learned as the
#'   fit was: by the same function ([calm()], [boss()] or
#'   [exact_search()]) with the same arguments, background knowledge
#'   included; arguments given here replace the fit's, and another
#'   `learner` gets the arguments given here and the fit's knowledge. A
#'   graph's replicates use [calm()]. With `R = 0` there is no learner: an
#'   argument here (a misspelt one, say `methd =`) is an error naming it.
#' @param targets,target_index Intervention targets of the rows of `data`
#'   (see [intervention_targets()]), for a graph or a fit learned without
#'   them; a fit learned with targets, and a [bootstrap_edges()] result of
#'   interventional data, use their own (giving them again is an error).
#'   See Interventional data.
#' @param level Coverage of the confidence intervals of the effects, and of
#'   the percentile intervals of bootstrap summaries (default 0.95).
#' @section Interventional data: With intervention targets the rows come
#'   from several conditions, and the regressions on their pooled rows are
#'   biased: an experiment on `y`, or on a variable through which `x` may
#'   act on `y`, changes how `y` depends on `x`, and conditions with other
#'   means or other dependences between the adjustment set and `y` mix
#'   different regressions. So each regression is run within each
#'   condition (with its own intercept and its own coefficients for the
#'   adjustment set), on the conditions whose targets contain neither `y`
#'   nor any possible descendant of `x` that is a possible ancestor of `y`
#'   in the class; the conditions' estimates of the effect are then
#'   combined by their inverse variances (generalised least squares for
#'   several treatments), and the standard error is that of the
#'   combination. Experiments on `x` itself, on its parents, on the
#'   adjustment set or elsewhere cut only edges off the causal paths, so
#'   they leave the effect and the adjustment set valid and are used; an
#'   experiment on `x` removes its confounding and is the most informative.
#'   A variable a condition holds constant leaves that condition's set (it
#'   carries nothing); a condition in which `x` is constant, or which has
#'   too few rows for the regression, is left out. When no condition is
#'   left the effect is `NA`. This needs the rows: `data` (a fit keeps
#'   only the pooled covariance). Bootstrap replicates refit with the
#'   targets and resample within conditions.
#'   `inst/bench/bench_effects_interventional.R` measures the bias and
#'   coverage of the pooled and the within-condition estimates.
#' @section Uncertainty: Given a [bootstrap_edges()] result (which keeps each
#'   replicate's CPDAG and resampled rows), or `R > 0`, the possible effects
#'   are computed in every replicate's graph with coefficients refitted on
#'   that replicate's rows. The summary has one row per (`x`, `y`): the
#'   bounds of the multiset (its minimum and maximum) as their medians over
#'   replicates with percentile intervals (`min_lower`, `min_upper`,
#'   `max_lower`, `max_upper`), and `zero_share`, the share of replicates in
#'   which every possible effect is 0. The replicates run as futures under
#'   the same `future::plan()` as [bootstrap_edges()].
#' @return A data frame, one row per possible effect: `x`, `y`, `effect`,
#'   `set` (the parent set of `x` for `"local"`, the adjustment set for
#'   `"optimal"`, names separated by commas), `config` (which local
#'   orientation; rows of joint effects with the same `config` belong
#'   together), `is_unique` (`TRUE` when every orientation in the class
#'   gives the same estimate, so the class identifies the effect), `se`,
#'   `lower` and `upper` (standard error and confidence interval, see
#'   Details) and `possible_descendant` (`FALSE` when `y` is a descendant
#'   of `x` in no DAG of the class, where the effect is 0). The bootstrap
#'   summary is described under Uncertainty.
#' @references Maathuis, M. H., Kalisch, M. and Bühlmann, P. (2009).
#'   Estimating high-dimensional intervention effects from observational
#'   data. *Annals of Statistics* 37(6A), 3133-3164.
#'
#'   Nandy, P., Maathuis, M. H. and Richardson, T. S. (2017). Estimating the
#'   effect of joint interventions from observational data in sparse
#'   high-dimensional settings. *Annals of Statistics* 45(2), 647-674.
#'
#'   Witte, J., Henckel, L., Maathuis, M. H. and Didelez, V. (2020). On
#'   efficient adjustment in causal graphs. *JMLR* 21, 1-45.
#' @seealso [adjustment_set()], [bootstrap_edges()]
#' @examples
#' set.seed(1)
#' sem <- simulate_sem(6, k = 1.5, n = 500)
#' fit <- boss(sem$x)
#' # the fit keeps its covariance: no data needed
#' causal_effects(fit, "X1")
#' causal_effects(fit, "X1", "X6", method = "optimal")
#' # joint effects of two treatments
#' causal_effects(fit, c("X1", "X2"), "X6")
#' # uncertainty: the bounds over bootstrap graphs
#' bs <- bootstrap_edges(sem$x, R = 5, learner = boss, starts = 2)
#' causal_effects(bs, "X1", data = sem$x)
#' @export
causal_effects <- function(fit, x, y = NULL, data = NULL, cov = NULL,
                           method = c("local", "optimal"), R = 0, learner = NULL, ...,
                           targets = NULL, target_index = NULL, level = 0.95) {
  call <- environment()
  method <- match_choice(method, c("local", "optimal"), "method", call)
  R <- check_count(R, "R", call = call)
  level <- check_number(level, "level", lower = 0, upper = 1, lower_open = TRUE,
                        upper_open = TRUE, call = call)
  boot <- inherits(fit, "calm_bootstrap")
  if (boot || R == 0) check_effects_dots(list(...), learner, boot, call)
  if (boot || R > 0) {
    if (is.null(data)) {
      abort_arg("data", "is needed for bootstrap effects: the rows each replicate resamples (a fit keeps only their summary).",
                call = call)
    }
    if (!is.null(cov)) {
      abort_arg("cov", "is not used for bootstrap effects, which refit on the rows of {.arg data}; leave it out.",
                call = call)
    }
    if (!boot) {
      if (inherits(fit, "calm_fit")) data <- check_fit_data(fit, data, "data", call)
      rl <- replicate_learner(fit, learner, list(...), call)
      if (!is.null(targets)) rl$args[c("targets", "target_index")] <- list(targets, target_index)
      fit <- do.call(bootstrap_edges, c(list(data, R = R, learner = rl$learner), rl$args))
      targets <- target_index <- NULL
    }
    return(bootstrap_effects(fit, x, y, data, method, level, call, targets, target_index))
  }
  g <- effects_graph(fit, "fit", call)
  nm <- rownames(g)
  tg <- effects_targets(fit, targets, target_index, data, cov, nm, call)
  st <- effects_statistics(fit, data, cov, nm, call)
  if (!is.null(tg)) st$conds <- condition_statistics(st$x, tg)
  xs <- node_arg(x, nm, "x", call)
  ys <- if (is.null(y)) setdiff(seq_along(nm), xs) else node_arg(y, nm, "y", call)
  check_disjoint(xs, ys, nm, call)
  cpdag <- inherits(fit, "calm_fit") && is.null(fit[["knowledge"]])
  possible_effects(g, st, xs, ys, method, cpdag, level, call)
}

# Without bootstrap replicates nothing is passed on: an argument in `...`
# (a misspelt one, most likely) or a `learner` would go unused.
check_effects_dots <- function(dots, learner, boot, call) {
  why <- if (boot) {
    "there is none for a bootstrap result, which is summarised as it is"
  } else {
    "it runs only with {.arg R} > 0"
  }
  if (length(dots)) {
    nm <- names(dots) %||% rep("", length(dots))
    shown <- ifelse(nm == "", "(unnamed)", nm)
    cli::cli_abort(c("{.arg {shown}} {?is not an argument/are not arguments} of {.fn causal_effects}.",
                     i = paste0("Check the spelling: arguments in {.arg ...} go to the learner, and ", why, ".")),
                   class = c("calm_error_argument", "calm_error"), call = call)
  }
  if (!is.null(learner)) {
    abort_arg("learner", paste0("refits bootstrap replicates, and ", why, "."),
              call = call)
  }
}

# The statistics the effects are computed from: a covariance over the
# graph's nodes (`sigma`), the sample size behind it (`n`, NA when
# unknown) and, when it is on a standardized scale, the standard
# deviations that put effects back on the data's (`sd`). From `data` or
# `cov` when given, else from what the fit keeps.
effects_statistics <- function(fit, data, cov, nm, call) {
  if (!is.null(data) && !is.null(cov)) {
    abort_arg("cov", "must be NULL when {.arg data} is given.", call = call)
  }
  is_fit <- inherits(fit, "calm_fit")
  if (!is.null(data)) {
    x <- if (is_fit) check_fit_data(fit, data, "data", call) else sem_data(data, nm, "data", call)
    return(list(sigma = stats::cov(x), n = nrow(x), sd = NULL, x = x))
  }
  if (!is.null(cov)) {
    s <- check_covariance(cov, "cov", call = call)
    if (is.null(colnames(cov)) && ncol(s) == length(nm)) dimnames(s) <- list(nm, nm)
    missing_nodes <- setdiff(nm, colnames(s))
    if (length(missing_nodes)) {
      abort_arg("cov", "lacks the node{?s} {.val {missing_nodes}} of the graph.", call = call)
    }
    n <- if (is_fit && is.numeric(fit[["n"]])) fit[["n"]] else NA_real_
    return(list(sigma = s[nm, nm, drop = FALSE], n = n, sd = NULL))
  }
  st <- fit_covariance(fit)
  if (is.null(st)) {
    what <- if (is_fit) "this fit keeps no covariance (it was dropped)" else "a graph carries no data"
    abort_arg("data", paste0("is missing and ", what, "; give the data as {.arg data} (or a covariance as {.arg cov})."),
              call = call)
  }
  st
}
