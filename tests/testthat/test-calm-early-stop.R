# Early stopping of the rounds of the hard constraint (calm_control's
# early_stop, check_every, patience, stop_tol): where rounds may end, what
# holds at a round that ended early, and what it leaves alone.

es_case <- function() {
  set.seed(2)
  sem <- simulate_sem(6, k = 1)
  list(sem = sem, sigma = stats::cov2cor(sem$sigma),
       mask = moral_graph(sem$dag, output = "matrix"))
}
es_control <- function(...) {
  args <- utils::modifyList(list(schedule = "long", iter_per_round = 20000, check_every = 500, patience = 5),
                            list(...))
  do.call(calm_control, args)
}

test_that("without early stopping every round runs all its steps", {
  cs <- es_case()
  set.seed(1)
  # three rounds do not meet the constraint: the fit warns, as documented
  fit <- suppressWarnings(calm(cov = cs$sem$sigma, moral = cs$mask, verbose = FALSE,
                               control = es_control(early_stop = FALSE, max_rounds = 3)))
  expect_identical(fit$trace$steps, rep(20000, 3))
})

test_that("early stopping ends rounds at checks and still recovers the graph", {
  cs <- es_case()
  set.seed(1)
  # (without settling, so that the schedule runs until h < h_tol)
  fit <- calm(cov = cs$sem$sigma, moral = cs$mask, verbose = FALSE,
              control = es_control(settle_rounds = 0))
  expect_true(fit$converged)
  expect_identical(fit$stop, "h_tol")
  expect_lt(fit$h, 1e-8)
  expect_identical(compare_graphs(fit, cs$sem$B)$shd, 0L)
  steps <- fit$trace$steps
  short <- steps < 20000
  expect_true(any(short))
  # a round ends early only at a check, and never before patience + 1 checks
  expect_true(all(steps[short] %% 500 == 0))
  expect_true(all(steps[short] >= 6 * 500))
})

test_that("every round that ended early meets the stopping rule", {
  cs <- es_case()
  ctrl <- calm:::optimizer_control(es_control())
  r <- calm:::cpp_calm_fit(cs$sigma, cs$mask, ctrl, "gumbel", "likelihood", "hard", 5,
                           NULL, TRUE)
  checks <- as.data.frame(r$checks)
  ended <- which(r$trace$steps < ctrl$iter_per_round)
  expect_gt(length(ended), 0)
  for (rd in ended) {
    ck <- checks[checks$round == rd, ]
    k <- nrow(ck)
    label <- paste("round", rd)
    expect_identical(ck$iter[k], r$trace$steps[rd], label = label)
    expect_gt(k, ctrl$patience, label = label)
    # (a) the edge set did not change over the last `patience` checks
    expect_false(any(ck$edges_changed[(k - ctrl$patience + 1):k]), label = label)
    # (c) converged, or (d) the objective stopped falling
    fell <- ck$objective[k - ctrl$patience] - ck$objective[k]
    expect_true(ck$h[k] < ctrl$h_tol || fell < ctrl$stop_tol, label = label)
  }
  # rounds that ran in full were never stopped at a check
  full <- setdiff(seq_along(r$trace$steps), ended)
  expect_true(all(r$trace$steps[full] == ctrl$iter_per_round))
})

test_that("early-stopped fits are reproducible from the seed", {
  cs <- es_case()
  run <- function() {
    set.seed(3)
    suppressWarnings(calm(cov = cs$sem$sigma, moral = cs$mask, verbose = FALSE,
                          control = es_control(max_rounds = 8)))
  }
  a <- run()
  b <- run()
  expect_identical(a$trace$steps, b$trace$steps)
  expect_identical(a$trace$objective, b$trace$objective)
  expect_identical(a$amat, b$amat)
})

test_that("short rounds and the soft constraint always run in full", {
  cs <- es_case()
  set.seed(1)
  # (patience + 1) * check_every = 3000 > 2500: no check can end a round
  fit <- suppressWarnings(calm(cov = cs$sem$sigma, moral = cs$mask, verbose = FALSE,
                               control = es_control(iter_per_round = 2500, max_rounds = 4)))
  expect_identical(fit$trace$steps, rep(2500, 4))
  set.seed(1)
  soft <- suppressWarnings(calm(cov = cs$sem$sigma, moral = cs$mask, constraint = "soft",
                                verbose = FALSE, control = es_control(soft_iter = 8000)))
  expect_identical(soft$trace$steps, 8000)
})

test_that("the early-stopping controls are recorded in the fit", {
  ctrl <- calm_control()
  expect_true(ctrl$early_stop)
  expect_equal(ctrl$max_rounds, 45)
  fit <- suppressWarnings(calm(cov = es_case()$sem$sigma, verbose = FALSE,
                               control = es_control(early_stop = FALSE, max_rounds = 1)))
  expect_false(fit$settings$control$early_stop)
})

test_that("the trace marks acyclic and changed edge sets", {
  cs <- es_case()
  set.seed(1)
  fit <- calm(cov = cs$sem$sigma, moral = cs$mask, verbose = FALSE, control = es_control())
  tr <- fit$trace
  expect_type(tr$dag, "logical")
  expect_type(tr$changed, "logical")
  expect_true(tr$changed[1])
  # a different number of edges is a different edge set
  expect_true(all(tr$changed[-1][diff(tr$edges) != 0]))
  # the converged graph is acyclic
  expect_true(tr$dag[nrow(tr)])
})

