# The estimators behind causal_effects() and its bootstrap: for each DAG
# (or parent configuration) of a class, the regression of the outcomes on a
# treatment and an adjustment set, within conditions for interventional
# data, gathered into the tidy data frame. Below effects.R,
# effects-bootstrap.R and effects-interventional.R, and calls none of them.

# All possible effects of xs on ys in PDAG g, as the tidy data frame, from
# the statistics `st` (effects_statistics()). `cpdag`: g is known to be a
# CPDAG (no knowledge), which makes the local check for one treatment a
# clique test. An outcome that is a possible descendant of a treatment in
# no DAG of the class has effect 0 there, whatever the regression says.
possible_effects <- function(g, st, xs, ys, method, cpdag = FALSE, level = 0.95,
                             call = parent.frame()) {
  parts <- pdag_parts(g)
  configs <- local_configurations(parts, xs, single_cpdag = cpdag && length(xs) == 1L,
                                  closed = method == "optimal", call = call)
  if (!length(configs)) {
    abort_arg("fit", "has no DAG with any orientation of the edges at {.arg x}; is it a valid CPDAG or maximally oriented PDAG?",
              call = call)
  }
  # interventional conditions: which ones may be used depends on the class
  if (!is.null(st$conds)) st$parts <- parts
  rows <- if (method == "optimal") {
    lapply(seq_along(configs), function(k) optimal_rows(configs[[k]]$graph, st, xs, ys, k))
  } else if (length(xs) == 1L) {
    local_rows(configs, st, xs, ys, parts)
  } else {
    lapply(seq_along(configs), function(k) joint_rows(configs[[k]]$parents, st, xs, ys, k))
  }
  out <- do.call(rbind, rows)
  de <- lapply(xs, function(v) possible_descendants(parts, v))
  out$possible_descendant <- vapply(seq_len(nrow(out)), function(i) {
    out$y[i] %in% de[[match(out$x[i], xs)]]
  }, logical(1))
  out$effect[!out$possible_descendant] <- 0
  out$se[!out$possible_descendant] <- 0
  if (!is.null(st$sd)) {
    f <- st$sd[out$y] / st$sd[out$x]
    out$effect <- out$effect * f
    out$se <- out$se * f
  }
  effects_frame(out, rownames(g), level)
}

# One treatment, "local": every parent set, all outcomes in one solve. An
# outcome that is a directed parent of x has effect 0 in every DAG of the
# class: one row.
local_rows <- function(configs, st, x, ys, parts) {
  fixed <- intersect(ys, which(parts$dir[, x]))
  free <- setdiff(ys, fixed)
  rows <- if (length(free)) lapply(seq_along(configs), function(k) {
    p <- configs[[k]]$parents[[1]]
    b <- effect_regression(st, x, p, free)
    data.frame(x = x, y = free, effect = as.vector(b), se = as.vector(attr(b, "se")),
               df = attr(b, "df"), set = set_label(p), config = k)
  })
  if (length(fixed)) {
    p <- which(parts$dir[, x])
    rows <- c(rows, list(data.frame(x = x, y = fixed, effect = 0, se = 0, df = NA_real_,
                                    set = set_label(p), config = 1L)))
  }
  rows
}

# The coefficient of x in the regression of each y on (x, p); 0 where y is
# in p. `x` may be several treatments: one row per treatment. With the
# sample size `n`, attributes `se` (the ordinary least-squares standard
# errors, same shape; 0 where the effect is 0 by the graph) and `df`
# (residual degrees of freedom).
regression_effects <- function(sigma, x, p, ys, n = NULL) {
  if (!length(ys)) return(numeric())
  z <- c(x, p)
  szz <- sigma[z, z, drop = FALSE]
  b <- solve(szz, sigma[z, ys, drop = FALSE])
  se <- if (!is.null(n)) regression_se(sigma, szz, z, ys, b, length(x), n)
  b <- b[seq_along(x), , drop = FALSE]
  b[, ys %in% p] <- 0
  if (!is.null(se)) se[, ys %in% p] <- 0
  out <- if (length(x) == 1L) drop(b) else b
  if (!is.null(n)) {
    attr(out, "se") <- if (length(x) == 1L) drop(se) else se
    attr(out, "df") <- n - length(z) - 1
  }
  out
}

