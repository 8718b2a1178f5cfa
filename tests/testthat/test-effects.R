# causal_effects() and adjustment_set(): against pcalg's ida(), jointIda()
# and optAdjSet() on random CPDAGs and PDAGs under knowledge, against the
# DAGs of small classes enumerated by brute force, and against the true
# effects of simulated SEMs.

# A random CPDAG, or (knowledge = TRUE) the maximally oriented PDAG after
# orienting a random share of its undirected edges as the DAG has them;
# with a random positive definite covariance over its nodes.
random_class <- function(d, knowledge = FALSE) {
  dag <- simulate_dag(d, k = stats::runif(1, 1, min(2, (d - 1) / 2)))
  # pcalg's addBgKnowledge() looks nodes up by name, and is given positions
  dimnames(dag) <- rep(list(as.character(seq_len(d))), 2)
  g <- dag_to_cpdag(dag, output = "matrix")
  if (knowledge) {
    und <- which(g != 0 & t(g) != 0 & dag != 0, arr.ind = TRUE)
    pick <- und[stats::runif(nrow(und)) < 0.3, , drop = FALSE]
    g[pick[, c(2, 1), drop = FALSE]] <- 0
    g <- calm:::meek_closure(g)
  }
  a <- matrix(stats::rnorm(d * d), d)
  s <- crossprod(a) / d + diag(d) * 0.2
  dimnames(s) <- dimnames(g)
  list(dag = dag, cpdag = dag_to_cpdag(dag, output = "matrix"), g = g, sigma = s)
}

# A treatment with undirected edges when there is one (the interesting case).
pick_treatment <- function(g, k = 1) {
  und <- which(rowSums(g != 0 & t(g) != 0) > 0)
  pool <- if (length(und) >= k) und else seq_len(nrow(g))
  pool[sample.int(length(pool), k)]
}

same_multiset <- function(a, b, tol = 1e-8) {
  a <- sort(a, na.last = TRUE)
  b <- sort(b, na.last = TRUE)
  length(a) == length(b) && identical(is.na(a), is.na(b)) &&
    all(abs(a[!is.na(a)] - b[!is.na(b)]) <= tol)
}

# pcalg's possible descendants of node v in g (its amat is our transpose).
pcalg_possde <- function(g, v) pcalg::possDe(t(g), v, possible = TRUE, ds = FALSE, type = "pdag")

# ida() and jointIda() regress y also where y is a descendant of x in no
# DAG of the class; calm gives the effect there, 0, and otherwise theirs.
test_that("single-treatment effects equal pcalg's ida() on 200 random classes", {
  skip_if_not_installed("pcalg")
  set.seed(501)
  agree <- c(local = 0, optimal = 0)
  zeros <- 0
  for (r in seq_len(200)) {
    kn <- r %% 2 == 0
    cl <- random_class(sample(5:30, 1), knowledge = kn)
    x <- pick_treatment(cl$g)
    y <- sample(setdiff(seq_len(nrow(cl$g)), x), 1)
    gnel <- as_graphNEL(cl$g)
    for (m in names(agree)) {
      ours <- causal_effects(cl$g, x, y, cov = cl$sigma, method = m)$effect
      theirs <- suppressMessages(pcalg::ida(x, y, cl$sigma, gnel, method = m,
                                            type = if (kn) "pdag" else "cpdag"))
      theirs <- as.vector(theirs)
      if (!y %in% pcalg_possde(cl$g, x)) {
        zeros <- zeros + (m == "local")
        theirs[] <- 0
      }
      agree[m] <- agree[m] + same_multiset(ours, theirs)
    }
  }
  expect_equal(agree, c(local = 200, optimal = 200))
  # both kinds of outcome were exercised
  expect_gt(zeros, 20)
  expect_lt(zeros, 180)
})

