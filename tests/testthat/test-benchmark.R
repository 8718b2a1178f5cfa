small_settings <- function() {
  data.frame(d = c(5, 6), k = 1, n = c(Inf, 400), standardized = c(TRUE, FALSE))
}
fast_args <- list(golem_nv = list(iter = 500))

test_that("benchmark_methods() returns one tidy row per run", {
  res <- benchmark_methods(c("golem_nv", "notears"), small_settings(), reps = 2,
                           method_args = fast_args)
  expect_s3_class(res, "calm_benchmark")
  expect_equal(nrow(res), 2 * 2 * 2)
  expect_true(all(c("method", "setting", "d", "graph", "k", "n", "standardized", "rep", "seed",
                    "shd", "precision", "recall", "f1", "time", "error") %in% names(res)))
  expect_true(all(is.na(res$error)))
  expect_true(all(res$shd >= 0))
  expect_true(all(res$precision >= 0 & res$precision <= 1))
  expect_equal(sort(unique(res$method)), c("golem_nv", "notears"))
  # the two methods of a replicate see the same graph
  by_run <- split(res$n_true, paste(res$setting, res$rep))
  expect_true(all(vapply(by_run, function(v) length(unique(v)) == 1, logical(1))))
})

test_that("seeds depend on the graph family and replicate, not on the grid", {
  s <- small_settings()
  a <- benchmark_methods("notears", s, reps = 2)
  b <- benchmark_methods("notears", s[2:1, ], reps = 2)
  key <- function(x) x[order(x$d, x$rep), c("d", "rep", "seed", "shd", "precision", "recall")]
  expect_equal(key(a), key(b), ignore_attr = TRUE)
  # n and standardization do not change the graph: paired comparisons
  c2 <- benchmark_methods("notears", data.frame(d = 5, n = c(Inf, 300)), reps = 1)
  expect_equal(c2$seed[1], c2$seed[2])
  expect_equal(c2$n_true[1], c2$n_true[2])
})

test_that("a chunk of replicates gives exactly those rows of the full run", {
  s <- small_settings()
  full <- benchmark_methods("notears", s, reps = 3)
  chunk <- benchmark_methods("notears", s, replicates = c(3, 2))
  expect_equal(sort(unique(chunk$rep)), 2:3)
  cols <- c("setting", "rep", "seed", "shd", "precision", "recall", "n_est", "n_true")
  key <- function(x) {
    x <- x[order(x$setting, x$rep), cols]
    rownames(x) <- NULL
    x
  }
  expect_equal(key(chunk), key(full[full$rep >= 2, ]), ignore_attr = TRUE)
  # chunks bound together are the full run
  both <- rbind(benchmark_methods("notears", s, replicates = 1), chunk)
  expect_equal(key(both), key(full), ignore_attr = TRUE)
  expect_equal(format_table(both), format_table(full), ignore_attr = TRUE)
})

test_that("user functions and failing methods are handled", {
  truth_fn <- function(cov, n, standardize, sem) sem$B
  failing <- function(cov, n, standardize, sem) stop("boom")
  noisy <- function(cov, n, standardize, sem) {
    warning("careful")
    sem$B
  }
  res <- benchmark_methods(list(oracle = truth_fn, broken = failing, notears = "notears",
                                noisy = noisy),
                           data.frame(d = 5), reps = 2)
  expect_true(all(res$warning[res$method == "noisy"] == "careful"))
  expect_true(all(is.na(res$warning[res$method == "oracle"])))
  expect_true(all(res$shd[res$method == "oracle"] == 0))
  expect_true(all(res$error[res$method == "broken"] == "boom"))
  expect_true(all(is.na(res$shd[res$method == "broken"])))
  tab <- format_table(res)
  expect_equal(tab$method, c("oracle", "broken", "notears", "noisy"))
  expect_equal(tab$failed, c(0L, 2L, 0L, 0L), ignore_attr = TRUE)
})

test_that("the calm variants are dispatched to calm() by name", {
  res <- benchmark_methods("calm_nomoral", data.frame(d = 4), reps = 1,
                           method_args = list(calm_nomoral = list(verbose = FALSE)))
  expect_true(is.na(res$error))
  expect_identical(res$method, "calm_nomoral")
  expect_false(is.na(res$shd))
})

test_that("notears_optim is NOTEARS with R's L-BFGS-B", {
  res <- benchmark_methods(c("notears", "notears_optim"), data.frame(d = 4, k = 1), reps = 1,
                           keep_fits = TRUE)
  expect_true(all(is.na(res$error)))
  fits <- attr(res, "fits")
  expect_identical(fits[[1]]$settings$control$solver, "lbfgspp")
  expect_identical(fits[[2]]$settings$control$solver, "optim")
})

