# Causal effects from interventional data (issue 62): the old estimate,
# regressions on the pooled rows of all conditions, against the
# within-condition estimate causal_effects() now makes with targets. On
# `reps` simulated linear Gaussian SEMs (ER graphs with k * d expected
# edges, simulate_sem()'s weights and noise ratio 16) with `n_obs`
# observational rows and `n_int` rows in each of `n_targets` experiments on
# one random variable each (simulate_interventions(): the variable drawn
# with mean `shift` times its observational standard deviation and that
# standard deviation), every effect the class identifies (is_unique, y a
# possible descendant of x) is estimated both ways, with "local" and
# "optimal", in two graphs: the true interventional essential graph (the
# estimator alone) and the one boss() learns with the targets (what a user
# gets). The truth is the total effect from the SEM's weights, solve(I - B).
# A pair is "affected" when some experiment targets y or a node on a
# directed path from x to y in the true DAG. One row per (replicate,
# graph, method, estimator, x, y). Prints, per graph, method and
# estimator, the mean error along the sign of the truth (bias; negative
# is shrinkage towards 0), the mean absolute error and the
# coverage of the 95% intervals, over all pairs and over affected pairs,
# with standard errors over replicates, and the paired difference of the
# mean absolute error (pooled minus within) per replicate.
#
#   Rscript inst/bench/bench_effects_interventional.R [reps] [d] [k] [n_obs] [n_int] [n_targets] [shift] [out]
# Defaults: 20 replicates, d = 20, k = 2, n_obs = 1000, n_int = 200,
# n_targets = 5, shift = 1, out = inst/extdata/effects_interventional.rds.
# The seed of replicate r is 620000 + r, fixed before any run.
suppressPackageStartupMessages(library(calm))
options(width = 160)
source(system.file("bench", "bench_args.R", package = "calm", mustWork = TRUE))
a <- bench_args(list(reps = 20L, d = 20L, k = 2, n_obs = 1000L, n_int = 200L, n_targets = 5L,
                     shift = 1, out = "inst/extdata/effects_interventional.rds"),
                usage = "Rscript inst/bench/bench_effects_interventional.R [reps] [d] [k] [n_obs] [n_int] [n_targets] [shift] [out]")

# Identified effects of every treatment in CPDAG `g`, pooled (no targets)
# and within conditions, with the truth.
both_estimates <- function(g, sim, total, method) {
  nm <- colnames(total)
  one <- function(estimator) {
    rows <- lapply(nm, function(x) {
      e <- if (estimator == "pooled") {
        causal_effects(g, x, data = sim$x, method = method)
      } else {
        causal_effects(g, x, data = sim$x, method = method, targets = sim$targets,
                       target_index = sim$target_index)
      }
      e[e$is_unique & e$possible_descendant, , drop = FALSE]
    })
    e <- do.call(rbind, rows)
    e <- e[!duplicated(paste(e$x, e$y)), c("x", "y", "effect", "se", "lower", "upper")]
    cbind(estimator = estimator, e)
  }
  e <- rbind(one("pooled"), one("within"))
  e$truth <- total[cbind(match(e$x, nm), match(e$y, nm))]
  e$covered <- e$lower <= e$truth & e$truth <= e$upper
  e
}

# Pairs (x, y) some experiment acts on: y or a node on a directed x-y path.
affected_pairs <- function(B, targets) {
  d <- nrow(B)
  reach <- solve(diag(d) - (B != 0)) > 0.5  # reach[i, j]: a directed path i ~> j, or i = j
  hit <- unlist(targets)
  out <- matrix(FALSE, d, d, dimnames = dimnames(B))
  for (x in seq_len(d)) for (y in seq_len(d)) {
    if (x == y) next
    on <- which(reach[x, ] & reach[, y])
    out[x, y] <- any(setdiff(on, x) %in% hit)
  }
  out
}

