# What print(), summary(), coef() and the conversions say about a fit: the
# model first, on one scale, DAG or CPDAG named.

# Data on very different scales, so that a weight on the wrong scale shows.
scaled_data <- function() {
  set.seed(40)
  sem <- simulate_sem(6, k = 1, n = 800)
  x <- sem$x * rep(c(1, 10, 100, 0.5, 2, 3), each = nrow(sem$x))
  colnames(x) <- paste0("X", 1:6)
  x
}

scaled_fit <- function() {
  set.seed(41)
  calm(scaled_data(), verbose = FALSE)
}

test_that("print() leads with variables, edges, score, penalty and how", {
  fit <- scaled_fit()
  out <- capture.output(print(fit))
  expect_match(out[2], "variables (6): X1, X2, X3, X4, X5, X6", fixed = TRUE)
  cp <- fit$cpdag_amat
  und <- sum(cp * t(cp)) / 2
  dirn <- sum(cp) - 2 * und
  expect_true(any(grepl(sprintf("edges: %d (CPDAG: %d directed, %d undirected)", dirn + und, dirn, und),
                        out, fixed = TRUE)))
  # every edge of the CPDAG is listed (few edges)
  listed <- paste(out, collapse = " ")
  d_idx <- which(cp != 0 & t(cp) == 0, arr.ind = TRUE)
  for (k in seq_len(nrow(d_idx))) {
    expect_match(listed, paste(rownames(cp)[d_idx[k, 1]], "->", rownames(cp)[d_idx[k, 2]]), fixed = TRUE)
  }
  ll <- logLik(fit)
  expect_true(any(grepl(format(round(as.numeric(ll), 2), nsmall = 2), out, fixed = TRUE)))
  expect_true(any(grepl("^  penalty: BIC, discount [0-9.]+ \\(chosen from [0-9., ]+ by 2 x 5-fold held-out log-likelihood", out)))
  # more rows than variables: the continuous phase is cut to one step
  expect_true(any(grepl("^  learned by a one-step start \\+ refinement", out)))
  # the optimizer's trace is not in print(), but in details and summary()
  expect_false(any(grepl("rho|final objective|steps", out)))
  det <- capture.output(print(fit, details = TRUE))
  expect_true(any(grepl("continuous phase cut to one step", det, fixed = TRUE)))
  expect_false(any(grepl("rho = |final objective", det)))
  expect_identical(det[seq_along(out)], out)
  # the continuous phase in full: its account in the details
  set.seed(41)
  full <- calm(scaled_data(), control = calm_control(continuous = "always"), verbose = FALSE)
  expect_identical(full$continuous, "full")
  expect_true(any(grepl("^  learned by CALM's continuous optimization \\+ refinement",
                        capture.output(print(full)))))
  det_full <- capture.output(print(full, details = TRUE))
  expect_true(any(grepl("rho = ", det_full, fixed = TRUE)))
  expect_true(any(grepl("final objective", det_full, fixed = TRUE)))
  # with many edges only the counts are shown
  few <- capture.output(print(fit, max_edges = 0))
  expect_false(any(grepl("->|--", few)))
  expect_error(print(fit, details = NA), "`details`", class = "calm_error_argument")
})

test_that("summary() does not repeat print()", {
  fit <- scaled_fit()
  out <- capture.output(print(fit))
  sm <- capture.output(summary(fit))
  expect_identical(sm[1], out[1])
  expect_length(intersect(sm[-1], out[-1]), 0)
  expect_true(any(grepl("Optimizer trace", sm)))
  expect_true(any(grepl("Noise variances", sm)))
})

test_that("print() shows fit$penalty: its label, else method and discount", {
  fit <- scaled_fit()
  fit$penalty <- list(method = "cv", discount = 2.5, lambda = 0.01,
                      label = "BIC discount 2.5 (chosen by 5-fold held-out log-likelihood from 1, 1.5, ..., 4)")
  out <- capture.output(print(fit))
  expect_true(any(out == "  penalty: BIC discount 2.5 (chosen by 5-fold held-out log-likelihood from 1, 1.5, ..., 4)"))
  fit$penalty$label <- NULL
  fit$penalty$table <- data.frame(discount = c(1, 2.5, 4), criterion = c(3, 1, 2))
  out <- capture.output(print(fit))
  expect_true(any(out == "  penalty: BIC discount 2.5 (chosen by cv from 3 candidates)"))
  fit$penalty <- list(method = "fixed", discount = 2, lambda = 0.01)
  expect_true(any(capture.output(print(fit)) == "  penalty: BIC discount 2 (fixed)"))
})

