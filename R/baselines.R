# The paper's baselines: GOLEM-NV-l1 and linear NOTEARS (C++ in
# src/golem.cpp, src/notears.cpp), and PC and GES through pcalg. Every one
# returns the package's fit object (new_calm_fit(), R/fit.R), so printing,
# conversion and metrics work on them as on calm().

#' GOLEM-NV with an l1 penalty
#'
#' The GOLEM-NV baseline of the paper ("GOLEM-NV-l1"; Ng, Ghassami and
#' Zhang, 2020): minimises, over a free weighted adjacency matrix `B` with
#' zero diagonal, the profiled Gaussian likelihood with non-equal noise
#' variances plus an l1 penalty and a soft acyclicity penalty,
#' \deqn{\frac{1}{2}\sum_i \log\big(((I-B)^\top \Sigma (I-B))_{ii}\big) -
#'   \log|\det(I-B)| + \lambda_1 \|B\|_1 + \lambda_2 h(B \circ B),}
#' with \eqn{h(A) = \mathrm{tr}(e^A) - d}, by `max_iter` steps of Adam from
#' `B = 0`. The estimate is then thresholded (`|B_ij| > weight_threshold`)
#' and, if it still has a cycle, the weakest edges on cycles are removed
#' until it is acyclic (the paper's post-processing; the removed edges are
#' kept in the fit's `removed`).
#'
#' The tuning parameters are collected by [golem_control()]; their defaults
#' are those of GOLEM's public code and paper for GOLEM-NV (`l1_weight =
#' 2e-3`, `lambda2 = 5`, `1e5` Adam steps with learning rate `1e-3`,
#' initialisation at zero) and the paper's threshold 0.1. GOLEM's authors
#' also suggest starting GOLEM-NV from the solution of GOLEM-EV (the
#' equal-variance likelihood \eqn{\frac{d}{2}\log\sum_i ((I-B)^\top \Sigma
#' (I-B))_{ii} - \log|\det(I-B)|} with `l1_weight = 2e-2`): `init = "ev"`
#' does that (doubling the run time), and `B_init` starts from any matrix.
#'
#' @param x Data: a numeric matrix or data frame, one column per variable
#'   (default `NULL`: give `cov` instead).
#' @param cov Instead of `x`, a covariance matrix (with `n = Inf` or `NULL`
#'   the population covariance: the paper's infinite-sample setting).
#' @param n Sample size behind `cov`; ignored by this learner except that it
#'   is stored in the fit.
#' @param standardize If `TRUE` (default) the learner works on the
#'   correlation matrix (standardized data).
#' @param control The tuning parameters: the result of [golem_control()]
#'   (or a list of its arguments by name).
#' @param B_init Optional starting matrix (`d x d`; default `NULL`, none);
#'   takes precedence over `control$init`.
#' @param verbose If `TRUE`, report progress at every trace row.
#' @param ... Fields of [golem_control()] by name, replacing those of
#'   `control` (e.g. `golem_nv(x, max_iter = 5000)`). The arguments this
#'   function took before [golem_control()] existed (`threshold`, now
#'   `weight_threshold`, and `iter`, now `max_iter`) still work, with a
#'   deprecation warning, for one release.
#' @return A `calm_fit` with `method = "golem_nv"`: `amat` the DAG, `B` the
#'   least-squares weights on it, `B_raw` GOLEM's own weights on it,
#'   `B_unthresholded` the weights before thresholding, `trace` (one row per
#'   `trace_every` steps: `round` is the step, `rho` the constant
#'   `lambda2`), `removed`, `settings` (`standardize`, `init`, which is
#'   `"user"` with `B_init`, and `control`, the [golem_control()] used),
#'   `time` (seconds).
#' @references Ng, I., Ghassami, A. and Zhang, K. (2020). On the role of
#'   sparsity and DAG constraints for learning linear DAGs. *NeurIPS*.
#' @seealso [golem_control()], [notears_linear()], [pc_pcalg()],
#'   [ges_pcalg()]
#' @examples
#' set.seed(1)
#' sem <- simulate_sem(5, k = 1)
#' fit <- golem_nv(cov = sem$sigma, control = golem_control(max_iter = 3000))
#' compare_graphs(fit, sem$B)
#' @export
golem_nv <- function(x = NULL, cov = NULL, n = NULL, standardize = TRUE,
                     control = golem_control(), B_init = NULL, verbose = FALSE, ...) {
  call <- match.call()
  env <- environment()
  check_flag(standardize)
  check_flag(verbose)
  refuse_targets(list(...), "golem_nv", environment())
  ctrl <- resolve_baseline_control(control, list(...), "golem_control", "golem_nv",
                                   golem_renamed, call = env)
  r <- resolve_covariance(x, cov, n, standardize)
  d <- ncol(r$sigma)
  init <- if (is.null(B_init)) ctrl[["init"]] else "user"
  B_init <- init_arg(B_init, d)
  reporter <- function(label) {
    if (!verbose) return(NULL)
    function(it, objective, h, edges) {
      cli::cli_inform("{label} step {it}: objective {signif(objective, 6)}, h {signif(h, 3)}, {edges} edge{?s}")
    }
  }
  run <- function(start, l1_weight, label, equal_variances) {
    cpp_golem_nv(r$sigma, start, l1_weight, ctrl[["lambda2"]], ctrl[["lr"]], ctrl[["max_iter"]],
                 ctrl[["trace_every"]], ctrl[["weight_threshold"]], reporter(label),
                 equal_variances)
  }
  t0 <- proc.time()[["elapsed"]]
  if (init == "ev") B_init <- run(B_init, ctrl[["ev_l1_weight"]], "GOLEM-EV", TRUE)[["B"]]
  res <- run(B_init, ctrl[["l1_weight"]], "GOLEM-NV", FALSE)
  if (!all(is.finite(res$B))) {
    # Adam diverged (too large a step): no graph can be read from NaN weights.
    cli::cli_abort(c("GOLEM-NV diverged: its weights are no longer finite.",
                     i = "Use a smaller {.arg lr} (now {ctrl[['lr']]}) or another {.arg B_init}."),
                   class = c("calm_error_diverged", "calm_error"), call = env)
  }
  post <- threshold_acyclic(set_node_names(res$B, r$names), ctrl[["weight_threshold"]])
  elapsed <- proc.time()[["elapsed"]] - t0
  tr <- res$trace
  trace <- data.frame(round = tr$iteration, rho = ctrl[["lambda2"]], h = tr$h,
                      objective = tr$objective, edges = tr$edges, seconds = tr$seconds,
                      likelihood = tr$likelihood)
  new_calm_fit(
    amat = post$B, sigma = r$sigma, n = r$n, B_raw = post$B, method = "golem_nv",
    settings = list(standardize = standardize, init = init, control = ctrl),
    trace = trace, removed = post$removed, converged = TRUE, time = elapsed, call = call,
    extra = c(data_summary(x, cov, standardize), list(
                 B_unthresholded = set_node_names(res$B, r$names),
                 objective = res$objective, h = res$h))
  )
}

