# Chooses the penalty of calm's refinement (search_control(penalty)) by measurement: fits CALM without refinement, then refines
# its CPDAG with each candidate penalty, and prints the mean SHD of CPDAG.
# Tune on one set of seeds, then report on another: the defaults were chosen
# on seeds 1001-1010 and checked on 2001-2010.
#   Rscript inst/bench/tune_refine.R [first_seed] [graphs] [out.rds]
suppressMessages(library(calm))
source(system.file("bench", "bench_args.R", package = "calm", mustWork = TRUE))
a <- bench_args(list(first_seed = 1001L, graphs = 10L, out = ""),
                usage = "Rscript inst/bench/tune_refine.R [first_seed] [graphs] [out.rds]")
first <- a$first_seed
reps <- a$graphs
out <- if (nzchar(a$out)) a$out else NULL
settings <- list(list(d = 20, k = 1), list(d = 50, k = 1), list(d = 20, k = 4))
n <- 1000
rows <- list()
for (s in settings) {
  for (r in seq_len(reps)) {
    seed <- first + r - 1L
    set.seed(seed)
    sem <- simulate_sem(s$d, k = s$k, n = n)
    # the continuous phase is the slow part: keep its fits between runs
    cache <- file.path(Sys.getenv("CALM_TUNE_CACHE", tempdir()),
                       sprintf("fit_er%d_d%d_%d.rds", s$k, s$d, seed))
    if (file.exists(cache)) {
      fit <- readRDS(cache)
    } else {
      fit <- calm(sem$x, refine = "none", verbose = FALSE)
      saveRDS(fit, cache)
    }
    sigma <- stats::cov2cor(stats::cov(sem$x))
    pen <- c(lambda1 = 0.005, bic1 = bic_lambda(n, 1), bic2 = bic_lambda(n, 2),
             bic3 = bic_lambda(n, 3), bic4 = bic_lambda(n, 4))
    shd <- c(none = shd_cpdag(fit, sem$B))
    mask <- calm:::as_amat(fit$moral)
    full <- matrix(1, s$d, s$d) - diag(s$d)
    for (p in names(pen)) {
      for (variant in c("back", "fw_moral", "fw_all")) {
        ctrl <- calm_control(search = search_control(penalty = pen[[p]],
                                                    forward = variant != "back"))
        ref <- calm:::refine_dag(fit$amat, sigma, if (variant == "fw_all") full else mask,
                                 pen[[p]], ctrl)
        shd[paste(p, variant)] <- shd_cpdag(ref$dag, sem$B)
      }
    }
    rows[[length(rows) + 1]] <- data.frame(setting = sprintf("ER%d d=%d", s$k, s$d), seed = seed,
                                           t(shd), check.names = FALSE)
    cat(sprintf("%s seed %d: %s\n", rows[[length(rows)]]$setting, seed,
                paste(names(shd), shd, collapse = " ")))
  }
}
res <- do.call(rbind, rows)
msd <- function(v) sprintf("%.1f +/- %.1f", mean(v), stats::sd(v) / sqrt(length(v)))
cols <- setdiff(names(res), c("setting", "seed"))
tab <- do.call(rbind, lapply(split(res, res$setting), function(b) {
  data.frame(setting = b$setting[1], t(vapply(cols, function(cn) msd(b[[cn]]), "")), check.names = FALSE)
}))
print(tab, row.names = FALSE)
if (!is.null(out)) saveRDS(res, out)
