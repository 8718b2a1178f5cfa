# The scan beyond the refinement's pairs (R/search-scan.R, src/search_scan.cpp).

# The improving insertions computed in R: for each j, the partial
# correlation of every i with j given j's parents in `dag`.
insertions_in_r <- function(sigma, dag, lambda, allowed) {
  d <- ncol(sigma)
  hits <- list()
  for (j in seq_len(d)) {
    pa <- which(dag[, j] != 0)
    if (length(pa)) {
      k <- solve(sigma[pa, pa, drop = FALSE], sigma[pa, , drop = FALSE])
      rj <- sigma[, j] - crossprod(sigma[pa, , drop = FALSE], k[, j])[, 1]
      vi <- diag(sigma) - colSums(sigma[pa, , drop = FALSE] * k)
    } else {
      rj <- sigma[, j]
      vi <- diag(sigma)
    }
    r2 <- rj^2 / (vi * rj[j])
    r2[c(j, pa)] <- 0
    r2[allowed[, j] != 0] <- 0
    i <- which(-0.5 * log1p(-r2) > lambda)
    if (length(i)) hits[[length(hits) + 1L]] <- cbind(i, j)
  }
  out <- do.call(rbind, hits)
  if (is.null(out)) matrix(0L, 0, 2) else out
}

sorted_pairs <- function(p) unname(p[order(p[, 2], p[, 1]), , drop = FALSE] * 1L)

test_that("the scan finds the insertions that improve the score, as computed in R", {
  set.seed(11)
  sem <- simulate_sem(30, k = 2, n = 300)
  sigma <- stats::cov(sem$x)
  lambda <- bic_lambda(300, 2)
  # a wrong DAG and a random mask, so that there is something to find
  dag <- simulate_dag(30, k = 1)
  allowed <- matrix(stats::rbinom(900, 1, 0.2), 30, 30)
  allowed <- pmax(allowed, t(allowed))
  diag(allowed) <- 0
  got <- calm:::insertion_gains(sigma, dag, lambda, allowed)
  want <- insertions_in_r(sigma, dag, lambda, allowed)
  expect_gt(nrow(want), 0)
  expect_identical(sorted_pairs(got), sorted_pairs(want))
  # in the order of the heads, then the tails, on any number of threads
  expect_identical(got, sorted_pairs(got))
  for (threads in 2:3) {
    expect_identical(calm:::insertion_gains(sigma, dag, lambda, allowed, threads = threads), got)
  }
  # every pair found lowers the DAG's score when its edge is added (where
  # the result is a DAG)
  base <- score_dag(dag, cov = sigma, n = 300, edge_penalty = lambda)
  for (k in seq_len(min(nrow(got), 20))) {
    g <- dag
    g[got[k, 1], got[k, 2]] <- 1
    if (is_dag(g)) expect_lt(c(score_dag(g, cov = sigma, n = 300, edge_penalty = lambda)), c(base))
  }
  # nothing is found inside the allowed pairs, or when every pair is allowed
  expect_true(all(allowed[got] == 0))
  full <- matrix(1, 30, 30) - diag(30)
  expect_identical(nrow(calm:::insertion_gains(sigma, dag, lambda, full)), 0L)
})

test_that("two-step pairs are paths i -> k -> j and co-parents outside the allowed pairs", {
  set.seed(15)
  dag <- simulate_dag(40, k = 2)
  allowed <- matrix(stats::rbinom(1600, 1, 0.1), 40, 40)
  allowed <- pmax(allowed, t(allowed))
  diag(allowed) <- 0
  got <- calm:::two_step_pairs(dag, allowed)
  # the reference: the nonzero entries of the DAG's square (paths), and of
  # dag %*% t(dag) off the diagonal (common children), as unordered pairs
  paths <- (dag %*% dag) != 0
  co <- (dag %*% t(dag)) != 0 & row(dag) != col(dag)
  want <- which((paths | co) & allowed == 0, arr.ind = TRUE)
  unordered <- function(p) sorted_pairs(unique(cbind(pmin(p[, 1], p[, 2]), pmax(p[, 1], p[, 2]))))
  expect_gt(sum(co & !paths & !t(paths) & allowed == 0), 0)
  expect_identical(unordered(got), unordered(want))
  # every directed path outside the pairs is there in its direction
  expect_true(all(paste(which(paths & allowed == 0, arr.ind = TRUE)[, 1],
                        which(paths & allowed == 0, arr.ind = TRUE)[, 2]) %in%
                    paste(got[, 1], got[, 2])))
  expect_true(all(allowed[got] == 0))
  # none where every pair is allowed, or in a graph without paths of length 2
  full <- matrix(1, 40, 40) - diag(40)
  expect_identical(nrow(calm:::two_step_pairs(dag, full)), 0L)
  # a node's children are not paired (siblings), its parents are
  star <- matrix(0, 5, 5)
  star[1, 2:5] <- 1
  expect_identical(nrow(calm:::two_step_pairs(star, matrix(0, 5, 5))), 0L)
  expect_identical(nrow(calm:::two_step_pairs(t(star), matrix(0, 5, 5))), 6L)
})

test_that("a parent limit stops the scan at nodes that have reached it", {
  set.seed(12)
  sem <- simulate_sem(15, k = 2, n = 200)
  sigma <- stats::cov(sem$x)
  dag <- (sem$B != 0) * 1
  none <- matrix(0, 15, 15)
  hits <- calm:::insertion_gains(sigma, matrix(0, 15, 15), 1e-4, none, max_parents = 0L)
  expect_identical(nrow(hits), 0L)
  hits1 <- calm:::insertion_gains(sigma, matrix(0, 15, 15), 1e-4, none, max_parents = 1L)
  expect_gt(nrow(hits1), 0)
})

