# calm(): recovery on small population covariances, the fit object,
# variants and errors (restarts: test-calm-restarts.R; the moral graph
# argument: test-moral-resolve.R).

test_that("calm recovers the true CPDAG from population covariances", {
  # ER1 graphs with the true moral graph, standardized covariance. The cases
  # are ones CALM solves from every starting point tried; on some other small
  # dense graphs (e.g. d = 5, seed 1) it ends in a local optimum with SHD 3,
  # as does an independent plain-R implementation of the same loop.
  cases <- list(c(d = 6, seed = 2), c(d = 7, seed = 3), c(d = 8, seed = 6))
  for (cs in cases) {
    sem <- sem_case(cs[["d"]], cs[["seed"]])
    set.seed(1)
    fit <- calm(cov = sem$sigma, moral = moral_graph(sem$dag), control = fast, verbose = FALSE)
    label <- sprintf("d = %d, seed = %d", cs[["d"]], cs[["seed"]])
    expect_true(fit$converged, label = label)
    expect_lt(fit$h, 1e-8)
    expect_identical(compare_graphs(fit, sem$B)$shd, 0L, label = label)
    expect_true(is_dag(fit$amat))
  }
})

test_that("the result is a complete calm_fit", {
  sem <- sem_case(6, 2)
  set.seed(1)
  fit <- calm(cov = sem$sigma, moral = moral_graph(sem$dag), control = fast, verbose = FALSE)
  expect_s3_class(fit, "calm_fit")
  expect_identical(fit$method, "calm")
  expect_named(fit$trace, c("component", "round", "rho", "h", "objective", "edges", "dag",
                            "changed", "steps", "skipped", "seconds"))
  expect_true(all(fit$trace$skipped == 0))
  expect_true(all(fit$trace$steps == 5000))
  expect_equal(fit$trace$rho, 1e-5 * 3^(seq_len(nrow(fit$trace)) - 1))
  expect_identical(rownames(fit$B), paste0("X", 1:6))
  expect_s3_class(fit$moral, "igraph")
  expect_false(igraph::is_directed(fit$moral))
  expect_identical(fit$settings$moral, "user")
  expect_true(all(fit$B_raw[fit$amat == 0] == 0))
  expect_true(all((fit$B != 0) <= (fit$amat != 0)))
  expect_true(all(fit$gate_values >= 0 & fit$gate_values <= 1))
  expect_identical(fit$amat, (fit$gate_values > 0.5) * 1)
  expect_true(fit$isa %in% c("avx2", "generic"))
  expect_identical(fit$skipped, 0)
  expect_equal(nrow(fit$removed), 0L)
  # refit weights: residual variances of the standardized covariance
  expect_true(all(fit$omega > 0 & fit$omega <= 1))
})

test_that("variants run and return DAGs", {
  sem <- sem_case(6, 2)
  m <- moral_graph(sem$dag)
  short <- list(iter_per_round = 3000, max_rounds = 40)
  set.seed(2)
  variants <- list(list(gate = "stg"), list(gate = "tanh"), list(score = "colide"),
                   list(control = list(acyclicity = "exp")),
                   list(control = list(simd = FALSE)),
                   list(gate = "stg", score = "colide", constraint = "soft"))
  for (v in variants) {
    ctrl <- utils::modifyList(short, if (is.null(v$control)) list() else v$control)
    args <- c(list(cov = sem$sigma, moral = m, control = ctrl, verbose = FALSE),
              v[setdiff(names(v), "control")])
    fit <- suppressWarnings(do.call(calm, args))
    label <- paste(names(unlist(v)), unlist(v), collapse = ", ")
    expect_true(is_dag(fit$amat), label = label)
    expect_identical(fit$settings$gate, if (is.null(v$gate)) "gumbel" else v$gate)
    expect_identical(fit$settings$control$acyclicity,
                     if (is.null(v$control$acyclicity)) "poly" else "exp")
  }
  fit <- calm(cov = sem$sigma, moral = m, gate = "tanh", iter_per_round = 3000,
              max_rounds = 40, verbose = FALSE)
  expect_null(fit$gate_values)
  expect_identical(fit$amat, (abs(fit$B_raw) > 0.1) * 1)
})

