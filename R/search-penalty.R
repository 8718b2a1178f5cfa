# The penalty of the discrete searches: a fixed BIC discount, or a discount
# chosen from the data by K-fold held-out log-likelihood (penalty_discount =
# "cv" in search_control()).

# The fold of each of n rows: as equal in size as possible, in a random order
# drawn from R's RNG (set.seed() reproduces it). With `strata` (the
# condition of each row of interventional data) every condition is spread
# evenly over the folds.
draw_folds <- function(n, folds, call, arg = "penalty_folds", strata = NULL) {
  if (folds > n / 2) {
    most <- sprintf("%s <= %d", arg, floor(n / 2))
    abort_arg(arg, "is {folds}, but the data have {n} rows: every fold needs at least 2 rows ({.code {most}}).",
              call = call)
  }
  if (is.null(strata)) return(sample(rep_len(seq_len(folds), n)))
  rows <- unlist(lapply(split(seq_len(n), strata), function(i) i[sample.int(length(i))]),
                 use.names = FALSE)
  fold <- integer(n)
  fold[rows] <- rep_len(seq_len(folds), n)
  fold
}

# The conditions of interventional data that the penalty's selection
# stratifies its folds by (attribute "calm_strata" of the data, set by
# calm() from its targets), or NULL.
fold_strata <- function(x) attr(x, "calm_strata")

# Held-out Gaussian log-likelihood, summed over the rows of `test`, of the
# node-wise regressions of `dag` (0/1, [i, j] for i -> j) fitted on the
# covariance `s` and means `mu` of the training rows.
heldout_loglik <- function(dag, s, mu, test) {
  # above DATA_COV_CPP_D variables in C++ (the same sum, other rounding):
  # this loop took most of the selection's time at d = 2000
  if (ncol(s) > DATA_COV_CPP_D) {
    storage.mode(dag) <- "double"
    return(cpp_heldout_loglik(dag, s, as.double(mu), test, admissible_floor))
  }
  centred <- sweep(test, 2L, mu)
  total <- 0
  for (j in seq_len(ncol(s))) {
    pa <- which(dag[, j] != 0)
    total <- total + node_heldout(s, j, pa, centred[, j], centred[, pa, drop = FALSE])
  }
  total
}

# One fold of the selection: BOSS on the training rows at each
# discount of `grid` (decreasing), the first from the two orders of
# `starts` (drawn by fold_tasks()), each later one from the order found at
# the previous discount, scored on the held-out rows.
fold_path <- function(train, test, grid, mask, exact_parents_max, starts) {
  m <- fold_moments(train)
  vapply(grid, function(k) {
    r <- boss_search(m$s, mask, bic_lambda(m$n, k), starts, search_default("max_sweeps"),
                     exact_parents_max, TRUE, 1, max_parents = max_parents_for(m$n))
    starts <<- matrix(r$order, ncol = 1L)
    heldout_loglik(r$dag, m$s, m$mu, test)
  }, numeric(1))
}

# What a fold's searches and held-out scores use of its training rows: their
# number `n`, covariance `s` (divisor n) and means `mu`.
fold_moments <- function(train) {
  list(n = nrow(train), s = data_cov(train), mu = colMeans(train))
}

# The data of a selection, each column divided by its largest absolute value:
# the score does not depend on the variables' scales, and rescaled, the
# covariances of data on extreme scales neither over- nor underflow.
selection_scale <- function(x) sweep(x, 2L, apply(abs(x), 2L, max), `/`)

# The tasks of the selection, all drawn here from R's RNG before any runs,
# so that set.seed() gives the same tasks whatever the future plan: for each
# of `splits` random splits of the n rows into `folds` folds, one task per
# fold with its held-out rows `test` and the two random start orders of its
# first search (d variables).
fold_tasks <- function(n, d, folds, splits, call, fold_arg, strata = NULL) {
  unlist(lapply(seq_len(splits), function(s) {
    fold <- draw_folds(n, folds, call, fold_arg, strata)
    lapply(seq_len(folds), function(f) {
      list(test = which(fold == f), starts = cbind(sample.int(d), sample.int(d)))
    })
  }), recursive = FALSE)
}