test_that("golem_nv_ev starts GOLEM-NV from the GOLEM-EV solution", {
  res <- benchmark_methods(c("golem_nv", "golem_nv_ev"), data.frame(d = 5, k = 1), reps = 1,
                           method_args = list(golem_nv = list(max_iter = 300),
                                              golem_nv_ev = list(max_iter = 300)),
                           keep_fits = TRUE)
  expect_true(all(is.na(res$error)))
  fits <- attr(res, "fits")
  expect_identical(fits[[1]]$settings$init, "zero")
  expect_identical(fits[[2]]$settings$init, "ev")
  # the same data and the same steps from another start: other weights
  expect_false(isTRUE(all.equal(fits[[1]]$B_unthresholded, fits[[2]]$B_unthresholded)))
})

test_that("the paper's ablations are the variants without the refinement, in one fit", {
  reg <- calm:::benchmark_registry
  for (v in c("stg", "tanh", "soft", "nomoral", "soft_nomoral", "colide")) {
    paper <- reg[[paste0("calm_paper_", v)]]$args
    expect_identical(paper[names(reg[[paste0("calm_", v)]]$args)], reg[[paste0("calm_", v)]]$args)
    expect_identical(paper$refine, "none")
    expect_false(paper$split_components)
  }
  res <- benchmark_methods(c("calm_paper_stg", "calm_stg"), data.frame(d = 5), reps = 1,
                           method_args = list(calm_paper_stg = list(verbose = FALSE),
                                              calm_stg = list(verbose = FALSE)))
  expect_true(all(is.na(res$error)))
  expect_identical(res$method, c("calm_paper_stg", "calm_stg"))
})

test_that("format_table() gives the paper's mean +/- se layout", {
  x <- data.frame(method = rep(c("a", "b"), each = 3), d = 10, graph = "er", k = 1, n = Inf,
                  standardized = TRUE, rep = rep(1:3, 2), shd = c(1, 2, 3, 4, 4, 4),
                  precision = c(1, 0.5, 0.75, 1, 1, 1), recall = 1, error = NA_character_)
  tab <- format_table(x, pm = " +/- ")
  expect_equal(names(tab), c("method", "d=10 ER1 n=Inf std | shd",
                             "d=10 ER1 n=Inf std | precision", "d=10 ER1 n=Inf std | recall"))
  expect_equal(tab[[2]], c("2.0 +/- 0.6", "4.0 +/- 0.0"))
  expect_equal(tab[[3]], c("0.75 +/- 0.14", "1.00 +/- 0.00"))
  s <- attr(tab, "summary")
  expect_equal(s$mean[s$method == "a" & s$metric == "shd"], 2)
  expect_equal(s$se[s$method == "a" & s$metric == "shd"], 1 / sqrt(3))
  expect_error(format_table(data.frame(a = 1)), class = "calm_error_argument")
})

test_that("benchmark_methods() checks its arguments", {
  expect_error(benchmark_methods("nope", data.frame(d = 5)), class = "calm_error_argument")
  expect_error(benchmark_methods("notears", data.frame(k = 1)), class = "calm_error_argument")
  expect_error(benchmark_methods("notears", data.frame(d = 5, n = 1)),
               class = "calm_error_argument")
  expect_error(benchmark_methods("notears", data.frame(d = 5, graph = "sf")),
               class = "calm_error_argument")
  expect_error(benchmark_methods("notears", data.frame(d = 5), reps = 0),
               class = "calm_error_argument")
  for (bad in list(0, c(1, 1), 1.5, NA, "1", numeric(), Inf)) {
    expect_error(benchmark_methods("notears", data.frame(d = 5), replicates = bad),
                 "replicates", class = "calm_error_argument")
  }
  expect_error(benchmark_methods("notears", data.frame(d = 5), method_args = list(x = 1)),
               class = "calm_error_argument")
})

test_that("a multisession plan gives the same results as a sequential one", {
  skip_on_cran()
  skip_if_not_installed("future")
  methods <- c("golem_nv", "notears")
  if (requireNamespace("pcalg", quietly = TRUE)) methods <- c(methods, "pc")
  seq_res <- benchmark_methods(methods, small_settings(), reps = 2, method_args = fast_args)
  old <- future::plan(future::multisession, workers = 2)
  on.exit(future::plan(old), add = TRUE)
  par_res <- benchmark_methods(methods, small_settings(), reps = 2, method_args = fast_args)
  cols <- c("method", "setting", "rep", "seed", "shd", "precision", "recall", "f1", "n_est",
            "error")
  expect_equal(as.data.frame(par_res)[cols], as.data.frame(seq_res)[cols])
})

