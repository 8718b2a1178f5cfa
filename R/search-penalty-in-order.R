# The penalty selection of calm() above search_control(order_all_pairs)
# variables with an estimated moral graph. There the selection of
# R/search-penalty.R (BOSS over all pairs on every fold, at every discount) costs
# several times the fit, and BOSS inside the moral graph found worse graphs
# in the folds and chose too small a discount. Instead, a first fit at the
# extended BIC gives an order of the variables; on every fold and at every
# discount, the graph is the best parent set of each variable among those
# before it in that order (the grow-shrink step of BOSS, no search over
# orders), scored on the held-out rows. One pass per variable and discount:
# seconds where the searches took minutes.

# calm() chooses its penalty this way where resolve_penalty() could have
# selected from the data but selection_mask() gave no mask (an estimated
# moral graph, no knowledge, more than order_all_pairs variables): its
# extended BIC record is then `provisional` (see refine_at_penalty()).

# Chooses the discount from `grid` and the first fit's discount
# `provisional` by `folds`-fold held-out log-likelihood (`splits` random
# splits, pooled) of the graphs in `order` (1-based, a permutation of the
# columns of `x`), with the rule of choose_discount(): the provisional
# discount stays unless the best predicts the held-out rows better by more
# than `keep_se` standard errors of their paired difference; otherwise the
# largest discount within `tie_se` of the best. Returns a penalty record
# (method "cv", `in_order` the provisional discount).
select_discount_in_order <- function(x, grid, folds, order, provisional, pairs = NULL,
                                     splits = search_default("selection_splits"),
                                     tie_se = search_default("selection_tie_se"),
                                     keep_se = search_default("order_selection_keep_se"),
                                     call = parent.frame()) {
  n <- nrow(x)
  d <- ncol(x)
  strata <- fold_strata(x)
  x <- selection_scale(x)
  grid <- sort(unique(c(grid, provisional)), decreasing = TRUE)
  all_pairs <- pairs %||% (matrix(1, d, d) - diag(d))
  fold_ids <- lapply(seq_len(splits), function(s) draw_folds(n, folds, call, strata = strata))
  whole <- if (d > DATA_COV_CPP_D) list(mu = colMeans(x), cov = cpp_data_covariance(x)[["cov"]])
  ll <- do.call(cbind, lapply(fold_ids, function(fold) {
    vapply(seq_len(folds), function(f) {
      test <- which(fold == f)
      m <- if (is.null(whole)) {
        fold_moments(x[-test, , drop = FALSE])
      } else {
        training_moments(x, fold, f, whole)
      }
      in_order_path(m, x[test, , drop = FALSE], grid, all_pairs, order) / length(test)
    }, numeric(length(grid)))
  }))
  ch <- choose_discount(ll, grid, tie_se, keep = provisional, keep_se = keep_se)
  penalty_record("cv", ch$discount, bic_lambda(n, ch$discount), table = ch$table, folds = folds,
                 splits = splits, tie_se = tie_se, in_order = provisional)
}

# How far behind the best the first fit's discount may predict and still
# stay, in standard errors: a second refinement runs only where another
# discount predicts clearly better (two standard errors, a test at about 5%).
# Set after a first rule (the largest discount within half a standard error
# of the best, as below 250 variables) had moved 8 of 10 ER1 graphs of 500
# variables (strong effects, where the extended BIC is close to the best
# discount) to discount 3 or 4 for no gain (mean SHD 3.4 against 3.1): there
# the first fit's discount was at most 1.96 standard errors behind. On weak-
# effect ER and hub networks of 400 variables it was 6 to 28 behind, and
# the second refinement gained 20 to 30 marks (inst/bench/bench_penalty_large.R,
# inst/bench/bench_scaling.R runs *_select). The value is
# search_control(order_selection_keep_se).

# The extended BIC's gamma of the first fit (search_control(gamma = "auto",
# provisional_gamma)).
# The choice in order lowers the first fit's discount where the held-out rows
# clearly prefer a smaller one (weak effects), but it cannot raise it: a
# discount a little too small adds weak false edges that hardly change the
# held-out likelihood. So the first fit starts on the high side, at gamma 1
# (the extended BIC in its original form) rather than the 0.75 chosen on
# graphs of at most 200 variables: on ER1 graphs of 500 variables (n = 1000)
# the first discount goes from 3.7 to 4.6. Measured in inst/bench/README.md.

# The training moments (fold_moments()) of fold `f` of `fold` (the fold of
# each row of `x`), from the moments of all rows (`whole`: their means and
# covariance) and the fold's held-out rows: one pass over the data for all
# folds instead of one pass over four fifths of it per fold (at d = 2000,
# n = 4000, ten training covariances took 15 s). One fold at a time, and in
# C++ into the one matrix returned, so that a single d x d training
# covariance is alive (0.8 GB at 10,000 variables). Used above
# DATA_COV_CPP_D variables; the same moments up to rounding.
training_moments <- function(x, fold, f,
                             whole = list(mu = colMeans(x), cov = cpp_data_covariance(x)[["cov"]])) {
  n <- nrow(x)
  held <- x[fold == f, , drop = FALSE]
  nt <- nrow(held)
  s <- cpp_training_covariance(whole$cov, whole$mu, n, held)
  dimnames(s) <- list(colnames(x), colnames(x))
  list(n = n - nt, s = s, mu = (n * whole$mu - nt * colMeans(held)) / (n - nt))
}

# One fold: for each discount of `grid`, the graph of the parent sets
# chosen in `order` on the training moments `m` (fold_moments(); inside `mask`), its held-out
# Gaussian log-likelihood summed over the rows of `test`. (No exact parent
# tables: above 250 variables every variable has too many candidates.)
in_order_path <- function(m, test, grid, mask, order) {
  options <- list(max_sweeps = 0L, tol = score_tol, exact_parents_max = 0L, grow_ratio = 1)
  vapply(grid, function(k) {
    r <- cpp_order_local_search(m$s, mask, bic_lambda(m$n, k), order, options)
    heldout_loglik(r$dag, m$s, m$mu, test)
  }, numeric(1))
}
