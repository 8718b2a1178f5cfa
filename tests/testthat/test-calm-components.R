# calm() fits the connected components of the moral graph separately
# (calm_control(split_components = TRUE)): the pieces equal fits made on the
# components alone with the derived seeds, bit for bit, whatever the future
# plan; a connected moral graph gives the unsplit fit; lone variables get no
# parents; the refinement runs on the assembled graph.

# A correlation matrix with two blocks (simulated ER1 graphs on 8 and 6
# variables) and one variable correlated with nothing: its precision moral
# graph has components of 8, 6 and 1 variables.
block_cov <- function() {
  sig <- lapply(list(c(seed = 2, d = 8), c(seed = 1, d = 6)), function(b) {
    set.seed(b[["seed"]])
    simulate_sem(b[["d"]], k = 1)$sigma
  })
  d <- 15
  S <- matrix(0, d, d)
  S[1:8, 1:8] <- sig[[1]]
  S[9:14, 9:14] <- sig[[2]]
  S[15, 15] <- 2
  S <- stats::cov2cor(S)
  dimnames(S) <- list(paste0("X", 1:d), paste0("X", 1:d))
  S
}

short <- list(iter_per_round = 2000, max_rounds = 8)

fit_blocks <- function(S, ..., rng = 3) {
  set.seed(rng)
  args <- utils::modifyList(c(list(cov = S, standardize = FALSE, refine = "none",
                                   verbose = FALSE), short), list(...))
  suppressWarnings(do.call(calm, args))
}

test_that("a split fit equals fits made on the components alone, bit for bit", {
  S <- block_cov()
  fit <- fit_blocks(S)
  comps <- fit$components
  expect_s3_class(comps, "data.frame")
  expect_identical(comps$size, c(8L, 6L))
  expect_identical(comps$nodes, list(paste0("X", 1:8), paste0("X", 9:14)))
  expect_identical(sort(unique(fit$trace$component)), 1:2)
  m <- as_amat(fit$moral)
  for (i in seq_len(nrow(comps))) {
    idx <- match(comps$nodes[[i]], colnames(S))
    seed_i <- calm:::component_seed(fit$seed, idx[1])
    expect_identical(comps$seed[i], seed_i)
    sub <- suppressWarnings(do.call(calm, c(
      list(cov = S[idx, idx], standardize = FALSE, moral = m[idx, idx], refine = "none",
           verbose = FALSE, split_components = FALSE, seed = seed_i), short)))
    expect_identical(sub$seed, seed_i)
    expect_identical(fit$B_raw[idx, idx], sub$B_raw)
    expect_identical(fit$amat[idx, idx], sub$amat)
    expect_identical(fit$gate_values[idx, idx], sub$gate_values)
    tr <- fit$trace[fit$trace$component == i, names(sub$trace)]
    tr$component <- 1L
    rownames(tr) <- NULL
    tr$seconds <- sub$trace$seconds <- NULL
    expect_identical(tr, sub$trace[names(tr)])
    expect_identical(comps$rounds[i], nrow(sub$trace))
    expect_identical(comps$converged[i], sub$converged)
  }
  # nothing between the components
  expect_true(all(fit$amat[1:8, 9:15] == 0) && all(fit$amat[9:15, 1:8] == 0))
  expect_identical(fit$h, sum(comps$h))
  expect_identical(fit$converged, all(comps$converged))
  expect_equal(sum(fit$trace$steps), sum(comps$steps))
  expect_true(is_dag(fit$amat))
})

test_that("the seed rule: distinct seeds per component, in range", {
  s <- calm:::component_seed(2147483646L, 1:2000)
  expect_type(s, "integer")
  expect_false(anyDuplicated(s) > 0)
  expect_true(all(s >= 0 & s <= .Machine$integer.max))
  expect_identical(calm:::component_seed(5L, 3L), 5L + 3L * 1000003L)
})

