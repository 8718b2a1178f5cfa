# search_control(): the one home of the discrete search's settings
# (R/search-control.R), read by calm(), boss() and exact_search().

test_that("search_control() holds every setting with its default written once", {
  sc <- search_control()
  expect_s3_class(sc, "calm_search_control")
  expect_identical(names(sc), calm:::search_fields())
  expect_identical(sort(setdiff(names(formals(search_control)), "...")),
                   sort(calm:::search_fields()))
  # the defaults are read from search_control()'s formals, the one place
  # that writes them
  for (f in c("penalty_folds", "exact_parents_max", "kicks", "max_sweeps", "selection_tie_se")) {
    expect_equal(sc[[f]], calm:::search_default(f))
  }
  expect_identical(calm:::search_default("penalty_grid"), c(1.5, 2, 2.5, 3, 4))
  expect_equal(calm:::search_default("exact_parents_max"), 14)
  expect_length(attr(sc, "given"), 0L)
  expect_identical(attr(search_control(kicks = 3, gamma = 1), "given"), c("gamma", "kicks"))
})

test_that("no other function of calm writes a default of the search", {
  ns <- asNamespace("calm")
  fields <- calm:::search_fields()
  # the defaults boss() keeps for a measured reason (see ?boss, "Defaults")
  own <- names(calm:::boss_own_defaults)
  grid <- deparse(calm:::search_default("penalty_grid"))
  offenders <- character()
  # not the search: the extended BIC's formula and pcalg's GES (a baseline
  # with pcalg's default discount 1) share a name with a setting only
  others <- c("search_control", "ebic_lambda", "ges_pcalg")
  for (fn in setdiff(ls(ns, all.names = TRUE), others)) {
    f <- get(fn, envir = ns)
    if (!is.function(f) || is.primitive(f)) next
    fm <- formals(f)
    for (a in intersect(names(fm), fields)) {
      if (is.symbol(fm[[a]])) next  # no default
      v <- fm[[a]]
      # a literal default (a number, string or vector) repeats search_control()'s
      literal <- (is.atomic(v) && !is.null(v)) ||
        (is.call(v) && identical(v[[1L]], as.name("c")))
      if (literal) offenders <- c(offenders, paste0(fn, "(", a, ")"))
    }
    body_text <- paste(deparse(body(f)), collapse = "\n")
    if (grepl(grid, body_text, fixed = TRUE)) offenders <- c(offenders, paste0(fn, ": grid"))
  }
  expect_identical(offenders, character())
  # boss()'s own defaults differ from search_control()'s, or they would not be its own
  for (f in own) {
    expect_false(identical(calm:::boss_own_defaults[[f]], calm:::search_default(f)))
  }
})

test_that("calm(), boss() and exact_search() take the same settings object", {
  expect_true("control" %in% names(formals(boss)))
  expect_true("control" %in% names(formals(exact_search)))
  expect_true("search" %in% names(formals(calm_control)))
  set.seed(1)
  sem <- simulate_sem(6, k = 1, n = 200)
  sc <- search_control(penalty_discount = 3, order_starts = 2)
  b <- boss(sem$x, control = sc)
  expect_equal(b$penalty$discount, 3)
  expect_equal(b$settings$control$order_starts, 2)
  e <- exact_search(sem$x, edge_penalty = NULL, control = sc, moral = "none")
  expect_equal(e$penalty$discount, 3)
  expect_equal(e$settings$edge_penalty, bic_lambda(200, 3))
  # the same optimum of the same score
  expect_lte(e$score, b$score + 1e-8)
  expect_identical(calm_control(search = sc)$search, sc)
})

test_that("boss() uses its own defaults only where the settings leave them", {
  set.seed(2)
  sem <- simulate_sem(6, k = 1, n = 200)
  b <- boss(sem$x, starts = 2)
  expect_equal(b$settings$kicks, 0)
  expect_equal(b$settings$grow_ratio, 1)
  expect_equal(b$penalty$discount, 2)
  b2 <- boss(sem$x, starts = 2, control = search_control(kicks = 3, penalty_discount = 4))
  expect_equal(b2$settings$kicks, 3)
  expect_equal(b2$penalty$discount, 4)
  expect_equal(b2$settings$grow_ratio, 1)
  expect_error(boss(sem$x, control = search_control(grow_ratio = "auto")), "grow_ratio",
               class = "calm_error_argument")
  expect_error(boss(sem$x, control = 3), "control", class = "calm_error_argument")
  expect_error(boss(sem$x, kickz = 1), "kickz", class = "calm_error_argument")
})

