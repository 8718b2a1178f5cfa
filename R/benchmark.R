# Benchmark grids (paper Tables 2-8): methods x settings x replicates, run
# through the future framework so that the user's future::plan() decides
# where the runs go, with one tidy row per run and a formatter for the
# paper's "mean +/- se" layout.

# The methods benchmark_methods() knows by name. Each entry: the learner's
# name and the arguments that make the variant. The calm() variants are
# looked up at run time (calm() lives in another file of the package).
benchmark_registry <- list(
  calm = list(fun = "calm", args = list()),
  # the paper's CALM: no refinement, the whole problem in one fit
  calm_paper = list(fun = "calm", args = list(refine = "none", split_components = FALSE)),
  calm_stg = list(fun = "calm", args = list(gate = "stg")),
  calm_tanh = list(fun = "calm", args = list(gate = "tanh")),
  calm_soft = list(fun = "calm", args = list(constraint = "soft")),
  calm_nomoral = list(fun = "calm", args = list(moral = "none")),
  calm_soft_nomoral = list(fun = "calm", args = list(constraint = "soft", moral = "none")),
  calm_colide = list(fun = "calm", args = list(score = "colide")),
  golem_nv = list(fun = "golem_nv", args = list()),
  # GOLEM-NV started from the GOLEM-EV solution, as GOLEM's authors run it
  golem_nv_ev = list(fun = "golem_nv", args = list(init = "ev")),
  notears = list(fun = "notears_linear", args = list()),
  # NOTEARS with R's L-BFGS-B, as the stored NOTEARS rows before
  # notears_control(solver = ) existed
  notears_optim = list(fun = "notears_linear", args = list(solver = "optim")),
  # Closer to the paper's Tetrad runs than pcalg's defaults: order-independent
  # (majority rule) v-structures for PC, Tetrad's sem-bic penalty discount 2
  # for GES.
  pc = list(fun = "pc_pcalg", args = list(maj.rule = TRUE)),
  ges = list(fun = "ges_pcalg", args = list(penalty_discount = 2)),
  ges1 = list(fun = "ges_pcalg", args = list(penalty_discount = 1)),
  ges4 = list(fun = "ges_pcalg", args = list(penalty_discount = 4)),
  # BIC with Tetrad's and causal-learn's default penalty discount 2
  boss = list(fun = "boss", args = list())
)
# The ablations as the paper ran them: each calm() variant above without the
# refinement and in one fit (calm_paper_stg, ...), so that the gate, the
# constraint, the moral graph or the score is what differs.
benchmark_registry <- c(benchmark_registry, local({
  variants <- c("stg", "tanh", "soft", "nomoral", "soft_nomoral", "colide")
  stats::setNames(lapply(variants, function(v) {
    list(fun = "calm", args = c(benchmark_registry[[paste0("calm_", v)]]$args,
                                benchmark_registry$calm_paper$args))
  }), paste0("calm_paper_", variants))
}))