#' Linear NOTEARS
#'
#' The NOTEARS baseline of the paper (Zheng, Aragam, Ravikumar and Xing,
#' 2018), linear least-squares version:
#' \deqn{\min_W \frac{1}{2}\mathrm{tr}\big((I-W)^\top \Sigma (I-W)\big) +
#'   \lambda_1 \|W\|_1 \quad \text{s.t.} \quad h(W \circ W) = 0,}
#' which equals \eqn{\frac{1}{2n}\|X - XW\|_F^2 + \lambda_1\|W\|_1} on
#' centred data, with \eqn{h(A) = \mathrm{tr}(e^A) - d}. As in the authors'
#' code, the constraint is handled by the augmented Lagrangian method (the
#' penalty `rho` starts at 1 and grows tenfold until `h` has fallen below a
#' quarter of its previous value; the multiplier is updated once per round),
#' `W` is split into nonnegative parts `W+ - W-` so that the l1 term is
#' smooth, and each subproblem is solved by L-BFGS-B (LBFGSpp's C++
#' implementation by default, R's own with
#' `notears_control(solver = "optim")`; objective and gradient are in C++). The
#' estimate is thresholded at `weight_threshold` (the paper uses 0.1) and
#' made acyclic if needed, as for [golem_nv()]. The tuning parameters are
#' collected by [notears_control()].
#'
#' On badly scaled data, such as non-standardized data from dense graphs
#' with weights up to 2, where variances reach 10^6, the subproblems are
#' hard for every L-BFGS-B: they may run to the iteration cap
#' (`lbfgsb_max_iter`). Such subproblems are counted in
#' `subproblems_at_limit` and give a warning. R's L-BFGS-B (version 2.3 of
#' the Fortran code) then stops much further from the optimum than SciPy's
#' (version 3.0, which the authors' code uses) or LBFGSpp's (the
#' *Reproducing the paper* vignette has the numbers).
#'
#' @inheritParams golem_nv
#' @param control The tuning parameters: the result of [notears_control()]
#'   (or a list of its arguments by name).
#' @param ... Fields of [notears_control()] by name, replacing those of
#'   `control`. The arguments this function took before [notears_control()]
#'   existed (`threshold`, now `weight_threshold`; `max_iter`, now
#'   `max_rounds`; and the list `lbfgsb`, now `lbfgsb_memory`,
#'   `lbfgsb_factr`, `lbfgsb_pgtol` and `lbfgsb_max_iter`) still work, with a
#'   deprecation warning, for one release.
#' @return A `calm_fit` with `method = "notears"`; `trace` has one row per
#'   round (`round`, `rho`, `h`, `objective`, `edges`, `seconds`, `alpha`,
#'   `loss`, `evaluations`), `converged` says whether `h <= h_tol` was
#'   reached, `W_unthresholded` holds the weights before thresholding,
#'   `subproblems` counts the L-BFGS-B subproblems solved and
#'   `subproblems_at_limit` those stopped by `lbfgsb_max_iter`,
#'   `settings` has `standardize` and `control`, the [notears_control()]
#'   used.
#' @references Zheng, X., Aragam, B., Ravikumar, P. and Xing, E. P. (2018).
#'   DAGs with NO TEARS: continuous optimization for structure learning.
#'   *NeurIPS*.
#' @seealso [notears_control()], [golem_nv()]
#' @examples
#' set.seed(1)
#' sem <- simulate_sem(5, k = 1)
#' fit <- notears_linear(cov = sem$sigma)
#' compare_graphs(fit, sem$B)
#' @export
notears_linear <- function(x = NULL, cov = NULL, n = NULL, standardize = TRUE,
                           control = notears_control(), verbose = FALSE, ...) {
  call <- match.call()
  env <- environment()
  check_flag(standardize)
  check_flag(verbose)
  refuse_targets(list(...), "notears_linear", environment())
  ctrl <- resolve_baseline_control(control, list(...), "notears_control", "notears_linear",
                                   notears_renamed, call = env)
  r <- resolve_covariance(x, cov, n, standardize)
  report <- if (verbose) {
    function(round, rho, h, edges) {
      cli::cli_inform("NOTEARS round {round}: rho {signif(rho, 3)}, h {signif(h, 3)}, {edges} edge{?s}")
    }
  }
  t0 <- proc.time()[["elapsed"]]
  res <- cpp_notears_linear(r$sigma, ctrl[["l1_weight"]], ctrl[["max_rounds"]], ctrl[["h_tol"]],
                            ctrl[["rho_max"]], ctrl[["weight_threshold"]], ctrl[["lbfgsb_memory"]],
                            ctrl[["lbfgsb_factr"]], ctrl[["lbfgsb_pgtol"]],
                            ctrl[["lbfgsb_max_iter"]], ctrl[["solver"]], report)
  post <- threshold_acyclic(set_node_names(res$W, r$names), ctrl[["weight_threshold"]])
  elapsed <- proc.time()[["elapsed"]] - t0
  tr <- res$trace
  trace <- data.frame(round = tr$round, rho = tr$rho, h = tr$h, objective = tr$objective,
                      edges = tr$edges, seconds = tr$seconds, alpha = tr$alpha, loss = tr$loss,
                      evaluations = tr$evaluations)
  if (!res$converged) {
    h_tol <- ctrl[["h_tol"]]
    cli::cli_warn(c("NOTEARS stopped with h = {signif(res$h, 3)} > {.arg h_tol} = {h_tol}.",
                    i = "Reached {if (res$rho >= ctrl[['rho_max']]) 'rho_max' else 'max_rounds'}."))
  }
  if (res$subproblems_at_limit > 0L) {
    cap <- ctrl[["lbfgsb_max_iter"]]
    cli::cli_warn(c(
      "L-BFGS-B stopped at its iteration cap ({.arg lbfgsb_max_iter} = {cap}) in {res$subproblems_at_limit} of {res$subproblems} NOTEARS subproblem{?s}; the result may be far from a local optimum.",
      i = "On badly scaled data, standardize or raise {.code notears_control(lbfgsb_max_iter = )}."))
  }
  new_calm_fit(
    amat = post$B, sigma = r$sigma, n = r$n, B_raw = post$B, method = "notears",
    settings = list(standardize = standardize, control = ctrl),
    trace = trace, removed = post$removed, converged = res$converged, time = elapsed,
    call = call,
    extra = c(data_summary(x, cov, standardize), list(
                 W_unthresholded = set_node_names(res$W, r$names), h = res$h, rho = res$rho,
                 evaluations = res$evaluations, subproblems = res$subproblems,
                 subproblems_at_limit = res$subproblems_at_limit))
  )
}

