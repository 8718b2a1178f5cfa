# print, summary and coef methods of calm_fit.

methods_fit <- function() {
  set.seed(3)
  sem <- simulate_sem(6, k = 1)
  set.seed(4)
  list(sem = sem, fit = calm(cov = sem$sigma, moral = moral_graph(sem$dag),
                             iter_per_round = 5000, max_rounds = 40, verbose = FALSE))
}

test_that("print describes the fit", {
  f <- methods_fit()$fit
  out <- capture.output(res <- print(f))
  expect_identical(res, f)
  expect_match(out[1], "CALM \\(gumbel gate, likelihood score, hard constraint\\)")
  expect_true(any(grepl("6 nodes", out)))
  expect_true(any(grepl("converged( \\(graph settled\\))? after", out)))
  # the steps of all rounds, with a thousands separator
  steps <- format(sum(f$trace$steps), big.mark = ",", scientific = FALSE)
  expect_true(any(grepl(paste0(" rounds, ", steps, " steps"), out, fixed = TRUE)))
  expect_true(any(grepl("population covariance", out)))
})

test_that("summary lists edges, weights and noise variances", {
  f <- methods_fit()$fit
  s <- summary(f)
  expect_s3_class(s, "summary.calm_fit")
  expect_identical(nrow(s$edges), as.integer(sum(f$amat)))
  expect_named(s$edges, c("from", "to", "weight", "raw", "type"))
  k <- cbind(match(s$edges$from, rownames(f$B)), match(s$edges$to, rownames(f$B)))
  expect_equal(s$edges$weight, f$B[k])
  expect_true(all(s$edges$type %in% c("directed", "undirected")))
  out <- capture.output(print(s))
  expect_true(any(grepl("Noise variances", out)))
  expect_true(any(grepl("Optimizer trace", out)))
})

test_that("coef returns the refitted or raw weights", {
  f <- methods_fit()$fit
  expect_identical(coef(f), f$B)
  expect_identical(coef(f, type = "raw"), f$B_raw)
  expect_error(coef(f, type = "gate"), "`type`", class = "calm_error_argument")
})

test_that("methods work on fits without weights or trace", {
  cp <- matrix(0, 3, 3, dimnames = list(c("a", "b", "c"), c("a", "b", "c")))
  cp["a", "b"] <- cp["b", "a"] <- 1
  f <- calm:::new_calm_fit(cp, method = "pc", is_cpdag = TRUE)
  out <- capture.output(print(f))
  expect_match(out[1], "PC")
  expect_true(any(grepl("1 undirected", out)))
  expect_output(print(summary(f)), "Edges")
  expect_error(coef(f), "`type`", class = "calm_error_argument")
})