#' Run a benchmark grid
#'
#' Runs every method on every setting for `reps` replicates and scores each
#' estimate against the true DAG: SHD between CPDAGs ([shd_cpdag()]),
#' skeleton precision, recall and F1 ([skeleton_metrics()]), and run time.
#' This is how the package reproduces the paper's Tables 2 to 8; see the
#' scripts in `system.file("bench", "paper", package = "calm")`.
#'
#' @section Data:
#' Each replicate draws an ER graph and a linear Gaussian SEM with
#' [simulate_sem()] (noise ratio 16, weights in `[-2, -0.5] U [0.5, 2]`).
#' With `n = Inf` the methods get the population covariance (the paper's
#' infinite-sample setting). With a finite `n` they get the sample
#' covariance of `n` draws, which is generated directly from its exact
#' distribution (`Wishart(n - 1, Sigma) / n`, the maximum-likelihood
#' covariance of centred data) instead of from an `n x d` data matrix: every
#' method here uses the data only through that matrix, and `n = 10^6` then
#' costs nothing. With `standardized = TRUE` the methods are asked to
#' standardize (`standardize = TRUE`), so they work on the correlation
#' matrix.
#'
#' @section Reproducibility and parallel runs:
#' The runs are spread with [future.apply::future_lapply()], one future per
#' (setting, replicate, method), so `future::plan()` decides whether they run
#' sequentially, on local workers or on a cluster. Each run seeds R's
#' generator from a seed derived from `seed`, the graph family (`d`,
#' `graph`, `k`, `edges`) and the replicate number, and nothing else: the
#' results do not depend on the plan or on the order of the runs, and
#' settings that differ only in `n` or `standardized` share their graphs,
#' so their comparison is paired, as are the methods within a setting.
#' Progress is reported through progressr: wrap the call in
#' `progressr::with_progress()` (or set `progressr::handlers(global =
#' TRUE)`) to see it.
#'
#' @param methods A character vector of method names, or a named list whose
#'   elements are such names or functions. Known names: `"calm"`,
#'   `"calm_stg"`, `"calm_tanh"` (gates), `"calm_soft"` (soft constraint),
#'   `"calm_nomoral"`, `"calm_soft_nomoral"` (no moral graph),
#'   `"calm_colide"` (CoLiDE score), `"golem_nv"` ([golem_nv()], started
#'   from zero), `"golem_nv_ev"` (started from the GOLEM-EV solution,
#'   `golem_control(init = "ev")`, the procedure of GOLEM's authors),
#'   `"notears"` ([notears_linear()]; `"notears_optim"` solves its
#'   subproblems with R's L-BFGS-B, `notears_control(solver = "optim")`),
#'   `"pc"`, `"ges"` ([pc_pcalg()],
#'   [ges_pcalg()], need pcalg; `"ges1"` and `"ges4"` use penalty discounts
#'   1 and 4), `"calm_paper"` (CALM as in the paper, `refine = "none"` and
#'   `split_components = FALSE`; `"calm"` is calm's default, and the variants
#'   above refine their graphs as it does), `"calm_paper_stg"`,
#'   `"calm_paper_tanh"`, `"calm_paper_soft"`, `"calm_paper_nomoral"`,
#'   `"calm_paper_soft_nomoral"`, `"calm_paper_colide"` (those variants as
#'   the paper ran them, without the refinement), `"boss"` ([boss()], BIC with penalty
#'   discount 2, 10 starts). The paper ran Tetrad's PC and FGES; to come
#'   closer to Tetrad's defaults, `"pc"` orients v-structures by the
#'   majority rule (`maj.rule = TRUE`) and `"ges"` uses Tetrad's `sem-bic`
#'   penalty discount 2 (`penalty_discount = 2`); `method_args` overrides
#'   both. A function is called as `f(cov = , n = ,
#'   standardize = , sem = )` (`sem` is the simulated [simulate_sem()]
#'   object, truth included) and must return a fit, a graph or an
#'   adjacency matrix.
#' @param settings A data frame, one row per setting, with column `d` and
#'   optionally `graph` (only `"er"`; default), `k` (edges per node, default
#'   1), `n` (sample size, `Inf` allowed, default `Inf`), `standardized`
#'   (default `TRUE`) and `edges` (`"expected"`, default, or `"exact"`; see
#'   [simulate_dag()]).
#' @param reps Number of replicates per setting (default 10).
#' @param replicates Which replicates to run: a vector of distinct replicate
#'   numbers, by default `seq_len(reps)` (then `reps` is ignored). A
#'   replicate's data depend only on `seed`, the setting and the replicate
#'   number, so a subset gives exactly those rows of the full run: a long
#'   grid can be run in chunks (e.g. `replicates = 1:5`, later `6:10`) and
#'   the chunks bound with [rbind()].
#' @param seed Base seed (an integer).
#' @param method_args A named list (default empty): for a method name, a
#'   list of further arguments for that method (e.g.
#'   `list(golem_nv = list(control = golem_control(max_iter = 1e4)))`).
#' @param moral For the `calm` variants that use a moral graph: `"default"`
#'   lets [calm()] estimate it from the covariance (as in the paper's Tables
#'   5 and 7), `"true"` passes the true moral graph.
#' @param keep_fits If `TRUE` (default `FALSE`), the fits are returned too (as the attribute
#'   `"fits"`, a list parallel to the rows).
#' @return A data frame with one row per run: `method`, `setting` (row of
#'   `settings`), `d`, `graph`, `k`, `n`, `standardized`, `rep`, `seed`,
#'   `shd`, `precision`, `recall`, `f1`, `n_est`, `n_true`, `time`
#'   (seconds of the method alone), `error` (`NA`, or the message of an
#'   error the method raised, or why the run did not finish when its
#'   worker died, with a warning; its metrics are then `NA`) and `warning`
#'   (`NA`, or the warnings the method gave, which are not shown
#'   otherwise). It has class
#'   `calm_benchmark`; see [format_table()].
#' @seealso [format_table()]
#' @examples
#' settings <- data.frame(d = 5, k = 1, n = c(Inf, 500))
#' res <- benchmark_methods(c("golem_nv", "notears"), settings, reps = 2,
#'                          method_args = list(golem_nv = list(
#'                            control = golem_control(max_iter = 2000))))
#' res[, c("method", "n", "rep", "shd", "precision", "recall")]
#' format_table(res)
#' @export
benchmark_methods <- function(methods, settings, reps = 10, seed = 1, method_args = list(),
                              moral = c("default", "true"), keep_fits = FALSE,
                              replicates = NULL) {
  methods <- methods_arg(methods)
  settings <- settings_arg(settings)
  replicates <- if (is.null(replicates)) {
    seq_len(check_count(reps, min = 1))
  } else {
    replicates_arg(replicates)
  }
  seed <- check_count(seed, max = .Machine$integer.max)
  moral <- match_choice(moral, c("default", "true"), "moral", environment())
  check_flag(keep_fits)
  if (!is.list(method_args) || (length(method_args) && (is.null(names(method_args)) ||
      !all(names(method_args) %in% names(methods))))) {
    abort_arg("method_args", "must be a list named by methods in {.arg methods}.",
              call = environment())
  }
  tasks <- expand.grid(method = seq_along(methods), rep = replicates,
                       setting = seq_len(nrow(settings)), KEEP.OUT.ATTRS = FALSE)
  p <- progressr::progressor(steps = nrow(tasks))
  run_task <- function(i) {
    task <- tasks[i, ]
    s <- settings[task$setting, , drop = FALSE]
    name <- names(methods)[task$method]
    out <- benchmark_one(methods[[task$method]], name, s, task$rep, seed,
                         method_args[[name]], moral, keep_fits)
    p(sprintf("%s, setting %d, rep %d", name, task$setting, task$rep))
    out
  }
  # one future per run: a worker that dies loses only its run, reported
  # as that run's error
  done <- run_tasks(nrow(tasks), run_task)
  runs <- lapply(seq_len(nrow(tasks)), function(i) {
    if (is.na(done$failed[i])) return(done$values[[i]])
    task <- tasks[i, ]
    lost_run(names(methods)[task$method], settings[task$setting, , drop = FALSE], task$rep, seed,
             done$failed[i])
  })
  lost <- which(!is.na(done$failed))
  if (length(lost)) {
    cli::cli_warn(c("{length(lost)} of {nrow(tasks)} run{?s} did not finish because {?its/their} worker failed; the other runs are kept.",
                    i = "Their rows have the reason in {.field error}: {done$failed[lost[1]]}"),
                  class = c("calm_warning_failed", "calm_warning"))
  }
  res <- do.call(rbind, lapply(runs, `[[`, "row"))
  res <- res[order(res$setting, res$rep, match(res$method, names(methods))), , drop = FALSE]
  rownames(res) <- NULL
  if (keep_fits) {
    key <- vapply(runs, function(r) paste(r$row$method, r$row$setting, r$row$rep), "")
    attr(res, "fits") <- lapply(runs, `[[`, "fit")[match(paste(res$method, res$setting, res$rep), key)]
  }
  attr(res, "methods") <- names(methods)
  class(res) <- c("calm_benchmark", "data.frame")
  res
}