test_that("a worker that dies costs only its own run", {
  skip_on_cran()
  skip_if_not_installed("future")
  old <- future::plan(future::multisession, workers = 2)
  on.exit(future::plan(old), add = TRUE)
  marker <- tempfile()
  truth_fn <- function(cov, n, standardize, sem) sem$B
  once_killer <- function(cov, n, standardize, sem) {
    if (!file.exists(marker)) {
      file.create(marker)
      tools::pskill(Sys.getpid())
    }
    sem$B
  }
  failing <- function(cov, n, standardize, sem) stop("boom")
  expect_warning(
    res <- benchmark_methods(list(oracle = truth_fn, killer = once_killer, broken = failing),
                             data.frame(d = 4), reps = 2),
    "1 of 6 runs did not finish", class = "calm_warning_failed")
  expect_identical(nrow(res), 6L)
  lost <- !is.na(res$error) & res$method == "killer"
  expect_identical(sum(lost), 1L)
  expect_match(res$error[lost], "worker failed")
  expect_true(is.na(res$shd[lost]))
  # every other run is there: the oracle's and the other killer run exact,
  # the failing method's with its own error
  expect_true(all(res$shd[res$method == "oracle"] == 0))
  expect_identical(res$shd[res$method == "killer" & !lost], 0L)
  expect_true(all(res$error[res$method == "broken"] == "boom"))
  expect_identical(format_table(res)$failed, c(0L, 1L, 2L), ignore_attr = TRUE)
})