test_that("print() works on fits of every kind", {
  set.seed(42)
  sem <- simulate_sem(5, k = 1, n = 300)
  b <- boss(sem$x, starts = 2)
  out <- capture.output(print(b))
  expect_true(any(out == "  penalty: BIC, discount 2"))
  expect_true(any(grepl("learned by best order score search", out)))
  s <- fit_sem(sem$B, sem$x)
  expect_true(any(grepl("learned by least squares on a given graph", capture.output(print(s)))))
  pop <- calm(cov = sem$sigma, verbose = FALSE)
  expect_true(any(grepl("score: .*penalized profiled likelihood \\(population covariance",
                        capture.output(print(pop)))))
  expect_true(any(grepl("penalty: 0.005 per edge and sample (lambda1)", capture.output(print(pop)),
                        fixed = TRUE)))
})

test_that("verbose = TRUE shows the refinement", {
  set.seed(43)
  sem <- simulate_sem(5, k = 1, n = 300)
  msgs <- character()
  withCallingHandlers(
    capture.output(calm(sem$x, verbose = TRUE)),
    calm_message_refine = function(m) {
      msgs <<- c(msgs, conditionMessage(m))
      invokeRestart("muffleMessage")
    },
    message = function(m) invokeRestart("muffleMessage"))
  expect_length(msgs, 2)
  expect_match(msgs[1], "Refining the graph")
  expect_match(msgs[2], "refinement \\(GES and order moves, penalty")
  expect_silent(calm(sem$x, verbose = FALSE))
})

test_that("coef(), summary(), logLik() and the least-squares regressions share one scale", {
  x <- scaled_data()
  fit <- scaled_fit()
  B <- coef(fit)
  expect_true(isTRUE(fit$settings$standardize))
  for (j in seq_len(ncol(x))) {
    pa <- which(fit$amat[, j] != 0)
    if (!length(pa)) next
    expect_equal(unname(coef(stats::lm(x[, j] ~ x[, pa]))[-1]), unname(B[pa, j]), tolerance = 1e-8)
  }
  # the same as a fit that did not standardize, and its likelihood
  raw <- fit_sem(fit$amat, x)
  expect_equal(B, coef(raw), tolerance = 1e-8)
  expect_equal(coef(fit, scale = "standardized"), coef(raw, scale = "standardized"), tolerance = 1e-8)
  expect_equal(as.numeric(logLik(fit)), as.numeric(logLik(raw)), tolerance = 1e-8)
  expect_equal(summary(fit)$omega, summary(raw)$omega, tolerance = 1e-8)
  # summary lists the data-scale weights and no raw column (no "raw 0")
  e <- summary(fit)$edges
  expect_false("raw" %in% names(e))
  expect_equal(e$weight, B[cbind(e$from, e$to)])
  expect_false(any(e$weight == 0))
  # as_amat(graph = "dag") of a fit is the weighted B of coef()
  expect_equal(as_amat(fit, graph = "dag"), B)
  # simulate() draws on the data's scale
  sim <- simulate(fit, nsim = 20000, seed = 1)
  expect_equal(unname(apply(sim, 2, stats::sd) / apply(x, 2, stats::sd)), rep(1, 6), tolerance = 0.1)
})

test_that("bnlearn's bn.fit of as_bn(fit) agrees with coef()", {
  skip_if_not_installed("bnlearn")
  x <- as.data.frame(scaled_data())
  fit <- scaled_fit()
  bf <- bnlearn::bn.fit(as_bn(fit, graph = "dag"), x)
  B <- coef(fit)
  for (v in colnames(B)) {
    pa <- rownames(B)[fit$amat[, v] != 0]
    if (!length(pa)) next
    expect_equal(unname(bf[[v]]$coefficients[pa]), unname(B[pa, v]), tolerance = 1e-8)
  }
})

test_that("DAG or CPDAG: each conversion of a fit gives its CPDAG, the DAG on request", {
  fit <- scaled_fit()
  expect_identical(as_amat(fit, weighted = FALSE), fit$cpdag_amat)
  expect_identical(as_amat(fit, weighted = FALSE, graph = "dag"), fit$amat)
  pa <- as_pcalg_amat(fit)
  expect_equal(unclass(t(pa))[, ], fit$cpdag_amat, ignore_attr = TRUE)
  dg <- as_dagitty(fit, graph = "dag")
  expect_match(unclass(dg), "^dag")
  expect_equal(as_amat(dg)[rownames(fit$amat), colnames(fit$amat)], fit$amat)
  expect_equal(as_amat(as_dagitty(fit))[rownames(fit$amat), colnames(fit$amat)], fit$cpdag_amat)
  skip_if_not_installed("graph")
  gn <- as_graphNEL(fit, graph = "dag")
  expect_equal(as_amat(gn)[rownames(fit$amat), colnames(fit$amat)], fit$amat)
  expect_equal(as_amat(as_graphNEL(fit))[rownames(fit$amat), colnames(fit$amat)], fit$cpdag_amat)
})

