# Fewer observations than variables (issue 36): sparse ER1 graphs with
# n < d, where the sample covariance is singular. calm's default and boss()'s
# default against pcalg's GES at discounts 1, 2, 3 and 4 of the BIC
# (GaussL0penObsScore with lambda = discount * log(n) / 2; the summary keeps
# the best discount per cell). Every method sees the same data set (paired).
# One row per data set and method: SHD of CPDAG, skeleton precision and
# recall, edges, time.
#
#   Rscript inst/bench/bench_small_n.R cells reps out.rds [methods]
# cells: comma-separated d:n (e.g. 300:150,1000:200). The seed of replicate
# r of a cell is 360000 + 10000 * (cell number in all_cells) + r, fixed
# before any run. methods (default all): calm, boss, ges (discounts 4, 3, 2
# and 1, in this order) or single discounts ges8, ..., ges1. A method given
# a time limit in seconds with name=limit (e.g. calm=1800) stops there and
# its row is stored with SHD NA (pcalg's GES cannot be stopped). Results are
# saved after every replicate.
suppressPackageStartupMessages(library(calm))
source(system.file("bench", "bench_args.R", package = "calm", mustWork = TRUE))
all_cells <- c("300:150", "1000:200", "60:40", "120:80")
# methods may read "calm=1500" (a time limit), hence keyed
a <- bench_args(list(cells = NA_character_, reps = NA_integer_, out = NA_character_,
                     methods = "calm,boss,ges"),
                usage = "Rscript inst/bench/bench_small_n.R cells reps out.rds [methods]",
                keyed = "methods")
cells <- bench_list(a$cells)
stopifnot(all(cells %in% all_cells))
reps <- a$reps
out <- a$out
spec <- bench_list(a$methods)
methods <- sub("=.*", "", spec)
limits <- stats::setNames(rep(Inf, length(spec)), sub("=.*", "", spec))
limited <- grepl("=", spec)
limits[limited] <- as.numeric(sub(".*=", "", spec[limited]))
methods <- unlist(lapply(methods, function(m) if (m == "ges") paste0("ges", 4:1) else m))
stopifnot(all(methods %in% c("calm", "boss", paste0("ges", 1:8))))

# The limit is lifted first thing in the handler, and the handler itself is
# guarded: R checks the limit at any interrupt point, and a check after the
# inner handler caught the error would escape (the 1000-variable run of
# 2026-11-26 stopped the script that way).
timed <- function(expr, limit = Inf) {
  t0 <- proc.time()[["elapsed"]]
  lift <- function(e) {
    setTimeLimit(elapsed = Inf)
    e
  }
  fit <- tryCatch(tryCatch({
    setTimeLimit(elapsed = limit, transient = TRUE)
    value <- expr
    setTimeLimit(elapsed = Inf)
    value
  }, error = lift), error = lift)
  list(fit = fit, seconds = proc.time()[["elapsed"]] - t0)
}

# pcalg's GES on the data: its CPDAG as a 0/1 matrix ([i, j] for i -> j,
# mutual pairs undirected)
ges_cpdag <- function(x, discount) {
  generator <- methods::getRefClass("GaussL0penObsScore", where = asNamespace("pcalg"))
  score <- generator$new(data = x, lambda = discount * log(nrow(x)) / 2)
  fit <- pcalg::ges(score)
  d <- ncol(x)
  amat <- matrix(0, d, d)
  parents <- fit$essgraph$.in.edges
  for (j in seq_len(d)) amat[parents[[j]], j] <- 1
  amat
}

# the fast ones first, so that a time limit on calm costs nothing else
learners <- list(boss = function(x) boss(x))
for (k in 8:1) learners[[paste0("ges", k)]] <- local({
  kk <- k
  function(x) ges_cpdag(x, kk)
})
learners$calm <- function(x) calm(x, verbose = FALSE)
run_names <- names(learners)[names(learners) %in% methods]

rows <- list()
for (cell in cells) {
  d <- as.integer(sub(":.*", "", cell))
  n <- as.integer(sub(".*:", "", cell))
  ci <- match(cell, all_cells)
  for (r in seq_len(reps)) {
    seed <- 360000L + 10000L * ci + r
    set.seed(seed)
    sem <- simulate_sem(d, k = 1, n = n)
    for (m in run_names) {
      set.seed(seed + 1L)
      lim <- c(limits[m], limits[sub("[0-9]+$", "", m)], Inf)
      tf <- timed(learners[[m]](sem$x), lim[!is.na(lim)][1])
      fit <- tf$fit
      if (inherits(fit, "error")) {
        message(sprintf("%s seed %d %s: %s", cell, seed, m, conditionMessage(fit)))
        cg <- data.frame(shd = NA, precision = NA, recall = NA, n_est = NA)
      } else {
        cg <- compare_graphs(fit, sem$dag)
      }
      row <- data.frame(d = d, n = n, seed = seed, edges = sum(sem$B != 0), method = m,
                        shd = cg$shd, precision = cg$precision, recall = cg$recall,
                        est_edges = cg$n_est, seconds = tf$seconds,
                        error = if (inherits(fit, "error")) conditionMessage(fit) else NA_character_)
      rows[[length(rows) + 1L]] <- row
      message(sprintf("%-8s seed %d %-6s SHD %4s  %7.1f s", cell, seed, m, row$shd, row$seconds))
    }
    res <- do.call(rbind, rows)
    attr(res, "provenance") <- bench_provenance()
    saveRDS(res, out)
  }
}