# Standard errors of the treatments' coefficients (rows) in the regressions
# of each y (columns) on z, from a covariance with any divisor: var(b_x) =
# (S_yy - S_yz b) [S_zz^-1]_xx / (n - |z| - 1), lm()'s with an intercept.
# 0 for a population covariance (n = Inf), NA without residual degrees of
# freedom or an unknown n.
regression_se <- function(sigma, szz, z, ys, b, nx, n) {
  df <- n - length(z) - 1
  if (is.na(df) || df <= 0) return(matrix(NA_real_, nx, length(ys)))
  if (is.infinite(df)) return(matrix(0, nx, length(ys)))
  rss <- pmax(diag(sigma)[ys] - colSums(sigma[z, ys, drop = FALSE] * b), 0)
  inv <- diag(solve(szz))[seq_len(nx)]
  sqrt(outer(inv, rss) / df)
}

# Several treatments, "local": joint effects from the joint parent sets by
# recursive regressions (Nandy, Maathuis and Richardson 2017, jointIda's
# "RRC"). b[a, v] is the effect of treatment a on node v with only a's own
# parents adjusted for. Holding a further treatment w fixed removes what
# flows through it: b[a, v] - b[a, w] * b[w, v]. Doing so for every other
# treatment in turn, in the order given, leaves the joint effect of each.
joint_rows <- function(pasets, st, xs, ys, k) {
  nx <- length(xs)
  b <- t(vapply(seq_len(nx), function(i) {
    as.vector(effect_regression(st, xs[i], pasets[[i]], c(xs, ys), n = NULL))
  }, numeric(nx + length(ys))))
  b <- matrix(b, nx)
  b[cbind(seq_len(nx), seq_len(nx))] <- 0
  theta <- t(vapply(seq_len(nx), function(i) {
    m <- b
    for (w in setdiff(seq_len(nx), i)) m <- m - outer(m[, w], m[w, ])
    m[i, nx + seq_along(ys)]
  }, numeric(length(ys))))
  theta <- matrix(theta, nx)
  in_pa <- vapply(ys, function(v) vapply(pasets, function(p) v %in% p, logical(1)), logical(nx))
  theta[matrix(in_pa, nx)] <- 0
  # a joint effect combines several regressions: no single standard error
  data.frame(x = rep(xs, length(ys)), y = rep(ys, each = nx), effect = as.vector(theta),
             se = NA_real_, df = NA_real_,
             set = rep(vapply(pasets, set_label, character(1)), length(ys)), config = k)
}

# "optimal" in one orientation: per outcome, 0 when it is not a possible
# descendant of the treatments, NA without a valid adjustment set, else
# the regression on the optimal set (with its standard errors).
optimal_rows <- function(g, st, xs, ys, k) {
  parts <- pdag_parts(g)
  de_x <- possible_descendants(parts, xs)
  nx <- length(xs)
  effect <- se <- matrix(0, nx, length(ys))
  df <- rep(NA_real_, length(ys))
  set <- character(length(ys))
  for (i in which(ys %in% de_x)) {
    o <- optimal_set(parts, xs, ys[i], de_x = de_x)
    if (is.character(o)) {
      effect[, i] <- se[, i] <- NA_real_
      set[i] <- NA_character_
    } else {
      b <- effect_regression(st, xs, o$set, ys[i])
      effect[, i] <- b
      se[, i] <- attr(b, "se")
      df[i] <- attr(b, "df")
      set[i] <- set_label(o$set)
    }
  }
  data.frame(x = rep(xs, length(ys)), y = rep(ys, each = nx), effect = as.vector(effect),
             se = as.vector(se), df = rep(df, each = nx), set = rep(set, each = nx), config = k)
}

set_label <- function(p) paste(sort(p), collapse = ",")

# Node positions to names, sets to names, the confidence intervals at
# `level` (t quantiles on the regression's residual degrees of freedom),
# and is_unique: every row of an (x, y) pair gives the same estimate.
effects_frame <- function(out, nm, level = 0.95) {
  out$set <- vapply(strsplit(out$set, ",", fixed = TRUE), function(s) {
    paste(nm[as.integer(s)], collapse = ",")
  }, character(1))
  key <- paste(out$x, out$y)
  spread <- stats::ave(out$effect, key, FUN = function(e) {
    if (anyNA(e)) return(if (all(is.na(e))) 0 else Inf)
    max(e) - min(e)
  })
  scale <- stats::ave(abs(out$effect), key, FUN = function(e) max(c(e, 1), na.rm = TRUE))
  out$is_unique <- spread <= 1e-10 * scale
  q <- ifelse(is.na(out$df), stats::qnorm(0.5 + level / 2), stats::qt(0.5 + level / 2, pmax(out$df, 1)))
  half <- ifelse(out$se == 0, 0, q * out$se)
  out$lower <- out$effect - half
  out$upper <- out$effect + half
  out <- out[order(out$x, out$y, out$config), , drop = FALSE]
  out$x <- nm[out$x]
  out$y <- nm[out$y]
  rownames(out) <- NULL
  out[, c("x", "y", "effect", "se", "lower", "upper", "set", "config", "is_unique",
          "possible_descendant")]
}

