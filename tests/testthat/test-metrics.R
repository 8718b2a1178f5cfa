test_that("shd_cpdag counts each differing pair once", {
  truth <- named(matrix(0, 4, 4)); truth["A", "C"] <- truth["B", "C"] <- 1  # v-structure
  expect_equal(shd_cpdag(truth, truth), 0L)
  rev <- truth; rev["A", "C"] <- 0; rev["C", "A"] <- 1      # breaks the v-structure
  expect_equal(shd_cpdag(rev, truth), 2L)                    # A-C and B-C now undirected
  extra <- truth; extra["A", "D"] <- 1
  expect_equal(shd_cpdag(extra, truth), 1L)
  missing <- truth; missing["B", "C"] <- 0
  expect_equal(shd_cpdag(missing, truth), 2L)                # B-C gone, A-C undirected
})

test_that("Markov equivalent DAGs have SHD of CPDAG zero", {
  chain <- named(matrix(c(0, 1, 0, 0, 0, 1, 0, 0, 0), 3, byrow = TRUE))
  fork <- named(matrix(c(0, 0, 0, 1, 0, 1, 0, 0, 0), 3, byrow = TRUE))
  expect_equal(shd_cpdag(chain, fork), 0L)
  expect_equal(shd_cpdag(dag_to_cpdag(chain), fork), 0L)
})

test_that("shd_cpdag equals pcalg::shd on CPDAGs of random DAG pairs", {
  skip_if_not_installed("pcalg")
  set.seed(77)
  res <- vapply(1:200, function(r) {
    d <- sample(5:40, 1)
    k <- min(sample(c(0.5, 1, 2, 3), 1), (d - 1) / 2)
    a <- simulate_dag(d, k)
    b <- simulate_dag(d, k)
    ours <- shd_cpdag(a, b)
    theirs <- pcalg::shd(pcalg::dag2cpdag(as_graphNEL(a)), pcalg::dag2cpdag(as_graphNEL(b)))
    ours == theirs
  }, logical(1))
  expect_true(all(res))
})

test_that("skeleton_metrics and compare_graphs count edges", {
  truth <- named(matrix(0, 4, 4)); truth["A", "B"] <- truth["B", "C"] <- truth["C", "D"] <- 1
  est <- named(matrix(0, 4, 4)); est["B", "A"] <- est["B", "C"] <- est["A", "D"] <- 1
  s <- skeleton_metrics(est, truth)
  expect_equal(s[["tp"]], 2)
  expect_equal(s[["fp"]], 1)
  expect_equal(s[["fn"]], 1)
  expect_equal(s[["precision"]], 2 / 3)
  expect_equal(s[["recall"]], 2 / 3)
  empty <- named(matrix(0, 4, 4))
  expect_equal(skeleton_metrics(empty, empty)[c("precision", "recall")],
               c(precision = 1, recall = 1))
  expect_equal(skeleton_metrics(empty, truth)[["recall"]], 0)
  cg <- compare_graphs(est, truth)
  expect_s3_class(cg, "data.frame")
  expect_equal(nrow(cg), 1L)
  expect_equal(cg$shd, shd_cpdag(est, truth))
  expect_equal(cg$precision, s[["precision"]])
})

test_that("metrics accept igraph objects and match nodes by name", {
  set.seed(9)
  sem <- simulate_sem(8, 1.5)
  expect_equal(shd_cpdag(sem$dag, sem$B), 0L)
  perm <- sample(8)
  shuffled <- sem$B[perm, perm]
  expect_equal(shd_cpdag(shuffled, sem$B), 0L)
})

test_that("metrics reject mismatched or cyclic graphs", {
  a <- named(matrix(0, 3, 3))
  b <- named(matrix(0, 4, 4))
  expect_error(shd_cpdag(a, b), "`truth` has 4 nodes.*`est` has 3")
  c3 <- a; dimnames(c3) <- list(c("x", "y", "z"), c("x", "y", "z"))
  expect_error(compare_graphs(a, c3), "different node names")
  cyc <- named(matrix(c(0, 1, 0, 0, 0, 1, 1, 0, 0), 3, byrow = TRUE))
  # a directed cycle is a conflict: compared as it is, with a warning
  expect_warning(d <- shd_cpdag(cyc, a), "`est`.*cycle", class = "calm_warning_conflict")
  expect_identical(d, 3L)
  expect_error(skeleton_metrics(a, "x"), "`truth`")
})

test_that("graphs with conflicting orientations are compared as pcalg::shd() does, with one warning", {
  nm <- c("a", "b", "c", "d")
  m <- function(...) {
    g <- matrix(0, 4, 4, dimnames = list(nm, nm))
    for (e in list(...)) g[e[1], e[2]] <- 1
    g
  }
  truth <- m(c("a", "b"), c("b", "c"), c("d", "c"))   # CPDAG: a - b -> c <- d
  # a directed cycle a -> b -> c -> a, as pcalg's pc() can return
  est <- m(c("a", "b"), c("b", "c"), c("c", "a"), c("d", "c"))
  w <- character()
  r <- withCallingHandlers(compare_graphs(est, truth), warning = function(cnd) {
    w <<- c(w, conditionMessage(cnd))
    invokeRestart("muffleWarning")
  })
  expect_length(w, 1L)
  expect_match(w, "`est` has a directed cycle")
  expect_match(w, "pcalg::shd", fixed = TRUE)
  # pairs: a-b (undirected in truth, a -> b in est), a-c (extra): 2
  expect_identical(r$shd, 2L)
  expect_identical(r$tp, 3L)
  expect_identical(r$fp, 1L)
  # the truth side is treated alike, and the count is symmetric
  expect_warning(expect_identical(shd_cpdag(truth, est), 2L), "`truth` has a directed cycle")
  # a fit whose amat was edited into a cycle: is_dag() and the metrics agree
  fit <- calm:::new_calm_fit(truth)
  fit$amat["c", "a"] <- 1
  expect_false(is_dag(fit))
  expect_warning(shd_cpdag(fit, truth), "`est` has a directed cycle")
  skip_if_not_installed("pcalg")
  skip_if_not_installed("graph")
  cp <- dag_to_cpdag(truth, output = "matrix")
  expect_equal(suppressWarnings(shd_cpdag(est, truth)),
               pcalg::shd(as_graphNEL(est), as_graphNEL(cp)))
})