#' PC and GES through pcalg
#'
#' Thin wrappers around the PC algorithm with Fisher-z tests
#' ([pcalg::pc()] with [pcalg::gaussCItest()]) and Greedy Equivalence
#' Search with the BIC-type l0-penalised Gaussian score ([pcalg::ges()]
#' with `GaussL0penObsScore`, penalty `lambda = log(n) / 2` times
#' `penalty_discount`), the discrete
#' baselines of the paper (which ran Tetrad's PC and FGES). Both work from
#' the covariance matrix alone, so `cov` and `n` may replace the data; GES
#' is given the scatter matrix `n * cov` directly. Both return CPDAGs
#' (fits with `is_cpdag = TRUE`): in the fit's `amat`, `amat[i, j] = 1,
#' amat[j, i] = 0` is `i -> j` and a mutual pair an undirected edge (PC
#' also encodes orientation conflicts as mutual pairs).
#'
#' With a population covariance (`n = Inf`) both tests and score need a
#' finite sample size; `n_inf` (default `1e9`) is used in its place, large
#' enough for population correlations and small enough for pcalg's integer
#' sample counts.
#'
#' pcalg is a suggested package: these functions stop with a clear error
#' when it is not installed.
#'
#' @inheritParams golem_nv
#' @param n Sample size behind `cov` (required for finite-sample tests;
#'   `NULL` or `Inf` means a population covariance).
#' @param standardize Kept for a uniform interface: PC uses correlations
#'   and the Gaussian BIC score is scale invariant, so it changes nothing.
#' @param alpha Significance level of PC's conditional independence tests.
#' @param lambda GES's penalty per parameter; default
#'   `penalty_discount * log(n) / 2`.
#' @param penalty_discount Multiplies the BIC penalty `log(n) / 2` when
#'   `lambda` is not given: 1 (default) is BIC, as pcalg runs it; 2 is the
#'   default of Tetrad's `sem-bic` score, which the paper's FGES runs used
#'   (the defaults of the other learners: [select_penalty()]).
#' @param n_inf Sample size used for a population covariance (default
#'   `1e9`).
#' @param ... Further arguments to [pcalg::pc()] or [pcalg::ges()].
#' @return A `calm_fit` (`method = "pc"` or `"ges"`, `is_cpdag = TRUE`);
#'   the pcalg result is kept as `pcalg_fit`.
#' @references Spirtes, P., Glymour, C. and Scheines, R. (2000).
#'   *Causation, Prediction, and Search*. Chickering, D. M. (2002). Optimal
#'   structure identification with greedy search. *JMLR*, 3, 507-554.
#' @examplesIf requireNamespace("pcalg", quietly = TRUE)
#' set.seed(1)
#' sem <- simulate_sem(6, k = 1, n = 2000)
#' compare_graphs(pc_pcalg(sem$x), sem$B)
#' compare_graphs(ges_pcalg(sem$x), sem$B)
#' @export
pc_pcalg <- function(x = NULL, cov = NULL, n = NULL, alpha = 0.01, standardize = TRUE,
                     n_inf = 1e9, ...) {
  call <- match.call()
  rlang_check_installed("pcalg")
  check_number(alpha, lower = 0, upper = 1, lower_open = TRUE, upper_open = TRUE)
  check_flag(standardize)
  check_number(n_inf, lower = 4, upper = .Machine$integer.max)
  refuse_targets(list(...), "pc_pcalg", environment())
  check_pcalg_dots(list(...), pcalg::pc, "pc", c("suffStat", "indepTest", "alpha", "labels"))
  r <- resolve_covariance(x, cov, n, standardize = FALSE)
  if (is.finite(r$n) && r$n <= 3) {
    # Fisher's z needs n - |S| - 3 > 0: with n <= 3 every test would say
    # "independent" and PC would return an empty graph whatever the data.
    size <- if (is.null(x)) paste("=", r$n, "is") else paste("has", r$n, "rows,")
    abort_arg(if (is.null(x)) "n" else "x",
              "{size} too few for PC's Fisher-z tests (n > 3 is needed).",
              call = environment())
  }
  n_used <- if (is.finite(r$n)) r$n else n_inf
  t0 <- proc.time()[["elapsed"]]
  fit <- pcalg::pc(suffStat = list(C = stats::cov2cor(r$sigma), n = n_used),
                   indepTest = pcalg::gaussCItest, alpha = alpha, labels = r$names, ...)
  elapsed <- proc.time()[["elapsed"]] - t0
  amat <- as_amat(fit)
  amat <- amat[r$names, r$names, drop = FALSE]
  new_calm_fit(amat, sigma = r$sigma, n = r$n, method = "pc",
               settings = list(alpha = alpha, n_used = n_used), time = elapsed, call = call,
               is_cpdag = TRUE, extra = c(list(pcalg_fit = fit), data_summary(x, cov, FALSE)))
}

