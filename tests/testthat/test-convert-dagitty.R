# Conversion to and from dagitty's text (R/convert-dagitty.R).

test_that("dagitty text is built without dagitty", {
  code <- calm:::dagitty_code(test_dag())
  expect_match(code, "^dag \\{")
  expect_match(code, "a -> c", fixed = TRUE)
  expect_false(grepl("--", code, fixed = TRUE))
  # every node is listed, so isolated nodes survive
  lone <- test_dag()
  lone["e", "f"] <- 0
  lines <- strsplit(calm:::dagitty_code(lone), "\n")[[1]]
  expect_true(all(c("e", "f") %in% lines))

  code <- calm:::dagitty_code(test_cpdag())
  expect_match(code, "^pdag \\{")
  expect_match(code, "e -- f", fixed = TRUE)
  expect_false(grepl("f -- e", code, fixed = TRUE))
  expect_false(grepl("e -> f", code, fixed = TRUE))

  expect_identical(calm:::dagitty_quote(c("x.1", "my node", "a\"b", "X_2")),
                   c("x.1", "\"my node\"", "\"a\\\"b\"", "X_2"))
})

test_that("dagitty round trips DAGs and CPDAGs", {
  for (m in list(test_dag(), test_cpdag())) {
    g <- as_dagitty(m)
    expect_s3_class(g, "dagitty")
    back <- as_amat(g)
    expect_setequal(rownames(back), rownames(m))
    expect_identical(back[rownames(m), rownames(m)], m)
  }
  expect_match(as_dagitty(test_dag()), "^dag \\{")
  expect_match(as_dagitty(test_cpdag()), "^pdag \\{")
  # dagitty's own notation: chains, "<-", attributes and ";" separators
  hand <- structure('dag {\nx [exposure,pos="0,1"]\ny [outcome]\nx -> m -> y; z <- y\n}',
                    class = "dagitty")
  m <- as_amat(hand)
  expect_identical(rownames(m), c("x", "y", "m", "z"))
  expect_equal(sum(m), 3)
  expect_equal(m["x", "m"] + m["m", "y"] + m["y", "z"], 3)
  # names that need quoting survive
  odd <- test_dag()
  dimnames(odd) <- rep(list(c("A b", "c-d", "e", "f.g", "h", "i")), 2)
  back <- as_amat(as_dagitty(odd))
  expect_identical(back[rownames(odd), rownames(odd)], odd)
  # marks with no matrix form are refused
  expect_error(as_amat(structure("mag { a <-> b }", class = "dagitty")),
               class = "calm_error_argument")
})
