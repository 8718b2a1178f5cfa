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
  function(task, x, grid, mask, exact_limit) {
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
                       exact_limit, TRUE, 1, max_parents = max_parents_for(nrow(train)))
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