test_that("joint effects equal pcalg's jointIda() (RRC) on 50 random classes", {
  skip_if_not_installed("pcalg")
  set.seed(502)
  agree <- 0
  for (r in seq_len(50)) {
    cl <- random_class(sample(5:20, 1), knowledge = r %% 2 == 0)
    xs <- sort(pick_treatment(cl$g, 2))
    y <- sample(setdiff(seq_len(nrow(cl$g)), xs), 1)
    ours <- causal_effects(cl$g, xs, y, cov = cl$sigma)
    ours <- vapply(split(ours$effect, ours$config), identity, numeric(2))
    theirs <- pcalg::jointIda(xs, y, cl$sigma, as_graphNEL(cl$g), technique = "RRC",
                              type = "pdag")
    for (a in 1:2) if (!y %in% pcalg_possde(cl$g, xs[a])) theirs[a, ] <- 0
    key <- function(m) m[, do.call(order, as.data.frame(t(round(m, 6)))), drop = FALSE]
    agree <- agree + (ncol(ours) == ncol(theirs) &&
                        max(abs(key(ours) - key(theirs))) <= 1e-8)
  }
  expect_equal(agree, 50)
})

test_that("adjustment_set() agrees with pcalg::optAdjSet() on 100 random classes", {
  skip_if_not_installed("pcalg")
  set.seed(503)
  agree <- 0
  none <- 0
  for (r in seq_len(100)) {
    cl <- random_class(sample(5:25, 1), knowledge = r %% 2 == 0)
    d <- nrow(cl$g)
    xs <- sample.int(d, sample(1:2, 1))
    ys <- sample(setdiff(seq_len(d), xs), sample(1:2, 1))
    # optAdjSet() prints a note when it drops outcomes that are not descendants
    utils::capture.output(theirs <- tryCatch(sort(pcalg::optAdjSet(t(cl$g), xs, ys)),
                                             error = function(e) conditionMessage(e)))
    ours <- suppressMessages(adjustment_set(cl$g, xs, ys))
    if (is.character(theirs) && grepl("descendant", theirs)) {
      ok <- identical(ours, character(0))
    } else if (is.character(theirs)) {
      ok <- is.null(ours)
      none <- none + ok
    } else {
      ok <- identical(ours, rownames(cl$g)[theirs])
    }
    agree <- agree + ok
  }
  expect_equal(agree, 100)
  expect_gt(none, 0)  # the cases without a valid set were exercised
})

# Every DAG of a small class: the orientations of the undirected edges of
# `g` that are acyclic and have `cpdag` as their CPDAG.
class_members <- function(g, cpdag) {
  und <- which(g != 0 & t(g) != 0 & upper.tri(g), arr.ind = TRUE)
  out <- list()
  for (bits in seq_len(2^nrow(und)) - 1L) {
    m <- g
    for (k in seq_len(nrow(und))) {
      e <- und[k, ]
      if (bitwAnd(bits, 2^(k - 1)) > 0) m[e[1], e[2]] <- 0 else m[e[2], e[1]] <- 0
    }
    if (is_dag(m) && identical(dag_to_cpdag(m, output = "matrix"), cpdag)) {
      out[[length(out) + 1L]] <- m
    }
  }
  out
}

test_that("local parent sets are exactly those of the DAGs in the class", {
  set.seed(504)
  for (r in seq_len(30)) {
    cl <- random_class(sample(4:7, 1), knowledge = r %% 2 == 0)
    members <- class_members(cl$g, cl$cpdag)
    expect_gt(length(members), 0)
    x <- pick_treatment(cl$g)
    label <- function(m) paste(sort(rownames(m)[which(m[, x] != 0)]), collapse = ",")
    seen <- unique(vapply(members, label, character(1)))
    # outcomes that are not directed parents of x, whose rows name every set
    ys <- setdiff(seq_len(nrow(cl$g)), c(x, which(cl$g[, x] != 0 & cl$g[x, ] == 0)))
    if (!length(ys)) next
    eff <- causal_effects(cl$g, x, ys, cov = cl$sigma)
    expect_setequal(unique(eff$set), seen)
    opt <- causal_effects(cl$g, x, ys, cov = cl$sigma, method = "optimal")
    expect_equal(max(opt$config), length(seen))
  }
})

test_that("the true DAG's effect is among the possible effects at n = 1e5", {
  set.seed(505)
  hits <- 0
  for (r in seq_len(20)) {
    # moderate weights and equal noise keep the sampling error of every
    # effect well below 0.02 at this n (with noise ratio 16 and weights up
    # to 2 some outcomes' variances make it larger)
    sem <- simulate_sem(8, k = 1.5, n = 1e5, weight_range = c(0.3, 0.8), noise_var = rep(1, 8))
    total <- solve(diag(8) - sem$B)
    cp <- dag_to_cpdag(sem$dag)
    x <- pick_treatment(as_amat(cp))
    eff <- causal_effects(cp, x, data = sem$x)
    ok <- vapply(split(eff, eff$y), function(e) {
      any(abs(e$effect - total[x, match(e$y[1], colnames(sem$x))]) < 0.02)
    }, logical(1))
    hits <- hits + all(ok)
  }
  expect_equal(hits, 20)
})