rows <- list()
t0 <- proc.time()[["elapsed"]]
for (r in seq_len(a$reps)) {
  set.seed(620000 + r)
  sem <- simulate_sem(a$d, k = a$k)
  nm <- rownames(sem$B)
  tg <- c(list(integer(0)), as.list(sample.int(a$d, a$n_targets)))
  sd_t <- sqrt(diag(sem$sigma))
  # one experiment at a time, each with its own mean shift
  parts <- lapply(seq_along(tg), function(c) {
    m <- if (length(tg[[c]])) a$shift * sd_t[tg[[c]]] else 0
    simulate_interventions(sem, list(tg[[c]]), n = if (c == 1) a$n_obs else a$n_int, mean = m)$x
  })
  sim <- list(x = do.call(rbind, parts), targets = tg,
              target_index = rep(seq_along(tg), c(a$n_obs, rep(a$n_int, a$n_targets))))
  total <- solve(diag(a$d) - sem$B)
  dimnames(total) <- list(nm, nm)
  aff <- affected_pairs(sem$B, tg)
  truth_class <- dag_to_cpdag(sem$B, targets = tg, output = "matrix")
  fit <- boss(sim$x, targets = sim$targets, target_index = sim$target_index)
  learned <- fit$cpdag_amat
  for (method in c("local", "optimal")) {
    for (graph in c("true", "learned")) {
      e <- both_estimates(if (graph == "true") truth_class else learned, sim, total, method)
      if (!nrow(e)) next
      e$affected <- aff[cbind(match(e$x, nm), match(e$y, nm))]
      rows[[length(rows) + 1L]] <- cbind(replicate = r, graph = graph, method = method, e)
    }
  }
  cat(sprintf("replicate %d: targets %s; SHD of the learned class %d\n", r,
              paste(nm[unlist(tg)], collapse = ","),
              shd_cpdag(learned, truth_class)))
}
res <- do.call(rbind, rows)
rownames(res) <- NULL
res$error <- res$effect - res$truth
# the weights have random signs: the bias is measured along the truth's
# sign (negative: shrunk towards 0)
res$signed_error <- sign(res$truth) * res$error

# per replicate means first: the effects of one replicate share its data
rep_mean <- function(s, v) tapply(s[[v]], s$replicate, mean, na.rm = TRUE)
mse <- function(v) c(mean(v), stats::sd(v) / sqrt(length(v)))
summ <- do.call(rbind, lapply(split(res, list(res$graph, res$method, res$estimator)), function(s) {
  do.call(rbind, lapply(c("all", "affected"), function(which) {
    t <- if (which == "all") s else s[s$affected, , drop = FALSE]
    t$abs_error <- abs(t$error)
    b <- mse(rep_mean(t, "signed_error"))
    m <- mse(rep_mean(t, "abs_error"))
    cv <- mse(rep_mean(t, "covered"))
    data.frame(graph = s$graph[1], method = s$method[1], estimator = s$estimator[1],
               pairs = which, effects = nrow(t), na = sum(is.na(t$effect)),
               bias = b[1], bias_se = b[2], abs_error = m[1], abs_error_se = m[2],
               coverage = cv[1], coverage_se = cv[2])
  }))
}))
rownames(summ) <- NULL
summ <- summ[order(summ$graph, summ$method, summ$pairs, summ$estimator), ]
print(summ, digits = 3, row.names = FALSE)

# paired: the same pairs of the same data, pooled minus within
paired <- do.call(rbind, lapply(split(res, list(res$graph, res$method)), function(s) {
  do.call(rbind, lapply(c("all", "affected"), function(which) {
    t <- if (which == "all") s else s[s$affected, , drop = FALSE]
    key <- paste(t$replicate, t$x, t$y)
    p <- t[t$estimator == "pooled", ]
    w <- t[t$estimator == "within", ]
    w <- w[match(paste(p$replicate, p$x, p$y), paste(w$replicate, w$x, w$y)), ]
    ok <- !is.na(w$effect) & !is.na(p$effect)
    diff <- tapply(abs(p$error[ok]) - abs(w$error[ok]), p$replicate[ok], mean)
    m <- mse(diff)
    data.frame(graph = s$graph[1], method = s$method[1], pairs = which,
               abs_error_pooled_minus_within = m[1], se = m[2], replicates = length(diff))
  }))
}))
rownames(paired) <- NULL
print(paired, digits = 3, row.names = FALSE)
cat(sprintf("%.0f s\n", proc.time()[["elapsed"]] - t0))
attr(res, "info") <- list(summary = summ, paired = paired, reps = a$reps, d = a$d, k = a$k,
                          n_obs = a$n_obs, n_int = a$n_int, n_targets = a$n_targets,
                          shift = a$shift, seeds = 620000 + seq_len(a$reps),
                          learner = "boss() with the targets, defaults")
bench_save(res, a$out, note = "pooled vs within-condition causal effects with targets (issue 62)")
