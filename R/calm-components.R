# One restart of calm() split by the connected components of the moral
# graph (see ?calm, "Components"), and put back together as one run.

# The connected components of the mask (read as undirected, knowledge
# included) as a list of sorted integer index vectors, in the order of their
# smallest index, or NULL when there is nothing to split: the mask is
# connected, or has no free entry at all (then the one fit on the whole
# problem is the empty graph, at no cost).
split_plan <- function(mask) {
  memb <- mask_components(mask)
  sizes <- tabulate(memb)
  if (length(sizes) <= 1L || all(sizes < 2L)) return(NULL)
  unname(split(seq_along(memb), memb))
}

# Component membership of every node of the mask read as undirected
# (mask | t(mask)), numbered 1, 2, ... in the order of the components'
# smallest node.
mask_components <- function(mask) {
  d <- nrow(mask)
  if (d == 0L) return(integer())
  # from the entries' indices: no d x d copies (each 0.8 GB at 10,000 variables)
  at <- which(mask != 0, arr.ind = TRUE)
  at <- at[at[, 1L] != at[, 2L], , drop = FALSE]
  g <- igraph::make_graph(as.vector(t(at)), n = d, directed = FALSE)
  memb <- igraph::components(g)[["membership"]]
  # renumber by first appearance, i.e. by smallest node
  match(memb, unique(memb))
}

# The seed of one component of a split fit (documented in ?calm,
# "Components"): the component whose smallest variable index is `first`
# gets (seed + 1000003 * first) mod (2^31 - 1), `seed` being the restart's.
# 2^31 - 1 is prime and 1000003 smaller, so the components of one restart
# get different seeds.
component_seed <- function(seed, first) {
  as.integer((as.double(seed) + 1000003 * as.double(first)) %% 2147483647)
}

# One restart split by components: each component of two or more nodes is
# fitted by calm_run_one() on its own (sigma[idx, idx], mask[idx, idx], so
# its own dimension enters the acyclicity function) with the seed
# component_seed(seed, idx[1]); nodes alone in their component get no
# parents. The components run through future.apply (largest first), with a
# progressr bar over them. The parts are put back together as one run.
calm_run_split <- function(seed, sigma, mask, comps, ctrl, gate, score, constraint, verbose,
                           progress = TRUE) {
  t0 <- proc.time()[["elapsed"]]
  fitted <- which(lengths(comps) >= 2L)
  tasks <- lapply(seq_along(fitted), function(k) {
    idx <- comps[[fitted[k]]]
    list(k = k, seed = component_seed(seed, idx[1L]), sigma = sigma[idx, idx, drop = FALSE],
         mask = mask[idx, idx, drop = FALSE])
  })
  # largest first, so that a parallel plan does not end waiting on a big one
  ord <- order(-lengths(comps[fitted]), fitted)
  run_all <- function() {
    p <- if (progress) progressr::progressor(steps = length(tasks)) else NULL
    # one future per component; the worker function lives in the namespace,
    # so that only the component's own rows and columns travel with it
    out <- future.apply::future_lapply(tasks[ord], fit_component, ctrl = ctrl, gate = gate,
                                       score = score, constraint = constraint, p = p,
                                       future.seed = FALSE, future.scheduling = Inf)
    out[order(ord)]
  }
  parts <- if (verbose && progress) {
    cli::cli_inform("Fitting {length(tasks)} components of the moral graph separately ({sum(lengths(comps) == 1L)} node{?s} alone).")
    with_user_progress(run_all())
  } else {
    run_all()
  }
  assemble_split(seed, sigma, mask, comps, fitted, tasks, parts, ctrl, score, constraint,
                 seconds = proc.time()[["elapsed"]] - t0)
}

# One component of calm_run_split(): tk holds its number k, seed, sigma
# and mask; p is a progressr progressor or NULL.
fit_component <- function(tk, ctrl, gate, score, constraint, p = NULL) {
  r <- calm_run_one(tk[["seed"]], tk[["sigma"]], tk[["mask"]], ctrl, gate, score, constraint,
                    verbose = FALSE)
  if (!is.null(p)) p(sprintf("component %d (%d nodes) done", tk[["k"]], nrow(tk[["sigma"]])))
  r
}

# Puts the per-component runs of calm_run_split() together as one run of
# the shape calm_run_one() returns.
assemble_split <- function(seed, sigma, mask, comps, fitted, tasks, parts, ctrl, score,
                           constraint, seconds) {
  nm <- colnames(sigma)
  d <- length(nm)
  zero <- matrix(0, d, d, dimnames = list(nm, nm))
  amat <- B_raw <- zero
  gate_values <- if (is.null(parts[[1L]][["gate_values"]])) NULL else zero
  for (i in seq_along(parts)) {
    idx <- comps[[fitted[i]]]
    amat[idx, idx] <- parts[[i]][["amat"]]
    B_raw[idx, idx] <- parts[[i]][["B_raw"]]
    if (!is.null(gate_values)) gate_values[idx, idx] <- parts[[i]][["gate_values"]]
  }
  trace <- do.call(rbind, lapply(seq_along(parts), function(i) {
    tr <- parts[[i]][["trace"]]
    tr$component <- rep(i, nrow(tr))
    tr
  }))
  removed <- do.call(rbind, lapply(parts, `[[`, "removed"))
  rownames(removed) <- NULL
  stops <- vapply(parts, `[[`, character(1), "stop")
  # every node's parents lie in its component, so the least-squares refit of
  # the whole graph is the components' refits put together (bit for bit:
  # the same entries of sigma in the same order); a node alone keeps its
  # variance
  refit <- list(B = zero, omega = stats::setNames(diag(sigma), nm))
  for (i in seq_along(parts)) {
    idx <- comps[[fitted[i]]]
    refit[["B"]][idx, idx] <- parts[[i]][["refit"]][["B"]]
    refit[["omega"]][idx] <- parts[[i]][["refit"]][["omega"]]
  }
  components <- data.frame(
    component = seq_along(fitted), size = lengths(comps[fitted]),
    seed = vapply(tasks, `[[`, integer(1), "seed"),
    rounds = vapply(parts, function(r) nrow(r[["trace"]]), integer(1)),
    steps = vapply(parts, function(r) as.double(sum(r[["trace"]][["steps"]])), numeric(1)),
    h = vapply(parts, `[[`, numeric(1), "h"),
    converged = vapply(parts, `[[`, logical(1), "converged"),
    stop = stops,
    seconds = vapply(parts, `[[`, numeric(1), "seconds")
  )
  components$nodes <- lapply(comps[fitted], function(idx) nm[idx])
  list(
    seed = seed, amat = amat, B_raw = B_raw, gate_values = gate_values,
    trace = trace[, c("component", setdiff(names(trace), "component"))],
    converged = all(components[["converged"]]), stop = combine_stops(stops),
    h = sum(components[["h"]]), removed = removed,
    skipped = sum(vapply(parts, function(r) as.double(r[["skipped"]]), numeric(1))),
    final_objective = run_objective(refit, amat, mask, ctrl, score),
    isa = parts[[1L]][["isa"]], seconds = seconds, components = components,
    isolated = nm[unlist(comps[lengths(comps) == 1L])], refit = refit
  )
}

# Why a split fit stopped: the cap when any component hit it, "steps" for
# the soft constraint, "settled" when some component settled, else "h_tol".
combine_stops <- function(stops) {
  for (s in c("max_rounds", "steps", "settled")) if (any(stops == s)) return(s)
  "h_tol"
}