# The row of a run whose worker died: its error says so, its metrics are NA.
lost_run <- function(name, s, rep, base_seed, why) {
  row <- data.frame(method = name, setting = s$setting, d = s$d, graph = s$graph, k = s$k,
                    n = s$n, standardized = s$standardized, rep = rep,
                    seed = benchmark_seed(base_seed, s, rep), shd = NA_integer_,
                    precision = NA_real_, recall = NA_real_, f1 = NA_real_, n_est = NA_integer_,
                    n_true = NA_integer_, time = NA_real_, error = why, warning = NA_character_,
                    stringsAsFactors = FALSE)
  list(row = row, fit = NULL)
}

# One run: simulate the replicate's data, run the method, score it.
benchmark_one <- function(method, name, s, rep, base_seed, args, moral, keep_fit) {
  task_seed <- benchmark_seed(base_seed, s, rep)
  with_local_seed(task_seed, {
    sem <- simulate_sem(s$d, k = s$k, n = Inf, edges = s$edges)
    S <- if (is.finite(s$n)) {
      stats::rWishart(1L, s$n - 1, sem$sigma)[, , 1L] / s$n
    } else {
      sem$sigma
    }
    dimnames(S) <- dimnames(sem$sigma)
    fit <- NULL
    warnings <- character()
    t0 <- proc.time()[["elapsed"]]
    err <- tryCatch({
      withCallingHandlers(
        fit <- run_method(method, name, S, s$n, s$standardized, sem, args, moral),
        warning = function(w) {
          warnings <<- c(warnings, conditionMessage(w))
          invokeRestart("muffleWarning")
        }
      )
      NA_character_
    }, error = function(e) conditionMessage(e))
    elapsed <- proc.time()[["elapsed"]] - t0
  })
  metrics <- if (is.na(err)) {
    tryCatch(compare_graphs(fit, sem$B), calm_error_argument = function(e) {
      abort_arg("methods", "has method {.val {name}}, whose result cannot be compared with the true graph: {conditionMessage(e)}",
                call = NULL)
    })
  } else {
    data.frame(shd = NA_integer_, precision = NA_real_, recall = NA_real_, f1 = NA_real_,
               n_est = NA_integer_, n_true = as.integer(sum(sem$B != 0)))
  }
  row <- data.frame(method = name, setting = s$setting, d = s$d, graph = s$graph, k = s$k,
                    n = s$n, standardized = s$standardized, rep = rep, seed = task_seed,
                    shd = metrics$shd, precision = metrics$precision, recall = metrics$recall,
                    f1 = metrics$f1, n_est = metrics$n_est, n_true = metrics$n_true,
                    time = elapsed, error = err,
                    warning = if (length(warnings)) paste(unique(warnings), collapse = " | ") else NA_character_,
                    stringsAsFactors = FALSE)
  list(row = row, fit = if (keep_fit) fit)
}