# One task of fold_tasks() on the data `x`: the fold's path of held-out
# log-likelihoods per held-out row.
fold_task_loglik <- function(task, x, grid, mask, exact_parents_max) {
  test <- task$test
  fold_path(x[-test, , drop = FALSE], x[test, , drop = FALSE], grid, mask, exact_parents_max,
            task$starts) / length(test)
}

# How the selection reads its criterion: the folds of `selection_splits`
# independent random splits are pooled, and the choice is the largest
# discount whose mean held-out log-likelihood is within `selection_tie_se`
# standard errors of the best (chosen on the tuning seeds of
# inst/bench/bench_penalty_select.R; see the realistic-benchmark vignette):
# search_control(selection_splits, selection_tie_se).

# Chooses the penalty discount from `grid` by `folds`-fold held-out
# log-likelihood of the DAGs that BOSS learns on the training
# rows, over `splits` random splits of the rows: the largest discount whose
# mean held-out log-likelihood per row is within `tie_se` standard errors of
# the best. `se` is the standard error over all folds of each discount's
# paired difference to the best.
# `x`: the data (numeric matrix, complete rows); `mask`: the pairs the search
# may join (d x d, 0/1). Returns the record stored in a fit's `penalty`.
select_discount <- function(x, grid, folds, mask,
                            exact_parents_max = search_default("exact_parents_max"),
                            call = parent.frame(), fold_arg = "penalty_folds",
                            splits = search_default("selection_splits"),
                            tie_se = search_default("selection_tie_se")) {
  n <- nrow(x)
  strata <- fold_strata(x)
  tg <- selection_targets(x)
  x <- selection_scale(x)
  storage.mode(mask) <- "double"
  tasks <- fold_tasks(n, ncol(x), folds, splits, call, fold_arg, strata)
  # the folds are independent: through the future plan (one task per fold),
  # or in this process with one worker
  task_loglik <- if (is.null(tg)) fold_task_loglik else interventional_fold_task(tg)
  ll <- if (future::nbrOfWorkers() > 1) {
    future.apply::future_lapply(tasks, task_loglik, x = x, grid = grid, mask = mask,
                                exact_parents_max = exact_parents_max, future.seed = FALSE,
                                future.packages = "calm")
  } else {
    lapply(tasks, task_loglik, x = x, grid = grid, mask = mask,
           exact_parents_max = exact_parents_max)
  }
  ll <- matrix(unlist(ll), nrow = length(grid))
  ch <- choose_discount(ll, grid, tie_se)
  penalty_record("cv", ch$discount, bic_lambda(n, ch$discount), table = ch$table, folds = folds,
                 splits = splits, tie_se = tie_se)
}

# The selection's rule on `ll`, the held-out log-likelihoods per row (one
# row per discount of the decreasing `grid`, one column per fold): the
# largest discount whose mean is within `tie_se` standard errors of the
# best, where `se` is the standard error over the folds of each discount's
# paired difference to the best. With `keep` (a discount of the grid), that
# one wherever it is within `keep_se` standard errors of the best. Returns
# the chosen `discount` and the `table` a fit's penalty record shows.
choose_discount <- function(ll, grid, tie_se, keep = NULL, keep_se = tie_se) {
  mean_ll <- rowMeans(ll)
  best <- which.max(mean_ll)
  se <- apply(ll, 1L, function(v) stats::sd(v - ll[best, ])) / sqrt(ncol(ll))
  k <- match(keep, grid)
  # the grid is decreasing: the first within the tolerance is the largest
  chosen <- if (length(k) && mean_ll[k] >= mean_ll[best] - keep_se * se[k]) k else
    min(which(mean_ll >= mean_ll[best] - tie_se * se))
  table <- data.frame(discount = grid, heldout_loglik = mean_ll, se = se,
                      chosen = seq_along(grid) == chosen)
  table <- table[order(table$discount), ]
  rownames(table) <- NULL
  list(discount = grid[chosen], table = table)
}

