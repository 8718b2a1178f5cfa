# The interventional (GIES) score's sufficient statistics, carried to C++ as
# an attribute of the covariance (src/rcpp_glue.h, calm_glue::local_score()),
# so that every search scores with it unchanged.

# Node j is scored on the rows where it was not intervened on (Hauser and
# Buehlmann 2012). Nodes that are free in the same conditions share those
# rows, so there is one covariance per distinct set of conditions: at most
# one more than the number of targeted variables. Each is the covariance of
# its rows about their own mean (divisor: their count), as pcalg's
# GaussL0penIntScore with its intercept; with `standardize` every entry is
# divided by the standard deviations of the pooled data, as the pooled
# covariance is, which shifts each node's score by a constant.
interventional_moments <- function(x, tg, standardize) {
  d <- ncol(x)
  n <- nrow(x)
  # free[c, j]: node j is not a target of condition c
  free <- t(vapply(tg$targets, function(t) !seq_len(d) %in% t, logical(d)))
  if (d == 1L) free <- matrix(free, ncol = 1L)
  free <- matrix(free, nrow = length(tg$targets))
  key <- apply(free, 2L, function(f) paste(which(f), collapse = ","))
  groups <- unique(key)
  scale <- if (standardize) sqrt(diag(data_cov(x))) else rep(1, d)
  covs <- lapply(groups, function(g) {
    j <- match(g, key)
    rows <- free[tg$index, j]
    s <- data_cov(x[rows, , drop = FALSE])
    s <- s / outer(scale, scale)
    dimnames(s) <- NULL
    s
  })
  n_free <- vapply(seq_len(d), function(j) sum(free[tg$index, j]), numeric(1))
  list(covs = covs, group = match(key, groups) - 1L, weight = n_free / n,
       max_parents = as.integer(n_free - 2), n_free = n_free)
}

# The covariance `sigma` with the interventional score attached (unchanged
# when `tg` is NULL).
with_targets <- function(sigma, x, tg, standardize) {
  if (is.null(tg)) return(sigma)
  mo <- interventional_moments(x, tg, standardize)
  attr(sigma, "calm_interventional") <- mo[c("covs", "group", "weight", "max_parents")]
  sigma
}

has_targets <- function(sigma) !is.null(attr(sigma, "calm_interventional"))

# Least-squares weights and noise variances of each node on its parents in
# `amat`, each from the rows where the node was not intervened on (the
# interventional counterpart of refit_weights()).
refit_weights_interventional <- function(amat, sigma) {
  iv <- attr(sigma, "calm_interventional")
  d <- nrow(amat)
  B <- matrix(0, d, d, dimnames = dimnames(amat))
  omega <- stats::setNames(numeric(d), rownames(amat))
  for (j in seq_len(d)) {
    s <- iv$covs[[iv$group[j] + 1L]]
    pa <- which(amat[, j] != 0)
    omega[j] <- s[j, j]
    if (length(pa) == 0L) next
    b <- solve_parents(s[pa, pa, drop = FALSE], s[pa, j])
    B[pa, j] <- b
    omega[j] <- s[j, j] - sum(s[j, pa] * b)
  }
  list(B = B, omega = omega)
}

# The orientations a DAG search reaches between observational equivalence
# classes (GES moves, BES) do not see the interventional score, which can
# tell members of one class apart. So after those searches the DAG is
# polished: an order search (BOSS without BES) inside `mask` (the pairs the
# search could join; NULL: the DAG's own skeleton) from the DAG's own order,
# then, for up to `exact_max_d` variables, the exact optimum inside the
# mask; the best-scoring DAG is kept. Returns list(dag, score).
polish_interventional <- function(dag, sigma, lambda, n, kn = NULL,
                                  exact_limit = search_default("exact_limit"),
                                  exact_max_d = search_default("exact_max_d"), mask = NULL) {
  mp <- max_parents_for(n)
  nm <- colnames(sigma)
  dag <- (dag != 0) * 1
  best <- list(dag = dag, score = cpp_dag_local_scores(sigma, dag, lambda, mp)$total)
  skel <- if (is.null(mask)) ((dag + t(dag)) != 0) * 1 else ((mask + t(mask) + dag + t(dag)) != 0) * 1
  if (!is.null(kn)) skel <- ((skel + kn$required + t(kn$required)) != 0) * 1
  storage.mode(skel) <- "double"
  order <- cpp_topological_order(dag)
  r <- boss_search(sigma, skel, lambda, matrix(as.integer(order), ncol = 1L),
                   search_default("max_sweeps"), exact_limit, FALSE, 1, kn = kn, max_parents = mp)
  if (r$score < best$score - score_tol) best <- list(dag = r$dag, score = r$score)
  if (ncol(sigma) <= exact_max_d) {
    if (!is.null(kn)) skel[kn$forbidden != 0] <- 0
    ex <- cpp_exact_search(sigma, skel, lambda, exact_search_budget, kn$required, mp)
    if (ex$score < best$score - score_tol) best <- list(dag = ex$amat, score = ex$score)
  }
  best$dag <- (best$dag != 0) * 1
  dimnames(best$dag) <- list(nm, nm)
  best
}

# calm()'s refinement with targets: the refined DAG polished
# (polish_interventional()), its record's scores those of the polished DAG.
polish_refined <- function(ref, sigma, lambda, n, kn, ctrl) {
  t0 <- proc.time()[["elapsed"]]
  pol <- polish_interventional(ref$dag, sigma, lambda, n, kn,
                               exact_max_d = ctrl$search$exact_max_d,
                               mask = ref$record$mask)
  rec <- ref$record
  rec$polished <- any(pol$dag != ref$dag)
  rec$score_after <- pol$score
  rec$score_best <- pol$score
  rec$stage_seconds[["polish"]] <- proc.time()[["elapsed"]] - t0
  rec$seconds <- rec$seconds + rec$stage_seconds[["polish"]]
  list(dag = pol$dag, record = rec)
}

# calm(na = "complete") drops incomplete rows: their conditions go too.
complete_target_index <- function(x, target_index, na) {
  if (is.null(target_index) || is.null(x) || identical(na, "fail")) return(target_index)
  keep <- stats::complete.cases(x)
  if (length(target_index) != length(keep) || all(keep)) return(target_index)
  target_index[keep]
}