test_that("the schedule ends once the graph has settled, on the same path", {
  cs <- es_case()
  fit_with <- function(...) {
    set.seed(4)
    suppressWarnings(calm(cov = cs$sem$sigma, moral = cs$mask, verbose = FALSE,
                          control = es_control(...)))
  }
  settled <- fit_with()
  full <- fit_with(settle_rounds = 0)
  expect_identical(settled$stop, "settled")
  expect_identical(full$stop, "h_tol")
  expect_true(settled$converged)
  tr <- settled$trace
  r <- nrow(tr)
  expect_lt(r, nrow(full$trace))
  # the rule: acyclic, unchanged over settle_rounds rounds, h below h_settle
  # (but not yet below h_tol, which would have ended the schedule anyway)
  expect_true(tr$dag[r])
  expect_false(any(tr$changed[(r - 1):r]))
  expect_lt(tr$h[r], settled$settings$control$h_settle)
  expect_gte(tr$h[r], 1e-8)
  # settling only ends the schedule: the rounds run are those of the full fit
  cols <- c("rho", "h", "objective", "edges", "dag", "changed", "steps")
  expect_identical(tr[, cols], full$trace[seq_len(r), cols])
  expect_identical(settled$amat, full$amat)
  expect_true(any(grepl("converged (graph settled)", capture.output(print(settled, details = TRUE)),
                        fixed = TRUE)))
  # settle_rounds = 3 needs the same edge set over one round more
  later <- fit_with(settle_rounds = 3)
  r3 <- nrow(later$trace)
  expect_gte(r3, r)
  expect_identical(later$stop, "settled")
  expect_false(any(later$trace$changed[(r3 - 2):r3]))
})

test_that("settling is part of early stopping: off with the paper's schedule", {
  cs <- es_case()
  set.seed(4)
  paper <- suppressWarnings(calm(cov = cs$sem$sigma, moral = cs$mask, verbose = FALSE,
                                 control = es_control(early_stop = FALSE, max_rounds = 30)))
  expect_identical(paper$stop, "h_tol")
  expect_lt(paper$h, 1e-8)
  expect_true(all(paper$trace$steps == 20000))
  set.seed(4)
  soft <- suppressWarnings(calm(cov = cs$sem$sigma, moral = cs$mask, constraint = "soft",
                                verbose = FALSE, control = es_control(soft_iter = 3000)))
  expect_identical(soft$stop, "steps")
})

# The rule on its own (EarlyStop in src/early_stop.cpp), on made-up checks:
# patience 2, a check every 10 steps, one entry.
es_trial <- function(objective, h, changed = FALSE, margin = 1, remaining = 1000,
                     stop_tol = 1e-4, h_tol = 1e-8) {
  k <- length(objective)
  calm:::cpp_early_stop_trial(objective, h, rep_len(changed, k),
                              matrix(rep_len(margin, k), nrow = 1), rep_len(remaining, k),
                              patience = 2L, check_every = 10, stop_tol = stop_tol,
                              h_tol = h_tol)
}

test_that("the early-stopping rule waits for patience + 1 checks", {
  r <- es_trial(rep(1, 4), rep(1e-9, 4))
  expect_identical(r$done, c(FALSE, FALSE, TRUE, TRUE))
})

test_that("the rule ends a round at once when h is below h_tol and nothing moves", {
  expect_true(es_trial(c(3, 2, 1), rep(1e-9, 3))$done[3])
})

test_that("a change of the edge set within the last patience checks keeps the round going", {
  expect_false(es_trial(rep(1, 3), rep(1e-9, 3), changed = c(FALSE, TRUE, FALSE))$done[3])
  expect_true(es_trial(rep(1, 4), rep(1e-9, 4), changed = c(TRUE, FALSE, FALSE, FALSE))$done[4])
})

test_that("a falling objective keeps the round going while h is above h_tol", {
  expect_false(es_trial(c(3, 2, 1), rep(1e-3, 3))$done[3])
  # flat objective, h flat: h will not reach h_tol in the round, so it ends
  expect_true(es_trial(c(1, 1, 1), rep(1e-3, 3))$done[3])
})

test_that("h falling fast enough to reach h_tol within the round keeps it going", {
  # log h falls by 2 per check (0.2 per step); 1000 steps left reach 1e-8
  h <- exp(c(-2, -4, -6))
  expect_false(es_trial(c(1, 1, 1), h, remaining = 1000)$done[3])
  expect_true(es_trial(c(1, 1, 1), h, remaining = 10)$done[3])
})

test_that("a gate drifting towards its threshold keeps the round going", {
  # margin falls by 0.1 per check (0.01 per step): crosses zero within 1000 steps
  r <- es_trial(c(1, 1, 1), rep(1e-9, 3), margin = c(0.3, 0.2, 0.1), remaining = 1000)
  expect_true(r$crossing[3])
  expect_false(r$done[3])
  r <- es_trial(c(1, 1, 1), rep(1e-9, 3), margin = c(0.3, 0.2, 0.1), remaining = 5)
  expect_false(r$crossing[3])
  expect_true(r$done[3])
})

test_that("a non-finite objective never ends a round", {
  expect_false(es_trial(c(1, 1, NaN), rep(1e-9, 3))$done[3])
})