# What a fit records of its penalty: how it was set (`method`), the BIC
# discount and per-sample penalty per edge, and for "cv" the grid with each
# candidate's criterion; `label` is the one line print() shows.
penalty_record <- function(method, discount, lambda, table = NULL, folds = NULL, splits = NULL,
                           tie_se = NULL, in_order = NULL) {
  label <- switch(method,
    cv = sprintf("BIC, discount %s (chosen from %s by %s%d-fold held-out log-likelihood%s)",
                 format(signif(discount, 3)), paste(signif(table$discount, 3), collapse = ", "),
                 if (isTRUE(splits > 1)) paste(splits, "x ") else "", folds,
                 if (is.null(in_order)) "" else
                   sprintf(" of the graphs in the order of a first fit at discount %.3g, the extended BIC",
                           in_order)),
    fixed = sprintf("BIC, discount %g", discount),
    ebic = sprintf("extended BIC (BIC discount %.3g)", discount),
    lambda1 = sprintf("%g per edge and sample (lambda1)", lambda),
    sprintf("%g per edge and sample", lambda))
  structure(list(method = method, discount = discount, lambda = lambda, table = table,
                 folds = folds, splits = splits, tie_se = tie_se, in_order = in_order,
                 label = label),
            class = "calm_penalty")
}