#' @rdname pc_pcalg
#' @export
ges_pcalg <- function(x = NULL, cov = NULL, n = NULL, lambda = NULL, penalty_discount = 1,
                      standardize = TRUE, n_inf = 1e9, ...) {
  call <- match.call()
  rlang_check_installed("pcalg")
  check_flag(standardize)
  check_number(penalty_discount, lower = 0, lower_open = TRUE)
  check_number(n_inf, lower = 4, upper = .Machine$integer.max)
  refuse_targets(list(...), "ges_pcalg", environment())
  check_pcalg_dots(list(...), pcalg::ges, "ges", "score")
  r <- resolve_covariance(x, cov, n, standardize = FALSE)
  n_used <- if (is.finite(r$n)) r$n else n_inf
  int_max <- .Machine$integer.max
  if (n_used > int_max) {
    abort_arg("n", "must be at most {int_max} for pcalg's GES score.", call = environment())
  }
  if (is.null(lambda)) {
    # the one penalty rule (resolve_penalty()); pcalg counts the penalty per
    # edge over all n rows, not per sample
    pen <- resolve_penalty(penalty_discount, n_used, ncol(r$sigma))
    lambda <- pen$discount * log(n_used) / 2
  }
  check_number(lambda, lower = 0)
  t0 <- proc.time()[["elapsed"]]
  score <- gauss_score_from_cov(r$sigma, n_used, lambda)
  fit <- pcalg::ges(score, ...)
  elapsed <- proc.time()[["elapsed"]] - t0
  d <- ncol(r$sigma)
  amat <- matrix(0, d, d, dimnames = list(r$names, r$names))
  parents <- fit$essgraph$.in.edges
  for (j in seq_len(d)) amat[parents[[j]], j] <- 1
  new_calm_fit(amat, sigma = r$sigma, n = r$n, method = "ges",
               settings = list(lambda = lambda, n_used = n_used), time = elapsed, call = call,
               is_cpdag = TRUE, extra = c(list(pcalg_fit = fit), data_summary(x, cov, FALSE)))
}