test_that("conversions to bnlearn and pcalg objects: DAG and CPDAG", {
  skip_if_not_installed("bnlearn")
  fit <- scaled_fit()
  expect_equal(as_amat(as_bn(fit, graph = "dag"))[rownames(fit$amat), colnames(fit$amat)], fit$amat)
  expect_equal(as_amat(as_bn(fit))[rownames(fit$amat), colnames(fit$amat)], fit$cpdag_amat)
  skip_if_not_installed("pcalg")
  eg <- as_essgraph(fit)
  expect_equal(as_amat(eg)[rownames(fit$amat), colnames(fit$amat)], fit$cpdag_amat,
               ignore_attr = TRUE)
})

test_that("plot(fit) names what it draws", {
  fit <- scaled_fit()
  expect_match(calm:::graph_title(fit, cpdag = FALSE), "^one DAG of the class \\(calm\\)")
  expect_match(calm:::graph_title(fit, cpdag = TRUE), "^CPDAG \\(calm\\)")
  grDevices::pdf(NULL)
  on.exit(grDevices::dev.off(), add = TRUE)
  expect_no_error(plot(fit))
  expect_no_error(plot(fit, cpdag = TRUE))
})

test_that("print() lists the first edges of a large graph and names the score it was chosen by", {
  set.seed(44)
  sem <- simulate_sem(20, k = 1.5, n = 500)
  b <- boss(sem$x, starts = 1)
  out <- capture.output(print(b))
  cp <- b$cpdag_amat
  total <- sum((cp + t(cp))[upper.tri(cp)] != 0)
  expect_gt(total, 15)
  listed <- unlist(regmatches(out, gregexpr("[A-Za-z0-9]+ (->|--) [A-Za-z0-9]+", out)))
  expect_length(listed, 15L)
  expect_true(any(grepl(sprintf("... and %d more", total - 15), out, fixed = TRUE)))
  expect_length(unlist(regmatches(capture.output(print(b, max_edges = Inf)),
                                  gregexpr("X[0-9]+ (->|--) X[0-9]+", capture.output(print(b, max_edges = Inf))))),
                total)
  # boss()'s default: BIC at discount 2, so log(n) per edge
  expected <- as.numeric(logLik(b)) - log(500) * sum(b$amat)
  score <- grep("^  score: ", out, value = TRUE)
  expect_match(score, format(round(expected, 2), nsmall = 2), fixed = TRUE)
  expect_match(score, "penalized log-likelihood (the score the graph was chosen by)", fixed = TRUE)
  expect_true(any(grepl("BIC discount 2;", out, fixed = TRUE)))
  # no BIC at discount 1 beside it
  expect_false(any(grepl("BIC -?[0-9]", out)))
})

test_that("an all-NA column is named before anything else is said", {
  x <- data.frame(a = rnorm(30), foo = NA, b = rnorm(30))
  msgs <- character()
  err <- tryCatch(withCallingHandlers(calm(x, na = "complete", verbose = FALSE),
                                      message = function(m) {
                                        msgs <<- c(msgs, conditionMessage(m))
                                        invokeRestart("muffleMessage")
                                      }),
                  error = function(e) e)
  expect_s3_class(err, "calm_error_argument")
  expect_match(conditionMessage(err), "foo.*only missing values")
  expect_length(msgs, 0L)
  expect_error(calm(x, verbose = FALSE), "foo.*only missing values", class = "calm_error_argument")
  expect_error(estimate_moral_graph(x), "foo.*only missing values", class = "calm_error_argument")
  expect_error(boss(as.matrix(x)), "foo.*only missing values", class = "calm_error_argument")
})

test_that("sachs_consensus prints as a graph without igraph attached", {
  skip_if_not_installed("callr")
  out <- callr::r(function() utils::capture.output(print(calm::sachs_consensus)),
                  libpath = .libPaths())
  expect_match(out[1], "^IGRAPH")
  expect_false(any(grepl("^\\[\\[", out)))
})

test_that("an entry whose covariance overflows is a calm error naming x and the column", {
  set.seed(5)
  x <- as.data.frame(matrix(rnorm(300), 100, dimnames = list(NULL, c("a", "foo", "b"))))
  x[5, "foo"] <- 1e200
  expect_error(calm(x, verbose = FALSE), "`x`.*foo.*row 5", class = "calm_error_argument")
  expect_error(boss(x), "`x`.*foo.*row 5", class = "calm_error_argument")
  expect_error(exact_search(x), "`x`.*foo.*row 5", class = "calm_error_argument")
  # a column of an extreme scale throughout is rescaled, not refused
  x[, "foo"] <- rnorm(100) * 1e160
  expect_s3_class(boss(x), "calm_fit")
})
