# causal_effects(): against pcalg's ida() and jointIda() on random CPDAGs
# and PDAGs under knowledge, on standardized data, and its bad input.

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