test_that("pcalg's bidirected edges are compared as undirected, as pcalg::shd() does", {
  skip_if_not_installed("pcalg")
  skip_if_not_installed("graph")
  # n = 60, alpha = 0.3: pc() resolves one conflict with a bidirected edge
  set.seed(3)
  sem <- simulate_sem(7, k = 2, n = 60)
  ss <- list(C = stats::cor(sem$x), n = nrow(sem$x))
  pc_fit <- pcalg::pc(ss, pcalg::gaussCItest, alpha = 0.3, labels = colnames(sem$x),
                      u2pd = "relaxed", solve.confl = TRUE)
  expect_true(any(graph::edgeWeights(pc_fit@graph) |> unlist() == 2))
  w <- character()
  r <- withCallingHandlers(compare_graphs(pc_fit, sem$B), warning = function(cnd) {
    w <<- c(w, conditionMessage(cnd))
    invokeRestart("muffleWarning")
  })
  expect_length(w, 1L)
  expect_match(w, "`est` has 1 bidirected edge")
  cp <- dag_to_cpdag(sem$B, output = "matrix")
  expect_equal(r$shd, pcalg::shd(pc_fit, as_graphNEL(cp)))
})

# Bad inputs (the table of helper-bad-input.R)
test_that("bad inputs to metrics and plots end in clear errors, warnings or results", {
  expect_bad_inputs(bad_input_section({
for (f in c("shd_cpdag", "skeleton_metrics", "compare_graphs", "plot_comparison")) {
  call_with <- function(est, truth) as.call(list(as.name(f), est, truth))
  add_case(f, "error", call_with(quote(A), quote(cyc * 0)), arg = "est")
  # a directed cycle is compared as it is, with one warning
  add_case(f, "warning", call_with(quote(cyc), quote(cyc * 0)), pattern = "has a directed cycle",
           check = quote(Negate(is.null)))
  add_case(f, "warning", call_with(quote(cyc), quote(cyc)), pattern = "has a directed cycle",
           check = quote(Negate(is.null)))
  add_case(f, "error", call_with(quote(A), quote(cyc)), arg = "truth")
  add_case(f, "error", call_with(quote(loop), quote(loop * 0)), arg = "est")
  add_case(f, "error", call_with(quote("a"), quote(A)), arg = "est")
  add_case(f, "error", call_with(quote(A), quote(NULL)), arg = "truth")
  add_case(f, "error", call_with(quote(with_na(A)), quote(A)), arg = "est")
  add_case(f, "error", call_with(quote(A), quote(`dimnames<-`(A, rep(list(letters[1:6]), 2)))),
           arg = "truth")
}
ok("shd_cpdag", shd_cpdag(B * 1e8, B * 1e-8), function(v) identical(v, 0L))
ok("skeleton_metrics", skeleton_metrics(matrix(0, 1, 1), matrix(0, 1, 1)),
   function(v) all(v[c("precision", "recall", "f1")] == 1))
err("plot_comparison", "compare", plot_comparison(A, A, compare = "skeleton"))
err("plot_comparison", "side_by_side", plot_comparison(A, A, side_by_side = NA))
err("plot_comparison", "legend", plot_comparison(A, A, legend = "yes"))
err("plot_comparison", "layout", plot_comparison(A, A, layout = matrix(0, 2, 2)))
err("plot_comparison", "layout", plot_comparison(A, A, layout = matrix(NA_real_, 6, 2)))
err("plot_comparison", "layout", plot_comparison(A, A, layout = matrix(Inf, 6, 2)))
err("plot_comparison", "layout", plot_comparison(A, A, layout = function(g) 1))
err("plot_trace", "fit", plot_trace("a"))
err("plot_trace", "fit", plot_trace(fit))
err("plot_trace", "fit", plot_trace(trace_ok[0, ]))
err("plot_trace", "fit", plot_trace(trace_ok[, c("round", "h")]))
err("plot_trace", "fit", plot_trace(transform(trace_ok, h = NA_real_)))
err("plot_trace", "fit", plot_trace(transform(trace_ok, h = "small")))
err("plot_trace", "fit", plot_trace(transform(trace_ok, objective = Inf)))
ok("plot_trace", plot_trace(transform(trace_ok, h = c(1, 0, 0))), is.data.frame)
ok("plot_trace", plot_trace(transform(trace_ok, objective = c(1e8, 1e-8, NA))), is.data.frame)
err("plot.calm_fit", "type", plot(fit, type = "histogram"))
err("plot.calm_fit", "cpdag", plot(fit, cpdag = NA))
err("plot.calm_fit", "truth", plot(fit, truth = "a"))
err("plot.calm_fit", "truth", plot(fit, truth = cyc))
  }))
})