#' Choose the penalty discount from the data
#'
#' Chooses the penalty discount `k` of the BIC (`k log(n) / (2 n)` per edge
#' and per sample, [bic_lambda()]) that [calm()] uses by default
#' (`search_control(penalty_discount = "cv")`) and [boss()] with
#' `penalty_discount = "cv"`. The rows are split at random into `folds`
#' folds, `splits` times over. For each fold and each discount of `grid`, the
#' search of [boss()] learns a DAG on the other folds, and the DAG's
#' node-wise regressions, fitted on those folds, are scored by their
#' Gaussian log-likelihood on the held-out fold. The choice is the largest
#' discount whose mean held-out log-likelihood is within half a standard
#' error of the best: where the candidates predict equally well, the sparser
#' graph is kept.
#'
#' Weak effects need a small discount to be found; on sparse graphs with
#' strong effects a larger discount keeps out spurious edges. No fixed
#' discount serves both, and the held-out likelihood tells them apart. The
#' searches of one fold share their order: each discount starts from the
#' order found at the previous (larger) one. The folds and the random start
#' orders come from R's random number generator, so `set.seed()` reproduces
#' the choice.
#'
#' **Parallel runs.** Each fold of each split, with its path of discounts,
#' is one task of [future.apply::future_lapply()] when `future::plan()` has
#' more than one worker, and runs in the calling R process otherwise. The
#' folds and start orders are all drawn before the tasks are sent out, so
#' the choice does not depend on the plan.
#'
#' **The learners' defaults.** One rule sets the penalty of every discrete
#' search; only the default discount differs, each for a reason:
#' - [calm()]: `"cv"` (this selection), the package's default;
#' - [boss()]: 2 with more observations than variables, as Tetrad's BOSS, so
#'   that it runs as published as a baseline, and the extended BIC with
#'   `n <= d`, where discount 2 fits the noise;
#' - [ges_pcalg()]: 1, pcalg's BIC, as pcalg runs it.
#'
#' Everywhere, `"cv"` falls back to the extended BIC ([ebic_lambda()])
#' without data (a covariance matrix) or with `n <= d`, and a population
#' covariance (`n = Inf`), which has no BIC, is scored with a fixed penalty
#' per edge and sample: `calm_control(lambda1)` in [calm()], 0.001 in
#' [boss()].
#'
#' **Many variables.** Above `search_control(order_all_pairs)` (250)
#' variables with an estimated moral graph, [calm()] does not run this
#' selection, whose searches over all pairs would cost several times the
#' fit. It fits first at the extended BIC with `gamma = 1` (a discount of
#' about 4.6 at 500 variables and n = 1000; `search_control(gamma)`), then
#' scores, on the same kind of
#' folds, the graph of each discount in the order of that fit (each
#' variable's best parents among those before it; no search over orders),
#' with the first fit's discount among the candidates. That discount stays
#' unless another predicts the held-out rows better by more than two
#' standard errors; otherwise the rule above chooses, and the refinement
#' runs again at the chosen discount from the first fit's graph. The fit's
#' `penalty$in_order` holds the first fit's discount. The held-out rows can
#' move the discount down where effects are weak, but hardly up (a few weak
#' false edges cost little prediction), so the first fit starts on the
#' strict side.
#'
#' @param x Data: a numeric matrix or data frame, one column per variable
#'   (complete rows).
#' @param grid Candidate penalty discounts (positive, distinct). `NULL`
#'   (default): `search_control(penalty_grid)`, 1.5, 2, 2.5, 3 and 4.
#' @param folds Number of folds (at least 2, at most `nrow(x) / 2`). `NULL`
#'   (default): `search_control(penalty_folds)`, 5.
#' @param splits Number of independent random splits into folds, whose folds
#'   are pooled. `NULL` (default): `search_control(selection_splits)`, 2.
#' @param moral The pairs the searches may join: `"none"` (default, all
#'   pairs), or a symmetric 0/1 matrix or undirected igraph graph.
#' @return An object of class `calm_penalty`: a list with `method` (`"cv"`),
#'   `discount` (the chosen discount), `lambda` (its penalty per edge and per
#'   sample at `n = nrow(x)`), `table` (a data frame with each candidate's
#'   `discount`, mean held-out log-likelihood per row `heldout_loglik`, its
#'   standard error `se` of its difference to the best over the folds,
#'   and `chosen`), `folds`, `splits`, `tie_se` (the tolerance, in standard
#'   errors), `in_order` (`NULL` here; in a fit whose discount was chosen in
#'   the order of a first fit, that fit's discount, see "Many variables")
#'   and `label` (the one line that `print()` of a fit shows).
#' @seealso [search_control()] (`penalty_discount`), [boss()].
#' @examples
#' set.seed(1)
#' sem <- simulate_sem(10, k = 1, n = 300)
#' select_penalty(sem$x, grid = c(1, 2, 4), folds = 3)
#' @export
select_penalty <- function(x, grid = NULL, folds = NULL, splits = NULL, moral = "none") {
  env <- environment()
  grid <- grid %||% search_default("penalty_grid")
  folds <- folds %||% search_default("penalty_folds")
  splits <- splits %||% search_default("selection_splits")
  grid <- check_penalty_grid(grid, "grid", call = env)
  folds <- check_count(folds, "folds", min = 2, max = 1000, call = env)
  splits <- check_count(splits, "splits", min = 1, max = 100, call = env)
  cv <- resolve_covariance(x, NULL, NULL, TRUE, call = env, small_n = TRUE)
  d <- ncol(cv$sigma)
  mask <- if (identical(moral, "none")) {
    matrix(1, d, d) - diag(d)
  } else {
    resolve_moral(moral, set_node_names(cv$sigma), cv$n, call = env)$mask
  }
  select_discount(cv$x, grid, folds, mask, call = env, fold_arg = "folds", splits = splits)
}

#' @export
print.calm_penalty <- function(x, ...) {
  cat("penalty:", x$label, "\n")
  if (!is.null(x$table)) print(x$table, row.names = FALSE, digits = 4)
  invisible(x)
}