test_that("the scan runs above all_pairs_max_d and never scores worse than without it", {
  set.seed(13)
  sem <- simulate_sem(40, k = 2, n = 300)
  ctl <- function(scan) {
    search_control(all_pairs_max_d = 10, scan_beyond = scan, risk_max_d = 0)
  }
  set.seed(14)
  on <- calm(sem$x, verbose = FALSE, search = ctl(TRUE))
  set.seed(14)
  off <- calm(sem$x, verbose = FALSE, search = ctl(FALSE))
  expect_true("scan" %in% on$refine$stages)
  expect_false("scan" %in% off$refine$stages)
  expect_true("scan" %in% names(on$refine$stage_seconds))
  expect_lte(on$refine$score_best, off$refine$score_best + 1e-10)
  # at or below the limit the scan does not run
  set.seed(14)
  small <- calm(sem$x, verbose = FALSE, search = search_control(scan_beyond = TRUE))
  expect_false("scan" %in% small$refine$stages)
})

test_that("the scan keeps to background knowledge", {
  set.seed(15)
  sem <- simulate_sem(30, k = 2, n = 300)
  nm <- colnames(sem$x)
  # forbid, both ways, every pair outside a small band: the scan may not
  # open any of them
  forb <- matrix(1, 30, 30, dimnames = list(nm, nm))
  forb[abs(row(forb) - col(forb)) <= 3] <- 0
  kn <- background_knowledge(forbidden = forb)
  set.seed(16)
  fit <- calm(sem$x, verbose = FALSE, knowledge = kn,
              search = search_control(all_pairs_max_d = 10))
  expect_true(all(fit$refine$mask[forb != 0 & t(forb) != 0] == 0))
  expect_true(all(fit$amat[forb != 0] == 0))
})

test_that("the scan's kicks never score worse than none, and run only when asked", {
  set.seed(17)
  sem <- simulate_sem(40, k = 2, n = 300)
  ctl <- function(kicks) {
    search_control(all_pairs_max_d = 10, scan_kicks = kicks, risk_max_d = 0)
  }
  set.seed(18)
  on <- calm(sem$x, verbose = FALSE, search = ctl(10))
  set.seed(18)
  off <- calm(sem$x, verbose = FALSE, search = ctl(0))
  expect_lte(on$refine$score_best, off$refine$score_best + 1e-10)
  expect_true(all(c("scan", "kicks") %in% on$refine$stages))
  expect_true("kicks" %in% names(on$refine$stage_seconds))
  expect_false("kicks" %in% off$refine$stages)
  expect_false(any(grepl("kicks of", off$refine$moves$clique)))
})

test_that("a fit at scale is the same on 1 and 2 threads", {
  # above all_pairs_max_d variables calm_control(threads) threads run IAMB's
  # targets, GES's listing of insertions, BOSS's starts and the kicks
  # (BOSS's and the scan's), a helper running the next kick beside each
  set.seed(17)
  sem <- simulate_sem(40, k = 2, n = 300)
  fit_with <- function(threads) {
    set.seed(18)
    calm(sem$x, verbose = FALSE, control = calm_control(threads = threads),
         search = search_control(all_pairs_max_d = 10, scan_kicks = 30, risk_max_d = 0))
  }
  one <- fit_with(1)
  two <- fit_with(2)
  expect_true("kicks" %in% one$refine$stages)
  expect_identical(igraph::graph_attr(two$moral), igraph::graph_attr(one$moral))
  expect_identical(two$amat, one$amat)
  expect_identical(two$refine$moves, one$refine$moves)
  expect_identical(two$refine$score_best, one$refine$score_best)
  ctx <- function(threads) list(ctrl = list(threads = threads))
  expect_identical(calm:::search_threads(ctx(2L), TRUE), 2L)
  expect_identical(calm:::search_threads(ctx(2L), FALSE), 1L)
  expect_identical(calm:::search_threads(ctx(NULL), TRUE), 1L)
})

test_that("scan_kicks is checked; \"auto\" gives 150 kicks up to 3000 variables or n <= d", {
  expect_identical(search_control()$scan_kicks, "auto")
  expect_identical(search_control(scan_kicks = 0)$scan_kicks, 0L)
  expect_error(search_control(scan_kicks = -1), "scan_kicks")
  expect_error(search_control(scan_kicks = NA), class = "calm_error_argument")
  expect_error(search_control(scan_kicks = "many"), "scan_kicks")
  expect_identical(calm:::scan_kicks_for("auto", 1000), 150L)
  expect_identical(calm:::scan_kicks_for("auto", 3000), 150L)
  expect_identical(calm:::scan_kicks_for("auto", 3001), 50L)
  expect_identical(calm:::scan_kicks_for("auto", 3001, n = 6000), 50L)
  expect_identical(calm:::scan_kicks_for("auto", 5000, n = 3000), 150L)
  expect_identical(calm:::scan_kicks_for("auto", 5000, n = 5000), 150L)
  expect_identical(calm:::scan_kicks_for("auto", 5000, n = 5001), 50L)
  expect_identical(calm:::scan_kicks_for("auto", 1000, n = 1e6), 150L)
  expect_identical(calm:::scan_kicks_for(search_control(scan_kicks = 7)$scan_kicks, 5000), 7L)
})

test_that("scan_beyond is checked", {
  expect_true(search_control()$scan_beyond)
  expect_error(search_control(scan_beyond = NA), class = "calm_error_argument")
  expect_error(search_control(scan_beyond = "yes"), "scan_beyond")
})
