# print, summary and coef methods of calm_fit.

methods_fit <- function() {
  set.seed(3)
  sem <- simulate_sem(6, k = 1)
  set.seed(4)
  list(sem = sem, fit = calm(cov = sem$sigma, moral = moral_graph(sem$dag),
                             iter_per_round = 5000, max_rounds = 40, verbose = FALSE))
}

# The printed text is compared with stored snapshots. Elapsed times are set to
# zero first; the numbers depend on the kernel build, hence one snapshot
# variant per build.
timeless <- function(f) {
  f$time <- 0
  f$trace$seconds <- 0
  f
}

test_that("print describes the fit", {
  f <- timeless(methods_fit()$fit)
  out <- capture.output(res <- print(f))
  expect_identical(res, f)
  expect_snapshot(print(f), variant = f$isa)
})

test_that("summary lists edges, weights and noise variances", {
  f <- timeless(methods_fit()$fit)
  s <- summary(f)
  expect_s3_class(s, "summary.calm_fit")
  expect_identical(nrow(s$edges), as.integer(sum(f$amat)))
  expect_named(s$edges, c("from", "to", "weight", "type"))
  k <- cbind(match(s$edges$from, rownames(f$B)), match(s$edges$to, rownames(f$B)))
  expect_equal(s$edges$weight, coef(f)[k])
  expect_equal(summary(f, scale = "standardized")$edges$weight, f$B[k])
  expect_true(all(s$edges$type %in% c("directed", "undirected")))
  expect_snapshot(print(s), variant = f$isa)
})

test_that("coef returns the refitted or raw weights", {
  f <- methods_fit()$fit
  expect_identical(coef(f, scale = "standardized"), f$B)
  expect_identical(coef(f, type = "raw", scale = "standardized"), f$B_raw)
  sd <- sqrt(f$data_var)
  expect_equal(coef(f), f$B * outer(1 / sd, sd))
  expect_equal(coef(f, type = "raw"), f$B_raw * outer(1 / sd, sd))
  expect_error(coef(f, scale = "raw"), "`scale`", class = "calm_error_argument")
  expect_error(coef(f, type = "gate"), "`type`", class = "calm_error_argument")
})

test_that("methods work on fits without weights or trace", {
  cp <- matrix(0, 3, 3, dimnames = list(c("a", "b", "c"), c("a", "b", "c")))
  cp["a", "b"] <- cp["b", "a"] <- 1
  f <- calm:::new_calm_fit(cp, method = "pc", is_cpdag = TRUE)
  expect_snapshot({
    print(f)
    print(summary(f))
  })
  expect_error(coef(f), "`type`", class = "calm_error_argument")
})

test_that("print names what made the graph and notes risky results", {
  set.seed(1)
  f <- calm(sachs, verbose = FALSE)
  out <- capture.output(print(f))
  expect_match(out[1], "refinement from a one-step CALM start", fixed = TRUE)
  expect_false(grepl("gumbel gate", out[1]))
  # the discount chosen at the edge of its grid
  expect_true(any(grepl("smallest of its grid", out)))
  set.seed(15)
  sem <- simulate_sem(30, k = 1.5, n = 15)
  small <- calm(sem$x, verbose = FALSE)
  expect_true(any(grepl("fewer rows than\\s+variables", paste(capture.output(print(small)), collapse = " "))))
  # the refinement's scores on print()'s scale: its final score is the printed one
  s <- capture.output(print(summary(f)))
  score <- as.numeric(sub(",.*", "", sub(".*score: ", "", grep("score: ", out, value = TRUE)[1])))
  ref <- grep("refinement \\(GES", s, value = TRUE)
  expect_equal(as.numeric(sub(".* -> ", "", ref)), score, tolerance = 1e-6)
  # the summary's lines fit in 80 characters (the trace did not)
  expect_true(all(nchar(s) <= 80 | grepl("^  (refinement|continuous)", s)))
})