# The one resolver of the discrete searches' penalty: calm()'s refinement,
# boss() and ges_pcalg() call it and keep its record. In this order:
# 1. `fixed`: a record the caller made of a penalty the user gave per edge
#    and sample (boss(edge_penalty = ), search_control(penalty = <number>));
# 2. a population covariance (n = Inf) has no BIC: `population`, the
#    learner's own record (calm(): its lambda1; boss(): 0.001, see ?boss);
# 3. `ebic = TRUE` (search_control(penalty = "ebic")): the extended BIC;
# 4. a number `discount`: the BIC at that discount; "auto" is 2 with more
#    rows than variables (Tetrad's BOSS, boss()'s default) and "cv" else;
# 5. "cv": the discount chosen from `grid` by held-out log-likelihood when
#    there are data `x`, a `mask` for the selection's searches, at least 2
#    folds of 2 rows and more rows than variables (with n <= d, issue 36,
#    the held-out choice swings between discounts from one draw of the folds
#    to the next; the extended BIC does not);
# 6. otherwise the extended BIC with `gamma`, made for many variables. Where
#    only the mask was missing (calm() above search_control(order_all_pairs)
#    variables), the record is `provisional`: the first fit's penalty, the
#    discount then chosen in its order (refine_at_penalty()). `gamma = "auto"`
#    (calm()'s default) is search_control(provisional_gamma) there and 0.75
#    elsewhere.
# `sc`: the search_control() whose selection settings apply.
resolve_penalty <- function(discount, n, d, x = NULL, mask = NULL, fixed = NULL,
                            population = NULL, ebic = FALSE, gamma = sc$gamma,
                            sc = search_control(), call = parent.frame()) {
  if (!is.null(fixed)) return(fixed)
  if (!is.finite(n)) return(population)
  if (identical(discount, "auto")) discount <- if (n > d) 2 else "cv"
  folds <- sc$penalty_folds
  if (!ebic && is.numeric(discount)) return(penalty_record("fixed", discount, bic_lambda(n, discount)))
  # small data: as many folds as have 2 rows each; below 4 rows the extended BIC
  folds <- min(folds, floor(n / 2))
  selectable <- !ebic && !is.null(x) && folds >= 2 && n > d
  if (selectable && !is.null(mask)) {
    return(select_discount(x, sc$penalty_grid, folds, mask, sc$exact_parents_max, call = call,
                           splits = sc$selection_splits, tie_se = sc$selection_tie_se))
  }
  if (identical(gamma, "auto")) gamma <- if (selectable) sc$provisional_gamma else 0.75
  lam <- ebic_lambda(n, max(d, 2), gamma = gamma)
  rec <- penalty_record("ebic", attr(lam, "discount"), as.numeric(lam))
  if (selectable) rec$provisional <- TRUE
  rec
}

# The penalty of calm()'s refinement (search_control(penalty_discount,
# penalty)), through resolve_penalty(). `x`: the data (NULL
# for a covariance); `mask`: the pairs the selection's searches may join
# (NULL: no selection, see selection_mask()).
refine_penalty_record <- function(ctrl, n, d, x, mask, call) {
  p <- ctrl[["search"]][["penalty"]]
  own <- penalty_record("lambda1", NA_real_, ctrl[["lambda1"]])
  fixed <- if (is.numeric(p)) penalty_record("lambda", NA_real_, p) else if (p == "lambda1") own
  resolve_penalty(ctrl[["search"]][["penalty_discount"]], n, d, x, mask, fixed = fixed,
                  population = own, ebic = p == "ebic", gamma = ctrl[["search"]][["gamma"]],
                  sc = ctrl[["search"]], call = call)
}

# The pairs the selection's BOSS runs may join: all pairs when the
# moral graph was estimated (as the refinement's BOSS, up to
# search_control(order_all_pairs) variables), the fit's mask otherwise (a given moral
# graph, knowledge). NULL above that many variables with an estimated moral
# graph: searches inside it found worse graphs in the folds and chose too
# small a discount (1000 variables, n = 2000: 2.5 against 4 over all pairs,
# and the fit's SHD 129 against 0), while a selection over all pairs there
# had not finished after 11 minutes. calm() then fits at the extended BIC
# first and chooses the discount in that fit's order (R/search-penalty-in-order.R).
selection_mask <- function(mask, mo, kn, ctrl) {
  d <- ncol(mask)
  if (mo[["source"]] == "iamb" && is.null(kn)) {
    if (d > ctrl[["search"]][["order_all_pairs"]]) return(NULL)
    return(matrix(1, d, d) - diag(d))
  }
  mask
}

