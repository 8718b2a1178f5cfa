# Arguments passed on through `...` (R/dots.R): each named, each one the
# receiving function takes, a misspelt one an error naming it.

test_that("check_dots_for() refuses unnamed and unknown arguments, naming them", {
  f <- function(a, b) NULL
  expect_true(calm:::check_dots_for(list(), f, "f", environment()))
  expect_true(calm:::check_dots_for(list(a = 1, b = 2), f, "f", environment()))
  expect_error(calm:::check_dots_for(list(1), f, "f", environment()),
               "must be named", class = "calm_error_argument")
  expect_error(calm:::check_dots_for(list(a = 1, bb = 2), f, "f", environment()),
               "`bb`", class = "calm_error_argument")
  # a function with its own `...` takes any name
  g <- function(a, ...) NULL
  expect_true(calm:::check_dots_for(list(zz = 1), g, "g", environment()))
})

test_that("calm(), boss() and exact_search() take in `...` only the names they read there", {
  acc <- calm:::dots_accepted(calm)
  expect_true(all(c(names(calm_control()), "whitelist", "blacklist") %in% acc))
  expect_true(calm:::check_dots_for(list(lambda1 = 0.1, whitelist = NULL), calm, "calm",
                                    environment()))
  expect_error(calm:::check_dots_for(list(lamda1 = 0.1), calm, "calm", environment()),
               "`lamda1`", class = "calm_error_argument")
  expect_true("lambda1" %in% calm:::dots_accepted(boss))
  expect_identical(calm:::dots_accepted(exact_search), "lambda1")
  expect_null(calm:::dots_accepted(function(...) NULL))
})
