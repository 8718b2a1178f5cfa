# adjustment_set() and the graph side of causal effects (R/adjustment.R):
# against pcalg's optAdjSet() and the DAGs of small classes enumerated by
# brute force.

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

test_that("no valid adjustment set is a classed message and NULL", {
  u <- matrix(c(0, 1, 0, 1, 0, 1, 0, 1, 0), 3, dimnames = rep(list(c("a", "b", "c")), 2))
  expect_message(res <- adjustment_set(u, "b", "c"), class = "calm_message_no_adjustment_set")
  expect_null(res)
  u["b", "a"] <- 0  # a -> b - c is not maximally oriented; closed, it is a -> b -> c
  expect_identical(adjustment_set(u, "b", "c"), character(0))
})