# regression_effects() or, with conditions in `st`, its interventional
# counterpart: the same shape (one value per outcome, a matrix for several
# treatments) with attributes `se` and `df`.
effect_regression <- function(st, x, p, ys, n = st$n) {
  if (is.null(st$conds)) return(regression_effects(st$sigma, x, p, ys, n))
  nx <- length(x)
  fits <- lapply(ys, function(y) condition_effect(st$conds, st$parts, x, p, y))
  b <- matrix(vapply(fits, `[[`, numeric(nx), "b"), nx)
  se <- matrix(vapply(fits, `[[`, numeric(nx), "se"), nx)
  df <- vapply(fits, `[[`, numeric(1), "df")
  out <- if (nx == 1L) drop(b) else b
  attr(out, "se") <- if (nx == 1L) drop(se) else se
  attr(out, "df") <- df
  out
}

# The effect of x on one outcome y from the conditions whose targets miss
# y and every node through which x may act on y. An intervention on x, on
# its parents or on the adjustment set leaves the effect and the validity
# of the set as they are (it only removes edges off the causal paths), so
# those conditions stay. NA when no condition is left.
condition_effect <- function(conds, parts, x, p, y) {
  nx <- length(x)
  if (y %in% c(x, p)) return(list(b = rep(0, nx), se = rep(0, nx), df = NA_real_))
  on_paths <- c(y, setdiff(intersect(possible_descendants(parts, x),
                                     possible_reach(parts, y, backwards = TRUE)), x))
  z <- c(x, p)
  keep <- which(vapply(seq_along(conds$n), function(c) {
    !any(conds$targets[[c]] %in% on_paths) && conds$n[c] > length(z) + 1
  }, logical(1)))
  ests <- Filter(Negate(is.null), lapply(keep, function(c) {
    one_condition_fit(conds$sigma[[c]], conds$n[c], z, nx, y)
  }))
  if (!length(ests)) return(list(b = rep(NA_real_, nx), se = rep(NA_real_, nx), df = NA_real_))
  combine_estimates(ests)
}

# The regression of y on z (treatments first) in one condition: the
# treatments' coefficients `b`, their covariance `V` and the residual
# degrees of freedom. A variable the condition holds constant carries
# nothing and leaves the set; a constant or collinear treatment leaves the
# condition out (NULL).
one_condition_fit <- function(s, n, z, nx, y) {
  v <- diag(s)[z]
  live <- v > 1e-12 * max(v, 1e-300)
  if (!all(live[seq_len(nx)])) return(NULL)
  z <- z[live]
  szz <- s[z, z, drop = FALSE]
  inv <- tryCatch(solve(szz), error = function(e) NULL)
  if (is.null(inv)) return(NULL)
  b <- inv %*% s[z, y]
  df <- n - length(z) - 1
  rss <- max(s[y, y] - sum(s[z, y] * b), 0)
  idx <- seq_len(nx)
  list(b = b[idx], V = inv[idx, idx, drop = FALSE] * rss / df, df = df)
}

# Inverse-variance (for several treatments, generalised least squares)
# combination of the conditions' estimates.
combine_estimates <- function(ests) {
  df <- sum(vapply(ests, `[[`, numeric(1), "df"))
  if (length(ests) == 1L) {
    e <- ests[[1]]
    return(list(b = e$b, se = sqrt(pmax(diag(e$V), 0)), df = df))
  }
  w <- lapply(ests, function(e) tryCatch(solve(e$V), error = function(err) NULL))
  if (any(vapply(w, is.null, logical(1)))) {
    # an exact fit somewhere (zero residual variance): plain mean
    b <- Reduce(`+`, lapply(ests, `[[`, "b")) / length(ests)
    return(list(b = b, se = rep(0, length(b)), df = df))
  }
  wsum <- Reduce(`+`, w)
  cov_b <- solve(wsum)
  b <- cov_b %*% Reduce(`+`, Map(function(wc, e) wc %*% e$b, w, ests))
  list(b = drop(b), se = sqrt(pmax(diag(cov_b), 0)), df = df)
}