# The penalty's selection with interventional data: each fold's BOSS
# searches use the interventional score of the training rows, and each
# variable is scored on the held-out rows where it was not intervened on,
# with its regression fitted on the training rows where it was not either.
# Scoring every row as observation (as the selection did) judges a
# variable's experiment rows by its parents, which the experiment cut.

# The targets the selection uses (attribute "calm_targets" of the data, set
# by the learners with their strata), or NULL; `options(calm.interventional_selection
# = FALSE)` turns this off to measure it (inst/bench/bench_interventional.R).
selection_targets <- function(x) {
  if (!isTRUE(getOption("calm.interventional_selection", TRUE))) return(NULL)
  attr(x, "calm_targets")
}

# fold_task_loglik() for the targets `tg` (a calm_targets with one index
# per row of the data): the fold's held-out log-likelihoods per held-out row.
interventional_fold_task <- function(tg) {
  force(tg)
  function(task, x, grid, mask, exact_parents_max) {
    test <- task$test
    train <- x[-test, , drop = FALSE]
    free <- free_rows(tg, ncol(x))
    tr <- list(targets = tg$targets, index = tg$index[-test])
    mo <- interventional_moments(train, tr, FALSE)
    s <- data_cov(train)
    attr(s, "calm_interventional") <- mo[c("covs", "group", "weight", "max_parents")]
    mu <- lapply(seq_along(mo$covs), function(g) {
      colMeans(train[free[-test, match(g - 1L, mo$group)], , drop = FALSE])
    })
    starts <- task$starts
    vapply(grid, function(k) {
      r <- boss_search(s, mask, bic_lambda(nrow(train), k), starts, search_default("max_sweeps"),
                       exact_parents_max, TRUE, 1, max_parents = max_parents_for(nrow(train)))
      starts <<- matrix(r$order, ncol = 1L)
      interventional_heldout(r$dag, mo, mu, x[test, , drop = FALSE], free[test, , drop = FALSE])
    }, numeric(1)) / length(test)
  }
}

# free[i, j]: variable j was not intervened on in row i.
free_rows <- function(tg, d) {
  f <- t(vapply(tg$targets, function(t) !seq_len(d) %in% t, logical(d)))
  matrix(f, nrow = length(tg$targets))[tg$index, , drop = FALSE]
}

# Held-out log-likelihood of `dag`, each variable on its free test rows,
# from the moments of its group of conditions (interventional_moments())
# and that group's training means `mu`.
interventional_heldout <- function(dag, mo, mu, test, free) {
  total <- 0
  for (j in seq_len(ncol(test))) {
    g <- mo$group[j] + 1L
    rows <- free[, j]
    if (!any(rows)) next
    pa <- which(dag[, j] != 0)
    centred <- sweep(test[rows, c(j, pa), drop = FALSE], 2L, mu[[g]][c(j, pa)])
    total <- total + node_heldout(mo$covs[[g]], j, pa, centred[, 1],
                                  centred[, -1, drop = FALSE])
  }
  total
}

# The held-out Gaussian log-likelihood of node j's regression on its
# parents `pa` from the training covariance `s`: `r` its centred held-out
# values, `zp` its parents' (one column each).
node_heldout <- function(s, j, pa, r, zp) {
  v <- s[j, j]
  if (length(pa)) {
    beta <- solve_parents(s[pa, pa, drop = FALSE], s[pa, j])
    r <- r - zp %*% beta
    v <- v - sum(s[j, pa] * beta)
  }
  v <- max(v, admissible_floor * s[j, j])
  -0.5 * sum(log(2 * pi * v) + r^2 / v)
}