run_method <- function(method, name, S, n, standardized, sem, args, moral) {
  if (is.function(method)) {
    return(do.call(method, c(list(cov = S, n = n, standardize = standardized, sem = sem), args)))
  }
  entry <- benchmark_registry[[method]]
  fun <- get0(entry$fun, envir = asNamespace("calm"), mode = "function", inherits = FALSE)
  if (is.null(fun)) {
    cli::cli_abort("Method {.val {name}} needs {.fn {entry$fun}}, which this build of calm does not have.",
                   class = c("calm_error_dependency", "calm_error"), call = NULL)
  }
  call_args <- list(cov = S, n = n, standardize = standardized)
  if (entry$fun == "calm" && moral == "true" && is.null(entry$args$moral)) {
    call_args$moral <- moral_graph(sem$B, output = "matrix")
  }
  call_args <- utils::modifyList(utils::modifyList(call_args, entry$args), as.list(args))
  do.call(fun, call_args)
}

# A seed that depends only on the base seed, the graph family and the
# replicate: a polynomial hash of their text, reduced below 2^31 - 1.
benchmark_seed <- function(base_seed, s, rep) {
  key <- paste(base_seed, s$d, s$graph, format(s$k, digits = 15), s$edges, rep, sep = "|")
  h <- 0
  for (code in utf8ToInt(key)) h <- (h * 131 + code) %% 2147483629
  as.integer(h) + 1L
}

replicates_arg <- function(replicates, call = parent.frame()) {
  ok <- is.numeric(replicates) && length(replicates) >= 1L && !anyNA(replicates) &&
    all(is.finite(replicates)) && all(replicates >= 1) && all(replicates == round(replicates)) &&
    !anyDuplicated(replicates) && all(replicates <= .Machine$integer.max)
  if (!ok) {
    abort_arg("replicates", "must be distinct positive whole numbers (replicate numbers).",
              call = call)
  }
  as.integer(replicates)
}

methods_arg <- function(methods, call = parent.frame()) {
  known <- names(benchmark_registry)
  if (is.character(methods)) {
    methods <- stats::setNames(as.list(methods), methods)
  }
  if (!is.list(methods) || length(methods) == 0L) {
    abort_arg("methods", "must be a character vector of method names or a named list.",
              call = call)
  }
  nm <- names(methods)
  if (is.null(nm) || any(nm == "" | is.na(nm)) || anyDuplicated(nm)) {
    abort_arg("methods", "must have unique, non-empty names.", call = call)
  }
  for (k in seq_along(methods)) {
    m <- methods[[k]]
    if (is.function(m)) next
    if (!is.character(m) || length(m) != 1L || !m %in% known) {
      abort_arg("methods", "has an unknown method {.val {format(m)}}; known: {.val {known}}.",
                call = call)
    }
  }
  methods
}