test_that("effects are on the data's scale for fits learned on standardized data", {
  set.seed(506)
  sem <- simulate_sem(5, k = 1, n = 2000)
  x <- sem$x %*% diag(c(1, 10, 0.1, 5, 2))
  colnames(x) <- colnames(sem$x)
  fit <- boss(x, starts = 2)
  a <- causal_effects(fit, "X1", data = x)
  b <- causal_effects(fit$cpdag_amat, "X1", data = x)
  expect_equal(a$effect, b$effect)
  # rescaling an outcome rescales its effects
  x2 <- x
  x2[, "X3"] <- x2[, "X3"] * 7
  expect_warning(c3 <- causal_effects(fit, "X1", "X3", data = x2)$effect,
                 class = "calm_warning_data_mismatch")
  expect_equal(c3, 7 * a$effect[a$y == "X3"])
})

test_that("a unique effect is flagged and a directed parent gives one zero", {
  g <- matrix(0, 3, 3, dimnames = rep(list(c("a", "b", "c")), 2))
  g["a", "b"] <- g["b", "c"] <- 1
  s <- diag(3) + 0.3
  dimnames(s) <- dimnames(g)
  e <- causal_effects(g, "b", cov = s)
  expect_true(all(e$is_unique))
  expect_equal(e$effect[e$y == "a"], 0)
  u <- g
  u["b", "a"] <- 1  # a - b -> c
  e <- causal_effects(u, "b", "c", cov = s)
  expect_equal(nrow(e), 2L)
  expect_false(any(e$is_unique))
})

test_that("bad input gets classed errors naming the argument", {
  g <- matrix(0, 3, 3, dimnames = rep(list(c("a", "b", "c")), 2))
  g["a", "b"] <- g["b", "c"] <- 1
  s <- diag(3)
  dimnames(s) <- dimnames(g)
  expect_error(causal_effects(g, "a", "a", cov = s), class = "calm_error_argument", regexp = "`y`")
  expect_error(causal_effects(g, "zz", cov = s), class = "calm_error_argument", regexp = "`x`")
  expect_error(causal_effects(g, "a", "zz", cov = s), class = "calm_error_argument", regexp = "`y`")
  cyc <- g
  cyc["c", "a"] <- 1
  expect_error(causal_effects(cyc, "a", cov = s), class = "calm_error_argument", regexp = "`fit`.*cycle")
  expect_error(adjustment_set(cyc, "a", "c"), class = "calm_error_argument", regexp = "`fit`")
  expect_error(causal_effects(g, "a"), class = "calm_error_argument", regexp = "`data`")
  set.seed(507)
  sem <- simulate_sem(4, n = 100)
  fit <- boss(sem$x, starts = 1)
  expect_error(causal_effects(fit, "X1", data = sem$x[1:50, ]), class = "calm_error_data_mismatch",
               regexp = "`data`")
  expect_error(causal_effects(fit, "X1", methd = "optimal"), class = "calm_error_argument",
               regexp = "`methd`")
  expect_error(causal_effects(fit, "X1", learner = boss), class = "calm_error_argument",
               regexp = "`learner`")
  fit$sigma <- NULL
  expect_error(causal_effects(fit, "X1"), class = "calm_error_argument", regexp = "`data`")
  expect_error(causal_effects(fit, "X1", data = sem$x[, 1:2]), class = "calm_error_argument",
               regexp = "`data`")
  expect_error(causal_effects(g, "a", cov = s, method = "global"), class = "calm_error_argument",
               regexp = "`method`")
  expect_error(adjustment_set(g, "a", c("a", "b")), class = "calm_error_argument", regexp = "`y`")
})

test_that("no valid adjustment set is a classed message and NULL", {
  u <- matrix(c(0, 1, 0, 1, 0, 1, 0, 1, 0), 3, dimnames = rep(list(c("a", "b", "c")), 2))
  expect_message(res <- adjustment_set(u, "b", "c"), class = "calm_message_no_adjustment_set")
  expect_null(res)
  u["b", "a"] <- 0  # a -> b - c is not maximally oriented; closed, it is a -> b -> c
  expect_identical(adjustment_set(u, "b", "c"), character(0))
})

