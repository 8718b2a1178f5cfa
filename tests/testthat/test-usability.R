# The small things of issue 17: alpha in calm(), missing values, logical
# columns, progress over restarts, the layered layout, the citation.

use_sem <- function() {
  set.seed(51)
  simulate_sem(6, k = 1, n = 300)
}

test_that("calm() takes IAMB's level as alpha", {
  sem <- use_sem()
  a <- calm(sem$x, alpha = 0.2, refine = "none", verbose = FALSE)
  b <- calm(sem$x, alpha = 1e-6, refine = "none", verbose = FALSE)
  expect_equal(a$settings$alpha, 0.2)
  expect_gte(igraph::ecount(a$moral), igraph::ecount(b$moral))
  ref <- estimate_moral_graph(sem$x, alpha = 0.2)
  expect_equal(igraph::ecount(a$moral), igraph::ecount(ref))
  expect_error(calm(sem$x, alpha = 1, verbose = FALSE), "alpha", class = "calm_error_argument")
})

test_that("missing values: an error by default, complete rows on request", {
  sem <- use_sem()
  x <- sem$x
  x[c(3, 7), 2] <- NA
  x[9, 4] <- NaN
  expect_error(calm(x, verbose = FALSE), "complete", class = "calm_error_argument")
  expect_message(fit <- calm(x, na = "complete", verbose = FALSE), "Dropped 3 rows",
                 class = "calm_message_na")
  expect_equal(fit$na_dropped, 3L)
  expect_equal(fit$n, 297)
  expect_equal(fit$settings$na, "complete")
  # nothing to drop: no message
  expect_no_message(fit2 <- calm(sem$x, na = "complete", verbose = FALSE))
  expect_equal(fit2$na_dropped, 0L)
  expect_error(calm(x, na = TRUE, verbose = FALSE), "na", class = "calm_error_argument")
})

test_that("logical columns are used as 0/1 and calm says so", {
  sem <- use_sem()
  df <- as.data.frame(sem$x)
  df$flag <- df$X1 > 0
  expect_message(fit <- calm(df, verbose = FALSE), "flag", class = "calm_message_logical")
  expect_true("flag" %in% colnames(fit$amat))
  expect_message(estimate_moral_graph(df), "0/1", class = "calm_message_logical")
})

test_that("verbose = TRUE shows progress over restarts", {
  sem <- use_sem()
  out <- capture.output(
    msgs <- capture.output(fit <- calm(sem$x, restarts = 2, verbose = TRUE), type = "message"),
    type = "output")
  all_out <- paste(c(out, msgs), collapse = "\n")
  expect_match(all_out, "2 restarts")
  expect_match(all_out, "100%|restart", perl = TRUE)
  expect_equal(nrow(fit$restarts), 2)
})

test_that("DAG plots use a layered layout with isolated nodes aside", {
  m <- matrix(0, 6, 6, dimnames = list(LETTERS[1:6], LETTERS[1:6]))
  m["A", "B"] <- m["B", "C"] <- m["A", "D"] <- 1   # E, F isolated
  xy <- calm:::dag_layout(igraph::graph_from_adjacency_matrix(m))
  expect_equal(dim(xy), c(6L, 2L))
  # isolated nodes share one column to the right of everything else
  expect_equal(xy[5, 1], xy[6, 1])
  expect_gt(xy[5, 1], max(xy[1:4, 1]))
  # parents above children
  expect_gt(xy[1, 2], xy[2, 2])
  expect_gt(xy[2, 2], xy[3, 2])
  # nodes of one layer at least one unit apart
  same <- which(abs(outer(xy[1:4, 2], xy[1:4, 2], "-")) < 1e-9 & upper.tri(diag(4)), arr.ind = TRUE)
  if (nrow(same)) expect_true(all(abs(xy[same[, 1], 1] - xy[same[, 2], 1]) >= 1 - 1e-9))
  empty <- calm:::dag_layout(igraph::make_empty_graph(3))
  expect_equal(dim(empty), c(3L, 2L))
})

test_that("citation('calm') names the paper", {
  cit <- utils::citation("calm")
  txt <- gsub("\\s+", " ", paste(format(cit, style = "text"), collapse = " "))
  expect_match(txt, "Jin")
  expect_match(txt, "Revisiting Differentiable Structure Learning")
  expect_no_match(txt, "developers c")
})

test_that("every export has an example on its help page", {
  rd <- tools::Rd_db("calm")
  tag <- function(r, t) r[vapply(r, function(x) identical(attr(x, "Rd_tag"), t), logical(1))]
  aliases <- lapply(rd, function(r) unlist(lapply(tag(r, "\\alias"), as.character)))
  has_example <- vapply(rd, function(r) length(tag(r, "\\examples")) > 0L, logical(1))
  with_example <- unlist(aliases[has_example])
  missing <- setdiff(getNamespaceExports("calm"), with_example)
  expect(length(missing) == 0L, paste("exports without an example:", paste(sort(missing), collapse = ", ")))
  # runnable: nothing wrapped in \dontrun
  ex <- vapply(rd[has_example], function(r) paste(as.character(tag(r, "\\examples")), collapse = ""), "")
  expect_false(any(grepl("dontrun", ex, fixed = TRUE)))
})