test_that("the old argument names keep working, with a deprecation warning", {
  set.seed(3)
  sem <- simulate_sem(6, k = 1, n = 200)
  set.seed(4)
  new <- boss(sem$x, starts = 2, control = search_control(kicks = 2, penalty_discount = 3))
  set.seed(4)
  expect_warning(old <- boss(sem$x, starts = 2, kicks = 2, penalty_discount = 3),
                 class = "calm_warning_deprecated")
  expect_identical(old$amat, new$amat)
  expect_identical(old$score, new$score)
  # the once-per-session warnings, forced on here
  withr::local_options(rlib_warning_verbosity = "verbose")
  expect_warning(rc <- refine_control(kicks = 4), "search_control",
                 class = "calm_warning_deprecated")
  expect_identical(unclass(rc), unclass(search_control(kicks = 4)))
  expect_warning(ctrl <- calm_control(refine = search_control(kicks = 5)), "search",
                 class = "calm_warning_deprecated")
  expect_equal(ctrl$search$kicks, 5)
  expect_error(suppressWarnings(calm_control(refine = search_control(), search = search_control())),
               "refine", class = "calm_error_argument")
  # the penalty shortcuts of calm_control() set the search's fields
  expect_equal(calm_control(penalty_discount = 2, penalty_folds = 3)$search$penalty_folds, 3)
})

test_that("the selection's former constants are settings", {
  set.seed(5)
  sem <- simulate_sem(8, k = 1, n = 300)
  p1 <- withr::with_seed(6, select_penalty(sem$x, grid = c(1, 2, 4), folds = 3, splits = 1))
  expect_equal(p1$splits, 1)
  sc <- search_control(selection_splits = 1, selection_tie_se = 0, penalty_grid = c(1, 2, 4),
                       penalty_folds = 3)
  b <- withr::with_seed(7, boss(sem$x, starts = 2,
                                control = search_control(penalty_discount = "cv",
                                                         selection_splits = 1,
                                                         selection_tie_se = 0,
                                                         penalty_grid = c(1, 2, 4),
                                                         penalty_folds = 3)))
  expect_equal(b$penalty$splits, 1)
  expect_equal(b$penalty$tie_se, 0)
  expect_identical(nrow(b$penalty$table), 3L)
  expect_error(search_control(selection_splits = 0), "selection_splits",
               class = "calm_error_argument")
  expect_error(search_control(selection_tie_se = -1), "selection_tie_se",
               class = "calm_error_argument")
  expect_error(search_control(order_selection_keep_se = NA), "order_selection_keep_se",
               class = "calm_error_argument")
  expect_error(search_control(provisional_gamma = -1), "provisional_gamma",
               class = "calm_error_argument")
  expect_equal(sc$selection_splits, 1)
})

test_that("`order`, the former name of `order_search`, still works with a warning", {
  expect_warning(old <- search_control(order = FALSE), "order_search",
                 class = "calm_warning_deprecated")
  new <- search_control(order_search = FALSE)
  expect_identical(unclass(old), unclass(new))
  expect_identical(attr(old, "given"), "order_search")
  expect_false(old$order_search)
  expect_null(old[["order"]])
  # in a list of arguments too (calm_control(search = ), boss(control = ))
  expect_warning(ctrl <- calm_control(search = list(order = FALSE)),
                 class = "calm_warning_deprecated")
  expect_false(ctrl$search$order_search)
  expect_error(suppressWarnings(search_control(order = FALSE, order_search = TRUE)),
               "order_search", class = "calm_error_argument")
  expect_error(search_control(order_search = "yes"), "order_search",
               class = "calm_error_argument")
})

test_that("`exact_limit`, the former name of `exact_parents_max`, still works with a warning", {
  expect_warning(old <- search_control(exact_limit = 6), "exact_parents_max",
                 class = "calm_warning_deprecated")
  expect_identical(unclass(old), unclass(search_control(exact_parents_max = 6)))
  expect_null(old[["exact_limit"]])
  # boss()'s former argument of that name sets the new field
  set.seed(8)
  sem <- simulate_sem(6, k = 1, n = 200)
  set.seed(9)
  new <- boss(sem$x, starts = 2, control = search_control(exact_parents_max = 0))
  set.seed(9)
  expect_warning(fit <- boss(sem$x, starts = 2, exact_limit = 0), "exact_parents_max",
                 class = "calm_warning_deprecated")
  expect_equal(fit$settings$exact_parents_max, 0)
  expect_identical(fit$amat, new$amat)
  expect_error(boss(sem$x, exact_parents_max = 0), "exact_parents_max",
               class = "calm_error_argument")
})