test_that("bootstrap effects summarise the bounds over replicates", {
  set.seed(508)
  sem <- simulate_sem(5, k = 1, n = 300)
  bs <- bootstrap_edges(sem$x, R = 4, learner = boss, starts = 1)
  expect_length(bs$graphs, 4)
  expect_length(bs$rows[[1]], 300)
  e <- causal_effects(bs, "X1", data = sem$x)
  expect_setequal(e$y, paste0("X", 2:5))
  expect_true(all(e$min <= e$max))
  expect_true(all(e$min_lower <= e$min_upper & e$max_lower <= e$max_upper))
  expect_true(all(e$replicates == 4))
  # the same replicates through R = : same seed, same numbers
  fit <- boss(sem$x, starts = 1)
  set.seed(509)
  bs <- bootstrap_edges(sem$x, R = 4, learner = boss, starts = 1)
  e <- causal_effects(bs, "X1", data = sem$x)
  set.seed(509)
  e2 <- causal_effects(fit, "X1", data = sem$x, R = 4, learner = boss, starts = 1)
  expect_equal(e2, e)
  expect_error(causal_effects(bs, "X1"), class = "calm_error_argument", regexp = "`data`")
})

test_that("standard errors and intervals are lm()'s for the adjustment regression", {
  set.seed(510)
  sem <- simulate_sem(6, k = 1.5, n = 300)
  x <- sem$x
  cp <- dag_to_cpdag(sem$dag, output = "matrix")
  checked <- 0
  for (v in seq_len(6)) {
    e <- causal_effects(cp, v, data = x, method = "optimal")
    # a 0 with standard error 0 is the graph's (no causal path in that
    # orientation), not a regression's
    e <- e[e$possible_descendant & !is.na(e$effect) & e$se > 0, , drop = FALSE]
    for (i in seq_len(nrow(e))) {
      z <- if (nzchar(e$set[i])) strsplit(e$set[i], ",")[[1]] else character(0)
      fit <- stats::lm(x[, e$y[i]] ~ x[, c(e$x[i], z), drop = FALSE])
      co <- summary(fit)$coefficients[2, ]
      ci <- stats::confint(fit)[2, ]
      expect_equal(c(e$effect[i], e$se[i]), unname(co[1:2]))
      expect_equal(c(e$lower[i], e$upper[i]), unname(ci))
      checked <- checked + 1
    }
  }
  expect_gt(checked, 5)
})

test_that("outcomes no DAG of the class lets x reach get 0, flagged, with \"local\" too", {
  # a -> c <- b: neither a nor b can reach the other
  g <- matrix(0, 3, 3, dimnames = rep(list(c("a", "b", "c")), 2))
  g["a", "c"] <- g["b", "c"] <- 1
  s <- matrix(c(1, 0.3, 0.5, 0.3, 1, 0.4, 0.5, 0.4, 1), 3, dimnames = dimnames(g))
  for (m in c("local", "optimal")) {
    e <- causal_effects(g, "a", cov = s, method = m)
    expect_equal(e$effect[e$y == "b"], 0)
    expect_false(e$possible_descendant[e$y == "b"])
    expect_true(e$possible_descendant[e$y == "c"])
    expect_true(e$effect[e$y == "c"] != 0)
  }
})

test_that("95% intervals of identified effects cover the truth at about 95%", {
  # the true CPDAG, so that only the regressions' sampling error is tested
  set.seed(511)
  covered <- NULL
  for (r in seq_len(15)) {
    sem <- simulate_sem(10, k = 1.5, n = 2000)
    total <- solve(diag(10) - sem$B)
    cp <- dag_to_cpdag(sem$dag, output = "matrix")
    for (v in seq_len(10)) {
      e <- causal_effects(cp, v, data = sem$x)
      e <- e[e$is_unique & e$possible_descendant, , drop = FALSE]
      truth <- total[v, match(e$y, colnames(sem$x))]
      covered <- c(covered, e$lower <= truth & truth <= e$upper)
    }
  }
  expect_gt(length(covered), 150)
  expect_gt(mean(covered), 0.88)
  expect_lt(mean(covered), 0.995)
})
