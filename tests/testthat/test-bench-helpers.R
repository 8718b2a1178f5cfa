# The helpers of inst/bench (bench_args.R): the scripts' argument parser and
# the stored results' format, which the README and the vignettes read.
bench_env <- function() {
  f <- system.file("bench", "bench_args.R", package = "calm")
  skip_if(!nzchar(f), "inst/bench is not installed")
  env <- new.env()
  sys.source(f, env)
  env
}

test_that("bench_args() reads positional and named arguments the same way", {
  b <- bench_env()
  d <- list(out = NA_character_, reps = 10L, k = 4, std = TRUE, methods = "a,b")
  pos <- b$bench_args(d, args = c("o.rds", "3", "1", "FALSE"))
  named <- b$bench_args(d, args = c("k=1", "o.rds", "--std=FALSE", "reps=3"))
  expect_identical(pos, named)
  expect_identical(pos$reps, 3L)
  expect_identical(b$bench_args(d, args = c("x", "k=Inf"))$k, Inf)
  expect_identical(b$bench_list(pos$methods), c("a", "b"))
  expect_error(b$bench_args(d, args = character(0), usage = "u"), "'out' is required")
  expect_error(b$bench_args(d, args = c("o", "zz")), "'reps' must be integer")
  expect_error(b$bench_args(d, args = c("o", "bad=1")), "unknown argument 'bad'")
  expect_error(b$bench_args(d, args = as.character(1:6)), "too many arguments")
})

test_that("bench_args() takes a keyed argument's value word=value by position", {
  b <- bench_env()
  d <- list(out = NA_character_, methods = "a,b")
  a <- b$bench_args(d, args = c("o.rds", "calm=1500"), keyed = "methods")
  expect_identical(a$methods, "calm=1500")
  expect_identical(b$bench_args(d, args = c("methods=calm=1", "o"), keyed = "methods")$methods,
                   "calm=1")
  expect_error(b$bench_args(d, args = "calm=1500", keyed = "methods"), "unknown argument 'calm'")
  expect_error(b$bench_args(d, args = c("o", "calm=1500")), "unknown argument 'calm'")
})

test_that("bench_append() keeps every run as its script wrote it", {
  b <- bench_env()
  file <- tempfile(fileext = ".rds")
  one <- data.frame(seed = 1:2, shd = c(0L, 3L), discount = c(1, 2))
  attr(one, "methods") <- "boss"
  two <- data.frame(seed = 3L, discount = "ebic", note = "x", stringsAsFactors = FALSE)
  b$bench_append(one, file, "first", provenance = list(command = "a"))
  b$bench_append(two, file, "second", provenance = list(command = "b"))
  stored <- readRDS(file)
  expect_identical(b$stored_runs(stored), c("first", "second"))
  back <- b$stored_run(stored, "first")
  expect_identical(attr(back, "provenance"), list(command = "a"))
  attr(back, "provenance") <- NULL
  expect_identical(back, one)
  # a run added again replaces the old one
  b$bench_append(two, file, "first", provenance = list(command = "c"))
  stored <- readRDS(file)
  expect_identical(nrow(stored), 2L)
  expect_identical(attr(b$stored_run(stored, "first"), "provenance"), list(command = "c"))
})

test_that("every stored result reads back with its provenance", {
  b <- bench_env()
  ext <- system.file("extdata", package = "calm")
  for (f in list.files(ext, pattern = "\\.rds$", full.names = TRUE)) {
    x <- readRDS(f)
    if (!is.data.frame(x) || is.null(x$run)) next
    for (run in b$stored_runs(x)) {
      r <- b$stored_run(x, run)
      expect_false(is.null(attr(r, "provenance")), info = paste(basename(f), run))
      expect_false("run" %in% names(r) && !"run" %in% attr(x, "layout")[[run]]$columns)
    }
  }
})