# Bad inputs (the table of helper-bad-input.R)
test_that("bad inputs to the experiments end in clear errors, warnings or results", {
  expect_bad_inputs(bad_input_section({
err("regression_dag", "sigma", regression_dag("a"))
err("regression_dag", "sigma", regression_dag(singular))
err("regression_dag", "sigma", regression_dag(asym))
err("regression_dag", "sigma", regression_dag(S[, 1:3]))
err("regression_dag", "order", regression_dag(S, order = 1:3))
err("regression_dag", "order", regression_dag(S, order = c(1, 1:5)))
err("regression_dag", "order", regression_dag(S, order = c(NA, 2:6)))
err("regression_dag", "order", regression_dag(S, order = c(1.5, 2:6)))
err("regression_dag", "order", regression_dag(S, order = letters[1:6]))
ok("regression_dag", regression_dag(S * 1e8),
   function(r) isTRUE(all.equal(r$B, regression_dag(S)$B)) &&
     isTRUE(all.equal(r$omega, regression_dag(S)$omega * 1e8)))
ok("regression_dag", regression_dag(S * outer(mixed_scale, mixed_scale)),
   function(r) isTRUE(all.equal(r$B * outer(mixed_scale, 1 / mixed_scale), regression_dag(S)$B)))
err("l1_inconsistency", "n_graphs", l1_inconsistency(n_graphs = 0))
err("l1_inconsistency", "n_graphs", l1_inconsistency(n_graphs = 1e10))
err("l1_inconsistency", "d", l1_inconsistency(n_graphs = 1, d = 1))
err("l1_inconsistency", "d", l1_inconsistency(n_graphs = 1, d = 11))
err("l1_inconsistency", "k", l1_inconsistency(n_graphs = 1, d = 4, k = 0))
err("l1_inconsistency", "k", l1_inconsistency(n_graphs = 1, d = 4, k = 10))
err("l1_inconsistency", "edges", l1_inconsistency(n_graphs = 1, d = 4, edges = "all"))
err("l1_inconsistency", "zero_tol", l1_inconsistency(n_graphs = 1, d = 4, zero_tol = -1))
err("l1_inconsistency", "seed", l1_inconsistency(n_graphs = 1, d = 4, seed = -1))
err("l1_inconsistency", "seed", l1_inconsistency(n_graphs = 1, d = 4, seed = "a"))
err("l1_inconsistency", "noise_ratio", l1_inconsistency(n_graphs = 1, d = 4, noise_ratio = 0))
err("l1_inconsistency", "weight_range",
    l1_inconsistency(n_graphs = 1, d = 4, weight_range = c(-1, 1)))
ok("l1_inconsistency", l1_inconsistency(n_graphs = 1, d = 2, k = 0.5, seed = 1),
   function(r) r$per_graph$n_orders == 2)
ok("print.calm_l1_inconsistency", capture.output(print(l1_small)), function(out) length(out) > 3)
err("benchmark_methods", "methods", benchmark_methods("foo", data.frame(d = 4), reps = 1))
err("benchmark_methods", "methods", benchmark_methods(character(), data.frame(d = 4), reps = 1))
err("benchmark_methods", "methods", benchmark_methods(NA_character_, data.frame(d = 4), reps = 1))
err("benchmark_methods", "methods",
    benchmark_methods(c("golem_nv", "golem_nv"), data.frame(d = 4), reps = 1))
err("benchmark_methods", "methods", benchmark_methods(1, data.frame(d = 4), reps = 1))
err("benchmark_methods", "methods",
    benchmark_methods(list(junk = function(...) "a"), data.frame(d = 4), reps = 1))
err("benchmark_methods", "settings", benchmark_methods("notears", "d = 4", reps = 1))
err("benchmark_methods", "settings", benchmark_methods("notears", data.frame(d = 1), reps = 1))
err("benchmark_methods", "settings", benchmark_methods("notears", data.frame(d = NA), reps = 1))
err("benchmark_methods", "settings", benchmark_methods("notears", data.frame(d = 2.5), reps = 1))
err("benchmark_methods", "settings",
    benchmark_methods("notears", data.frame(d = 4, k = 5), reps = 1))
err("benchmark_methods", "settings",
    benchmark_methods("notears", data.frame(d = 4, n = 1), reps = 1))
err("benchmark_methods", "settings",
    benchmark_methods("notears", data.frame(d = 4, n = -Inf), reps = 1))
err("benchmark_methods", "settings",
    benchmark_methods("notears", data.frame(d = 4, standardized = NA), reps = 1))
err("benchmark_methods", "settings",
    benchmark_methods("notears", data.frame(d = 4, graph = "sf"), reps = 1))
err("benchmark_methods", "settings",
    benchmark_methods("notears", data.frame(d = 4, edges = "all"), reps = 1))
err("benchmark_methods", "settings",
    benchmark_methods("notears", data.frame(d = integer()), reps = 1))
err("benchmark_methods", "replicates",
    benchmark_methods("notears", data.frame(d = 4), replicates = c(2, 2)))
err("benchmark_methods", "replicates",
    benchmark_methods("notears", data.frame(d = 4), replicates = 0))
err("benchmark_methods", "reps", benchmark_methods("notears", data.frame(d = 4), reps = 0))
err("benchmark_methods", "seed", benchmark_methods("notears", data.frame(d = 4), seed = -1))
err("benchmark_methods", "moral", benchmark_methods("notears", data.frame(d = 4), moral = "x"))
err("benchmark_methods", "keep_fits",
    benchmark_methods("notears", data.frame(d = 4), keep_fits = NA))
err("benchmark_methods", "method_args",
    benchmark_methods("notears", data.frame(d = 4), method_args = list(golem = list())))
err("benchmark_methods", "method_args",
    benchmark_methods("notears", data.frame(d = 4), method_args = list(list())))
# documented: a method's own error is recorded in `error`, not raised
ok("benchmark_methods",
   benchmark_methods("notears", data.frame(d = 4), reps = 1,
                     method_args = list(notears = list(l1_weight = -1))),
   function(r) grepl("l1_weight", r$error) && is.na(r$shd))
ok("benchmark_methods",
   benchmark_methods(list(boom = function(...) stop("boom")), data.frame(d = 4), reps = 1),
   function(r) identical(r$error, "boom"))
err("format_table", "x", format_table("a"))
err("format_table", "x", format_table(mini_bench[, c("method", "shd")]))
err("format_table", "metrics", format_table(mini_bench, metrics = "accuracy"))
err("format_table", "metrics", format_table(mini_bench, metrics = NA))
err("format_table", "metrics", format_table(mini_bench, metrics = character()))
err("format_table", "digits", format_table(mini_bench, digits = "a"))
err("format_table", "digits", format_table(mini_bench, digits = c(shd = -1)))
err("format_table", "digits", format_table(mini_bench, digits = 2))
err("format_table", "pm", format_table(mini_bench, pm = 1))
ok("format_table", format_table(transform(mini_bench, error = "failed")),
   function(tab) all(tab$failed == 2))
ok("format_table", format_table(mini_bench[0, ]), is.data.frame)
ok("print.calm_benchmark", capture.output(print(mini_bench)), function(out) length(out) > 3)
  }))
})