test_that("verbose fits show progress without changing the result", {
  sem <- sem_case(6, 2)
  m <- moral_graph(sem$dag)
  set.seed(7)
  quiet <- calm(cov = sem$sigma, moral = m, control = fast, verbose = FALSE)
  set.seed(7)
  loud <- calm(cov = sem$sigma, moral = m, control = fast, verbose = TRUE)
  expect_identical(quiet$amat, loud$amat)
})

test_that("bad arguments give errors naming them", {
  sem <- sem_case(4, 1)
  S <- sem$sigma
  err <- function(expr, pattern) {
    expect_error(expr, pattern, class = "calm_error_argument")
  }
  err(calm(), "x")
  err(calm("a"), "`x`")
  err(calm(matrix(1:6, 3, 2) * 0), "`x`")
  err(calm(cov = S[1:3, ]), "`cov`")
  err(calm(cov = S, n = 1), "`n`")
  err(calm(cov = S, standardize = NA), "`standardize`")
  err(calm(cov = S, gate = "gumble"), "`gate`")
  err(calm(cov = S, constraint = "medium"), "`constraint`")
  err(calm(cov = S, score = c("colide", "likelihood")), "`score`")
  err(calm(cov = S, restarts = 0), "`restarts`")
  err(calm(cov = S, restarts = 1.5), "`restarts`")
  err(calm(cov = S, verbose = "yes"), "`verbose`")
  err(calm(cov = S, control = 1), "`control`")
  err(calm(cov = S, control = list(lr = -1)), "lr")
  err(calm(cov = S, iter_per_round = 0), "iter_per_round")
  err(calm(cov = S, learning_rate = 0.1), "learning_rate")
  # moral graphs
  err(calm(cov = S, moral = "pc"), "`moral`")
  err(calm(cov = S, moral = matrix(0, 3, 3)), "`moral`.*4 x 4")
  err(calm(cov = S, moral = matrix(0.5, 4, 4)), "`moral`.*0/1")
  err(calm(cov = S, moral = diag(4)), "`moral`.*self-loops")
  asym <- matrix(0, 4, 4)
  asym[1, 2] <- 1
  err(calm(cov = S, moral = asym), "`moral`.*symmetric")
  named <- matrix(0, 4, 4, dimnames = list(letters[1:4], letters[1:4]))
  err(calm(cov = S, moral = named), "`moral`.*names")
  err(calm(cov = S, moral = igraph::make_ring(5)), "`moral`")
  err(calm(cov = S, moral = list(1)), "`moral`")
})

test_that("calm_control validates every argument", {
  ctrl <- calm_control()
  expect_s3_class(ctrl, "calm_control")
  expect_identical(ctrl$lambda1, 0.005)
  expect_identical(ctrl$iter_per_round, 300L)
  expect_identical(ctrl$lr, 0.01)
  expect_identical(calm_control(schedule = "long")$iter_per_round, 40000L)
  expect_identical(calm_control(schedule = "long")$lr, 1e-3)
  expect_identical(ctrl$acyclicity, "poly")
  expect_output(print(ctrl), "rho_mult")
  bad <- list(lambda1 = -1, tau = 0, rho_init = 0, rho_mult = 0.5, iter_per_round = 0,
              max_rounds = 1.5, h_tol = 0, lr = 0, threshold = 1, lambda2 = -0.1,
              soft_iter = 0, init_scale = -1, stg_sigma = 0, stg_init = NA, tanh_c = 0,
              weight_threshold = -1, acyclicity = "trace", simd = "yes")
  for (nm in names(bad)) {
    expect_error(do.call(calm_control, bad[nm]), paste0("`", nm, "`"),
                 class = "calm_error_argument")
  }
  expect_error(calm_control(lamda1 = 1), "lamda1", class = "calm_error_argument")
  expect_identical(calm_control(acyclicity = "exp")$acyclicity, "exp")
})