settings_arg <- function(settings, call = parent.frame()) {
  if (!is.data.frame(settings) || nrow(settings) == 0L || !"d" %in% names(settings)) {
    abort_arg("settings", "must be a data frame with a column {.field d} and at least one row.",
              call = call)
  }
  defaults <- list(graph = "er", k = 1, n = Inf, standardized = TRUE, edges = "expected")
  for (col in names(defaults)) {
    if (!col %in% names(settings)) settings[[col]] <- defaults[[col]]
  }
  settings$graph <- as.character(settings$graph)
  settings$edges <- as.character(settings$edges)
  if (!all(settings$graph == "er")) {
    abort_arg("settings", "column {.field graph} supports only {.val er}.", call = call)
  }
  if (!all(settings$edges %in% c("expected", "exact"))) {
    abort_arg("settings", "column {.field edges} must be {.val expected} or {.val exact}.",
              call = call)
  }
  ok_d <- is.numeric(settings$d) && all(!is.na(settings$d) & settings$d >= 2 &
                                          settings$d == round(settings$d))
  if (!ok_d) abort_arg("settings", "column {.field d} must hold whole numbers >= 2.", call = call)
  if (!is.numeric(settings$k) || anyNA(settings$k) || any(settings$k <= 0) ||
      any(settings$k * settings$d > settings$d * (settings$d - 1) / 2)) {
    abort_arg("settings", "column {.field k} must be positive and at most (d - 1) / 2.",
              call = call)
  }
  if (!is.numeric(settings$n) || anyNA(settings$n) ||
      any(is.finite(settings$n) & (settings$n < 2 | settings$n != round(settings$n))) ||
      any(settings$n == -Inf)) {
    abort_arg("settings", "column {.field n} must hold whole numbers >= 2 or {.val Inf}.",
              call = call)
  }
  if (any(is.finite(settings$n) & settings$n <= settings$d)) {
    abort_arg("settings", "column {.field n} must exceed {.field d}: a sample covariance of n <= d observations is singular.",
              call = call)
  }
  if (!is.logical(settings$standardized) || anyNA(settings$standardized)) {
    abort_arg("settings", "column {.field standardized} must be TRUE or FALSE.", call = call)
  }
  settings$d <- as.integer(settings$d)
  settings$setting <- seq_len(nrow(settings))
  settings
}

