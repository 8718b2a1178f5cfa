# Small things a user meets: alpha in calm(), progress over restarts, the
# citation, an example on every help page (missing values and logical columns
# are in test-missing.R, the layered layout in test-layout.R).

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