test_that("a split fit does not depend on the future plan", {
  skip_on_cran()
  skip_if_not_installed("future")
  S <- block_cov()
  old <- future::plan(future::sequential)
  on.exit(future::plan(old), add = TRUE)
  seq_fit <- fit_blocks(S)
  future::plan(future::multisession, workers = 2)
  par_fit <- fit_blocks(S)
  future::plan(future::sequential)
  expect_identical(seq_fit$B_raw, par_fit$B_raw)
  expect_identical(seq_fit$amat, par_fit$amat)
  expect_identical(seq_fit$trace[names(seq_fit$trace) != "seconds"],
                   par_fit$trace[names(par_fit$trace) != "seconds"])
  expect_identical(seq_fit$objective, par_fit$objective)
})

test_that("a connected moral graph gives the same fit as split_components = FALSE", {
  S <- block_cov()[1:8, 1:8]
  a <- fit_blocks(S)
  b <- fit_blocks(S, split_components = FALSE)
  expect_null(a$components)
  expect_identical(a$B_raw, b$B_raw)
  expect_identical(a$amat, b$amat)
  expect_identical(a$trace[names(a$trace) != "seconds"], b$trace[names(b$trace) != "seconds"])
  expect_identical(a$objective, b$objective)
  expect_true(all(a$trace$component == 1L))
})

test_that("variables alone in their component get no parents and no fit", {
  S <- block_cov()
  fit <- fit_blocks(S)
  expect_identical(sum(fit$amat[, "X15"]) + sum(fit$amat["X15", ]), 0)
  expect_false("X15" %in% unlist(fit$components$nodes))
  # a moral graph with no edge at all: the empty graph, unsplit
  empty <- fit_blocks(S, moral = matrix(0, 15, 15))
  expect_identical(sum(empty$amat), 0)
  expect_null(empty$components)
})

test_that("split_components = FALSE fits the whole problem at once", {
  S <- block_cov()
  fit <- fit_blocks(S, split_components = FALSE)
  expect_null(fit$components)
  expect_true(all(fit$trace$component == 1L))
  expect_false(fit$settings$control$split_components)
})

test_that("print, summary and the trace plot of a split fit", {
  S <- block_cov()
  fit <- fit_blocks(S)
  out <- capture.output(print(fit, details = TRUE))
  rounds <- max(fit$components$rounds)
  expect_true(any(grepl(sprintf("after up to %d rounds? in 2 components", rounds), out)))
  steps <- format(sum(fit$trace$steps), big.mark = ",", scientific = FALSE)
  expect_true(any(grepl(paste0(steps, " steps"), out, fixed = TRUE)))
  sm <- capture.output(summary(fit))
  expect_true(any(grepl("last round of each component", sm)))
  expect_identical(fit$restarts$rounds, as.integer(rounds))
  pdf(NULL)
  on.exit(grDevices::dev.off(), add = TRUE)
  expect_no_error(plot_trace(fit))
})

test_that("the refinement works on a split fit; restarts split too", {
  S <- block_cov()
  fit <- fit_blocks(S, refine = "ges")
  expect_true(is_dag(fit$amat))
  expect_type(fit$refine, "list")
  expect_s3_class(fit$components, "data.frame")
  # the refinement respects the precision moral graph: nothing between blocks
  expect_true(all(fit$amat[1:8, 9:15] == 0) && all(fit$amat[9:15, 1:8] == 0))
  expect_identical(sum(fit$amat[, "X15"]), 0)
  fit2 <- fit_blocks(S, restarts = 2)
  expect_identical(nrow(fit2$restarts), 2L)
  expect_s3_class(fit2$components, "data.frame")
  best <- which.min(fit2$restarts$objective)
  expect_identical(fit2$seed, fit2$restarts$seed[best])
})

test_that("the seed argument is checked and reproduces a restart", {
  S <- block_cov()[1:8, 1:8]
  expect_error(calm(cov = S, seed = -1, verbose = FALSE), class = "calm_error_argument")
  expect_error(calm(cov = S, seed = 1:2, verbose = FALSE), class = "calm_error_argument")
  expect_error(calm(cov = S, seed = 1.5, verbose = FALSE), class = "calm_error_argument")
  a <- fit_blocks(S)
  b <- fit_blocks(S, seed = a$seed)
  expect_identical(a$B_raw, b$B_raw)
})
