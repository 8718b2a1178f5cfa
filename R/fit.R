# The fit object shared by calm() and every baseline (golem_nv(),
# notears_linear(), the pcalg wrappers): one constructor, so that printing,
# plotting, conversion and metrics work on all of them alike.

# Build a `calm_fit`.
#
# amat      0/1 matrix of the learned graph: a DAG, or a CPDAG when
#           `is_cpdag = TRUE` (PC, GES).
# sigma     covariance the graph was learned from (used for the least-squares
#           refit of weights and for noise variances); kept in the fit as
#           `sigma` (the same object, no copy), the data's summary with
#           `n`, `data_mean`, `data_var` and `data_check` (fit-data.R).
# B_raw     the learner's own weights on the support (e.g. A * P), or NULL.
# method    short name of the learner ("calm", "golem_nv", "notears", "pc", "ges").
# settings  list of the settings used (control values, gate, constraint, ...).
# trace     data frame, one row per round (round, rho, h, objective, edges,
#           seconds), or NULL.
# removed   data frame (from, to, weight) of edges dropped to make the result
#           acyclic; zero rows when none was needed.
# converged logical: did the learner meet its own stopping rule?
# refit     the least-squares refit of `amat` on `sigma` (refit_weights()),
#           when the learner has it already; NULL computes it.
# extra     named list of further fields stored as they are (e.g. moral, seed).
new_calm_fit <- function(amat, sigma = NULL, n = Inf, B_raw = NULL, method = "calm",
                         settings = list(), trace = NULL,
                         removed = data.frame(from = character(), to = character(),
                                              weight = numeric()),
                         converged = TRUE, time = NA_real_, call = NULL,
                         is_cpdag = FALSE, refit = NULL, extra = list()) {
  amat <- set_node_names(amat)
  # (a 0/1 double matrix already is kept as it is: no copy of d x d)
  if (!is.double(amat) || !cpp_is_zero_one(amat)) amat[] <- as.double(amat != 0)
  nm <- rownames(amat)
  if (is_cpdag) {
    cpdag <- amat
    B <- NULL
    omega <- NULL
  } else {
    # with intervention targets, the interventional essential graph
    cpdag <- class_cpdag(amat, fit_targets(extra))
    if (is.null(refit) && !is.null(sigma)) {
      refit <- if (has_targets(sigma)) refit_weights_interventional(amat, sigma)
               else refit_weights(amat, sigma)
    }
    B <- if (!is.null(refit)) refit[["B"]] else B_raw
    omega <- if (!is.null(refit)) refit[["omega"]] else NULL
  }
  if (!is.null(B_raw)) B_raw <- set_node_names(B_raw, nm)
  fit <- list(
    B = B,
    B_raw = B_raw,
    amat = amat,
    dag = if (is_cpdag) NULL else amat_to_igraph(if (is.null(B)) amat else B),
    cpdag = amat_to_igraph(cpdag),
    cpdag_amat = cpdag,
    omega = omega,
    method = method,
    settings = settings,
    trace = trace,
    removed = removed,
    converged = converged,
    n = n,
    sigma = fit_sigma(sigma, nm),
    time = time,
    call = call
  )
  # observational fits have no `targets` field at all
  if ("targets" %in% names(extra) && is.null(extra[["targets"]])) {
    extra <- extra[names(extra) != "targets"]
  }
  fit[names(extra)] <- extra
  # under background knowledge the CPDAG is the maximally oriented PDAG of
  # the class restricted by it (and by the targets, above)
  if (!is_cpdag && inherits(extra[["knowledge"]], "calm_knowledge_resolved")) {
    fit$cpdag_amat <- knowledge_cpdag(cpdag, extra[["knowledge"]])
    fit$cpdag <- amat_to_igraph(fit$cpdag_amat)
  }
  # the standard deviations of the covariance learned from (the data's own
  # when the learner did not standardize), so that coef() can give the
  # weights on either scale
  if (is.null(fit[["data_sd"]]) && !is.null(sigma)) {
    fit$data_sd <- stats::setNames(sqrt(diag(as.matrix(sigma))), nm)
  }
  structure(fit, class = "calm_fit")
}

# The covariance a fit keeps, named as its nodes (named already, it is
# the learner's own matrix, shared rather than copied).
fit_sigma <- function(sigma, nm) {
  if (is.null(sigma)) NULL else set_node_names(as.matrix(sigma), nm)
}

# Least-squares coefficients from a covariance: S[pa, pa]^{-1} S[pa, j]. A
# singular parent block (possible when n <= d, or for a graph the score
# would refuse) takes the pivoted QR solution, aliased parents getting 0,
# rather than an error; a regular block gives solve()'s answer unchanged.
solve_parents <- function(a, b) {
  tryCatch(solve(a, b), error = function(e) {
    co <- qr.coef(qr(a, tol = 1e-10), b)
    co[is.na(co)] <- 0
    co
  })
}

# Least-squares weights of each node on its parents in `amat`, from the
# covariance: b_j = S[pa, pa]^{-1} S[pa, j], omega_j = S[j, j] - S[j, pa] b_j.
refit_weights <- function(amat, sigma) {
  d <- nrow(amat)
  B <- matrix(0, d, d, dimnames = dimnames(amat))
  omega <- diag(sigma)
  parents <- parent_lists(amat)
  for (j in seq_len(d)) {
    pa <- parents[[j]]
    if (length(pa) == 0L) next
    b <- solve_parents(sigma[pa, pa, drop = FALSE], sigma[pa, j])
    B[pa, j] <- b
    omega[j] <- sigma[j, j] - sum(sigma[j, pa] * b)
  }
  names(omega) <- rownames(amat)
  list(B = B, omega = omega)
}

# Each node's parents in the graph `amat` (entry (i, j) nonzero: i -> j),
# as a list of sorted indices, from its nonzero pairs (a which() over each
# column took 0.2 s at 5000 variables).
parent_lists <- function(amat) {
  d <- ncol(amat)
  at <- nonzero_pairs(amat)
  at <- at[order(at[, 2], at[, 1]), , drop = FALSE]
  unname(split(at[, 1], factor(at[, 2], levels = seq_len(d))))
}

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