#' Format benchmark results in the paper's layout
#'
#' Averages each metric over the replicates and formats it as "mean +/- se"
#' (standard error: standard deviation over the replicates divided by the
#' square root of their number), one row per method and one column per
#' metric and setting, as in the paper's tables. Runs that failed (`error`
#' not `NA`) are left out of the averages and counted in `failed`.
#'
#' @param x The result of [benchmark_methods()] (or a data frame with its
#'   columns).
#' @param metrics Metrics to show, among `"shd"`, `"precision"`, `"recall"`,
#'   `"f1"`, `"time"` (default the first three).
#' @param digits Decimal places per metric: a named vector; by default 1 for
#'   SHD and time, 2 otherwise, as in the paper.
#' @param pm The separator between mean and standard error (default: a
#'   plus-minus sign between two spaces).
#' @return A data frame of character columns: `method`, then one column per
#'   setting and metric, named `"<setting> | <metric>"`, with the setting
#'   described as in `"d=50 ER1 n=Inf std"`; a final column `failed` when
#'   any run failed. The numeric summary (`method`, setting columns,
#'   `metric`, `mean`, `se`, `runs`) is attached as the attribute
#'   `"summary"`.
#' @seealso [benchmark_methods()]
#' @examples
#' res <- benchmark_methods("notears", data.frame(d = 5), reps = 2)
#' format_table(res)
#' @export
format_table <- function(x, metrics = c("shd", "precision", "recall"),
                         digits = c(shd = 1, precision = 2, recall = 2, f1 = 2, time = 1),
                         pm = " \u00b1 ") {
  known <- c("shd", "precision", "recall", "f1", "time")
  if (!is.character(metrics) || length(metrics) == 0L || anyNA(metrics) ||
      !all(metrics %in% known)) {
    abort_arg("metrics", "must name metrics among {.val {known}}.", call = environment())
  }
  metrics <- unique(metrics)
  if (!is.numeric(digits) || is.null(names(digits)) || anyNA(digits) || any(digits < 0) ||
      any(digits != round(digits))) {
    abort_arg("digits", "must be a named vector of whole numbers >= 0, e.g. {.code c(shd = 1)}.",
              call = environment())
  }
  needed <- c("method", "d", "k", "n", "standardized", "rep", metrics)
  if (!is.data.frame(x) || !all(needed %in% names(x))) {
    abort_arg("x", "must be the result of {.fn benchmark_methods}.", call = environment())
  }
  if (!is.character(pm) || length(pm) != 1L) abort_arg("pm", "must be a single string.",
                                                       call = environment())
  if (!"graph" %in% names(x)) x$graph <- "er"
  if (!"error" %in% names(x)) x$error <- NA_character_
  ok <- is.na(x$error)
  label <- setting_label(x)
  labels <- unique(label)
  method_order <- attr(x, "methods")
  if (is.null(method_order)) method_order <- unique(x$method)
  method_order <- intersect(method_order, unique(x$method))
  summary_rows <- list()
  out <- data.frame(method = method_order, stringsAsFactors = FALSE)
  for (lab in labels) {
    for (m in metrics) {
      col <- character(length(method_order))
      for (i in seq_along(method_order)) {
        v <- x[[m]][label == lab & x$method == method_order[i] & ok]
        v <- v[!is.na(v)]
        mu <- if (length(v)) mean(v) else NA_real_
        se <- if (length(v) > 1L) stats::sd(v) / sqrt(length(v)) else NA_real_
        dg <- if (m %in% names(digits)) digits[[m]] else 2
        col[i] <- if (is.na(mu)) "-" else if (is.na(se)) {
          formatC(mu, format = "f", digits = dg)
        } else {
          paste0(formatC(mu, format = "f", digits = dg), pm, formatC(se, format = "f", digits = dg))
        }
        first <- which(label == lab)[1]
        summary_rows[[length(summary_rows) + 1L]] <- data.frame(
          method = method_order[i], d = x$d[first], graph = x$graph[first], k = x$k[first],
          n = x$n[first], standardized = x$standardized[first], metric = m, mean = mu, se = se,
          runs = length(v), stringsAsFactors = FALSE)
      }
      out[[paste0(lab, " | ", m)]] <- col
    }
  }
  failed <- vapply(method_order, function(mt) sum(!ok & x$method == mt), integer(1))
  if (any(failed > 0)) out$failed <- failed
  attr(out, "summary") <- do.call(rbind, summary_rows)
  out
}

setting_label <- function(x) {
  n <- vapply(x$n, function(v) {
    if (!is.finite(v)) "Inf" else format(v, scientific = v >= 1e5, trim = TRUE)
  }, "")
  paste0("d=", x$d, " ", toupper(x$graph), format(x$k, trim = TRUE), " n=", n,
         ifelse(x$standardized, " std", " raw"))
}

#' @export
print.calm_benchmark <- function(x, ...) {
  needed <- c("method", "setting", "d", "k", "n", "standardized", "rep", "shd", "precision",
              "recall", "error")
  if (!all(needed %in% names(x))) {
    print(as.data.frame(unclass(x)[intersect(names(x), names(x))]), ...)
    return(invisible(x))
  }
  plural <- function(k, word) sprintf("%d %s%s", k, word, if (k == 1) "" else "s")
  cat(sprintf("<calm_benchmark> %d runs: %s x %s x %s", nrow(x),
              plural(length(unique(x$method)), "method"),
              plural(length(unique(x$setting)), "setting"),
              plural(length(unique(x$rep)), "replicate")))
  failed <- sum(!is.na(x$error))
  if (failed) cat(sprintf("; %d failed", failed))
  cat("\n")
  tab <- format_table(x)
  groups <- unique(sub(" \\| .*$", "", setdiff(names(tab), c("method", "failed"))))
  for (g in groups) {
    cols <- names(tab)[startsWith(names(tab), paste0(g, " | "))]
    block <- tab[c("method", cols)]
    names(block) <- c("method", sub("^.* \\| ", "", cols))
    cat("\n", g, "\n", sep = "")
    print(block, row.names = FALSE, right = FALSE)
  }
  invisible(x)
}