# pcalg's l0-penalised Gaussian score built from a covariance matrix rather
# than data. Its C++ score reads only the scatter matrix, the sample counts
# and lambda (format "scatter"), so a placeholder data set of d + 2 rows
# makes the object and the sufficient statistics of the real data replace
# its statistics: scatter = n * sigma for centred data (the intercept
# column's entries are unused because intercept = FALSE).
gauss_score_from_cov <- function(sigma, n, lambda) {
  d <- ncol(sigma)
  placeholder <- rbind(diag(d), matrix(0, 2L, d))
  colnames(placeholder) <- colnames(sigma)
  generator <- methods::getRefClass("GaussL0penObsScore", where = asNamespace("pcalg"))
  score <- generator$new(placeholder, lambda = lambda, intercept = FALSE, format = "scatter")
  scatter <- matrix(0, d + 1L, d + 1L)
  scatter[seq_len(d), seq_len(d)] <- n * unname(sigma)
  scatter[d + 1L, d + 1L] <- n
  pp <- score$pp.dat
  pp$scatter <- list(scatter)
  pp$scatter.index <- rep(1L, d)
  pp$data.count <- rep(as.integer(n), d)
  pp$total.data.count <- as.integer(n)
  score$pp.dat <- pp
  score
}

# Arguments passed on to a pcalg function through `...`: named, known to it,
# and not among those the wrapper sets itself (pcalg's own error would not
# say which argument it means).
check_pcalg_dots <- function(dots, fun, fun_name, reserved, call = parent.frame()) {
  if (length(dots) == 0L) return(invisible(TRUE))
  nm <- names(dots)
  if (is.null(nm) || any(nm == "")) {
    abort_arg("...", "must hold named arguments of {.fn pcalg::{fun_name}}.", call = call)
  }
  taken <- intersect(nm, reserved)
  if (length(taken)) {
    abort_arg(taken[1], "is set by this function; it cannot be passed to {.fn pcalg::{fun_name}} in {.arg ...}.",
              call = call)
  }
  unknown <- setdiff(nm, setdiff(names(formals(fun)), "..."))
  if (length(unknown)) {
    abort_arg(unknown[1], "is not an argument of {.fn pcalg::{fun_name}}.", call = call)
  }
  invisible(TRUE)
}

# Shared post-processing of the continuous baselines: drop |w| <= threshold,
# then remove the weakest edges on cycles until the graph is a DAG.
threshold_acyclic <- function(W, threshold) {
  W[abs(W) <= threshold] <- 0
  diag(W) <- 0
  make_acyclic(W)
}

init_arg <- function(B_init, d, call = parent.frame()) {
  if (is.null(B_init)) return(matrix(0, d, d))
  B_init <- check_numeric_matrix(B_init, "B_init", call = call)
  if (nrow(B_init) != d || ncol(B_init) != d) {
    abort_arg("B_init", "must be a {d} x {d} matrix, not {nrow(B_init)} x {ncol(B_init)}.",
              call = call)
  }
  unname(B_init)
}