test_that("the fit's weights are the least-squares refit of its graph, computed once", {
  # two independent blocks, so that the default fits them as two components
  s1 <- withr::with_seed(31, simulate_sem(4, k = 1, n = 400))
  s2 <- withr::with_seed(32, simulate_sem(3, k = 1, n = 400))
  x <- cbind(s1$x, s2$x)
  colnames(x) <- paste0("V", 1:7)
  for (split in c(TRUE, FALSE)) {
    for (refine in c("none", "ges")) {
      for (standardize in c(TRUE, FALSE)) {
        label <- sprintf("split %s, refine %s, standardize %s", split, refine, standardize)
        fit <- suppressWarnings(calm(x, refine = refine, standardize = standardize, seed = 3,
                                     iter_per_round = 500, max_rounds = 6,
                                     split_components = split, verbose = FALSE))
        if (split) expect_gt(NROW(fit$components), 1, label = label)
        sigma <- calm:::resolve_covariance(x, standardize = standardize)$sigma
        ref <- calm:::refit_weights(fit$amat, sigma)
        expect_identical(fit$B, ref$B, label = label)
        expect_identical(fit$omega, ref$omega, label = label)
        if (refine == "none") {
          # the run's objective is computed from the same refit
          expect_identical(fit$objective, 0.5 * sum(log(ref$omega)) +
                             fit$settings$control$lambda1 * sum(fit$amat), label = label)
        }
        # the moral graph is the one estimate_moral_graph() gives for the
        # covariance calm() worked on
        mg <- estimate_moral_graph(cov = sigma, n = nrow(x))
        expect_identical(as_amat(fit$moral), as_amat(mg), label = label)
        expect_identical(igraph::graph_attr(fit$moral), igraph::graph_attr(mg), label = label)
      }
    }
  }
})

# Counts the calls of function `fun` of namespace `ns` while `expr` runs.
count_calls <- function(fun, ns, expr) {
  calls <- new.env()
  calls$n <- 0L
  suppressMessages(trace(fun, where = asNamespace(ns), print = FALSE,
                         tracer = bquote(assign("n", .(calls)$n + 1L, envir = .(calls)))))
  on.exit(suppressMessages(untrace(fun, where = asNamespace(ns))))
  force(expr)
  calls$n
}

test_that("calm() refits the least-squares weights once per fitted part", {
  s1 <- withr::with_seed(31, simulate_sem(4, k = 1, n = 400))
  s2 <- withr::with_seed(32, simulate_sem(3, k = 1, n = 400))
  x <- cbind(s1$x, s2$x)
  colnames(x) <- paste0("V", 1:7)
  fit_with <- function(split) {
    suppressWarnings(calm(x, refine = "none", seed = 3, iter_per_round = 500, max_rounds = 6,
                          split_components = split, verbose = FALSE))
  }
  expect_identical(count_calls("refit_weights", "calm", fit_with(FALSE)), 1L)
  parts <- NROW(fit_with(TRUE)$components)
  expect_gt(parts, 1L)
  expect_identical(count_calls("refit_weights", "calm", fit_with(TRUE)), parts)
})

test_that("calm() checks and standardizes the covariance once", {
  sem <- withr::with_seed(33, simulate_sem(5, k = 1, n = 300))
  for (standardize in c(TRUE, FALSE)) {
    fit_with <- function() {
      suppressWarnings(calm(sem$x, refine = "none", standardize = standardize, seed = 3,
                            iter_per_round = 300, max_rounds = 3, verbose = FALSE))
    }
    expect_identical(count_calls("check_covariance", "calm", fit_with()), 1L)
    # once: for the data (standardize = TRUE) or for IAMB's tests (FALSE)
    expect_identical(count_calls("cov_to_cor", "calm", fit_with()), 1L)
  }
})
