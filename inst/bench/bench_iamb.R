# Run time and accuracy of estimate_moral_graph().
#
#   Rscript inst/bench/bench_iamb.R            # everything (about 2 minutes, 2 GB of RAM)
#   Rscript inst/bench/bench_iamb.R small      # skip n = 1e6
#
# Prints
# 1. precision and recall of the estimated moral graph over 10 random 50-node
#    ER1 models at n = 1000 (IAMB with the AND and OR rules, precision support);
# 2. run times (median of repeated runs, seconds) for d = 50, 100, 200:
#    from a covariance matrix (n = 1000 and n = Inf) and from data
#    (n = 1000 and n = 1e6; the data route includes computing the covariance);
# 3. for comparison, bnlearn's IAMB on the d = 50, n = 1000 data, when installed.
# Single-threaded (Eigen is compiled without threads; R's reference BLAS is
# not used by these code paths).

library(calm)
source(system.file("bench", "bench_args.R", package = "calm", mustWork = TRUE))
big <- bench_args(list(size = "all"), usage = "Rscript inst/bench/bench_iamb.R [small]")$size != "small"

timed <- function(expr, reps = 1L) {
  expr <- substitute(expr)
  env <- parent.frame()
  t <- vapply(seq_len(reps), function(i) {
    gc(FALSE)
    system.time(eval(expr, env))[["elapsed"]]
  }, numeric(1))
  stats::median(t)
}

# Data from a linear SEM without forming an n x d noise matrix and its
# transform: columns are filled in topological order, each from its parents.
sem_data <- function(sem, n) {
  B <- sem$B
  x <- matrix(0, n, ncol(B), dimnames = list(NULL, colnames(B)))
  for (j in match(topological_order(B), colnames(B))) {
    pa <- which(B[, j] != 0)
    x[, j] <- stats::rnorm(n, sd = sqrt(sem$omega[j]))
    if (length(pa) > 0L) x[, j] <- x[, j] + x[, pa, drop = FALSE] %*% B[pa, j]
  }
  x
}

cat("== Accuracy: 10 random 50-node ER1 models, n = 1000, alpha = 0.01 ==\n")
set.seed(2025)
acc <- t(vapply(1:10, function(r) {
  sem <- simulate_sem(50, 1, n = 1000)
  truth <- moral_graph(sem$dag)
  m <- function(g) skeleton_metrics(g, truth)[c("precision", "recall")]
  c(m(estimate_moral_graph(sem$x)), m(estimate_moral_graph(sem$x, rule = "or")),
    m(estimate_moral_graph(sem$x, method = "precision")))
}, numeric(6)))
colnames(acc) <- paste(rep(c("iamb_and", "iamb_or", "precision"), each = 2),
                       c("precision", "recall"), sep = ".")
print(round(data.frame(mean = colMeans(acc), se = apply(acc, 2, stats::sd) / sqrt(nrow(acc)),
                       min = apply(acc, 2, min)), 3))

cat("\n== Run time (seconds, elapsed) ==\n")
set.seed(1)
rows <- list()
for (d in c(50, 100, 200)) {
  sem <- simulate_sem(d, 1, n = Inf)
  reps <- if (d <= 100) 5L else 3L
  rows[[length(rows) + 1]] <- data.frame(
    d = d, route = "covariance", n = "1000",
    seconds = timed(estimate_moral_graph(cov = sem$sigma, n = 1000), reps))
  rows[[length(rows) + 1]] <- data.frame(
    d = d, route = "covariance", n = "Inf",
    seconds = timed(estimate_moral_graph(cov = sem$sigma), reps))
  rows[[length(rows) + 1]] <- data.frame(
    d = d, route = "covariance, precision", n = "1000",
    seconds = timed(estimate_moral_graph(cov = sem$sigma, n = 1000, method = "precision"), reps))
  x <- sem_data(sem, 1000)
  rows[[length(rows) + 1]] <- data.frame(
    d = d, route = "data", n = "1000", seconds = timed(estimate_moral_graph(x), reps))
  if (d == 50 && requireNamespace("bnlearn", quietly = TRUE)) {
    df <- as.data.frame(x)
    rows[[length(rows) + 1]] <- data.frame(
      d = d, route = "data, bnlearn::iamb(test = 'zf')", n = "1000",
      seconds = timed(suppressWarnings(bnlearn::iamb(df, test = "zf", alpha = 0.01)), 1L))
  }
  if (big) {
    x <- NULL
    gc(FALSE)
    x <- sem_data(sem, 1e6)
    rows[[length(rows) + 1]] <- data.frame(
      d = d, route = "data", n = "1e6", seconds = timed(estimate_moral_graph(x), 1L))
    rows[[length(rows) + 1]] <- data.frame(
      d = d, route = "  of which covariance (C++)", n = "1e6",
      seconds = timed(calm:::cpp_data_covariance(x), 1L))
    if (d == 100) {
      rows[[length(rows) + 1]] <- data.frame(
        d = d, route = "  stats::cov() for comparison", n = "1e6",
        seconds = timed(stats::cov(x), 1L))
    }
  }
  x <- NULL
  gc(FALSE)
}
print(do.call(rbind, rows), row.names = FALSE, digits = 3)
