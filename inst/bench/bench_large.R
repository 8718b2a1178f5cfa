# calm at thousands of variables: time, peak memory and SHD of the CPDAG of
# calm's default fit and of its peers, on ER1 graphs (simulate_sem(d, k = 1))
# and scale-free graphs with hubs (realistic_data.R's sf_dag(): preferential
# attachment, 1 or 2 edges per new node, at most 10 parents; simulate_sem()'s
# weights and noise), each fit in a fresh R process with one BLAS thread, so
# that its peak memory (maximum resident set size) can be read. Prints one
# row per fit, with the seconds of each of calm's stages and, for calm's
# fits, the score of its DAG minus the true DAG's (n times score_dag() at the
# fit's penalty: positive where the search missed a better graph) and a
# signature of its graph's edges (`graph_sig`, equal for equal graphs: the
# spread fit's against the sequential one's), and stores the rows.
#
#   Rscript inst/bench/bench_large.R out.rds [graphs] [d,...] [kinds] [methods] [first_seed] [n]
#
# graphs: data sets per (d, kind) (default 3); d: default 1000,2000; kinds:
# er1, sf (default both); methods, comma-separated (default "default"):
# default (calm()), noscan (calm() without the scan beyond the moral graph's
# pairs: search_control(scan_beyond = FALSE)), nokicks (calm() without the
# kicks after the scan: search_control(scan_kicks = 0)), noempty (calm()
# without GES from the empty graph: search_control(empty_start = FALSE)),
# scan150 (calm() with 150 scan kicks: search_control(scan_kicks = 150)),
# kicks50 (calm() with the 50 scan kicks that were the default before 150:
# search_control(scan_kicks = 50)),
# threads1 (calm() on one thread: calm_control(threads = 1); the default
# runs the kicks above 500 variables on 2 threads, with the same graph),
# spread (calm() under future::plan(multisession, workers = 2)), boss2,
# boss3, boss4 (boss() over all pairs at penalty
# discount 2, 3, 4), ges2, ges4 (pcalg's GES, ges_pcalg(), at discount 2
# and 4), ges1d, ges2d, ges4d, ges8d, ... (pcalg::ges() called directly,
# which takes n <= d, at the discount in the name); first_seed: default 61001 (data set r of a setting uses
# first_seed + r - 1; the same seed gives every method the same data);
# n: rows (default 2d). Run it on an otherwise idle machine.
source(system.file("bench", "bench_args.R", package = "calm", mustWork = TRUE))
a <- bench_args(list(out = NA_character_, graphs = 3L, d = "1000,2000", kinds = "er1,sf",
                     methods = "default", first_seed = 61001L, n = 0),
                usage = "Rscript inst/bench/bench_large.R out.rds [graphs] [d,...] [kinds] [methods] [first_seed] [n]")
ds <- as.numeric(bench_list(a$d))
kinds <- bench_list(a$kinds)
methods <- bench_list(a$methods)
realistic <- file.path(bench_script_dir(), "realistic_data.R")

# One fit in a child process, which prints one line "RESULT key=value;...".
child <- '
suppressPackageStartupMessages(library(calm))
a <- commandArgs(TRUE)
d <- as.numeric(a[1]); kind <- a[2]; seed <- as.integer(a[3]); m <- a[4]; n <- as.numeric(a[5])
source(a[6])
set.seed(seed)
sem <- switch(kind, er1 = simulate_sem(d, k = 1, n = n),
              sf = simulate_sem(dag = sf_dag(d), n = n), stop("unknown kind ", kind))
# the truth is kept as its nonzero entries while the fit runs: a d x d B
# would count 0.8 GB at 10,000 variables against the fit\'s peak
x <- sem$x
truth <- list(d = d, nm = colnames(sem$B), at = which(sem$B != 0, arr.ind = TRUE),
              w = sem$B[sem$B != 0])
rm(sem)
invisible(gc())
# the peak memory read below is the fit\'s: reset after the data were drawn
# (the population covariance of simulate_sem() alone is several d x d
# matrices); runs stored before commit 4ce79f7 counted the drawing too
try(writeLines("5", "/proc/self/clear_refs"), silent = TRUE)
set.seed(seed + 100000L)
# pcalg::ges() called directly on the standardized data (ges_pcalg() refuses
# n <= d as singular), as a list with the CPDAG as `amat`
pcalg_ges_direct <- function(x, discount) {
  x <- scale(x)
  gen <- methods::getRefClass("GaussL0penObsScore", where = asNamespace("pcalg"))
  g <- pcalg::ges(gen$new(x, lambda = discount * log(nrow(x)) / 2))
  d <- ncol(x)
  amat <- matrix(0, d, d, dimnames = list(colnames(x), colnames(x)))
  pa <- g$essgraph$.in.edges
  for (j in seq_len(d)) amat[pa[[j]], j] <- 1
  amat
}
if (m == "spread") future::plan(future::multisession, workers = 2)
t0 <- proc.time()[["elapsed"]]
fit <- switch(m,
  default = , spread = calm(x, verbose = FALSE),
  noscan = calm(x, verbose = FALSE,
                control = calm_control(search = search_control(scan_beyond = FALSE))),
  nokicks = calm(x, verbose = FALSE,
                 control = calm_control(search = search_control(scan_kicks = 0))),
  noempty = calm(x, verbose = FALSE,
                 control = calm_control(search = search_control(empty_start = FALSE))),
  threads1 = calm(x, verbose = FALSE, control = calm_control(threads = 1)),
  scan150 = calm(x, verbose = FALSE,
                 control = calm_control(search = search_control(scan_kicks = 150))),
  kicks50 = calm(x, verbose = FALSE,
                 control = calm_control(search = search_control(scan_kicks = 50))),
  boss2 = boss(x, control = search_control(penalty_discount = 2)),
  boss3 = boss(x, control = search_control(penalty_discount = 3)),
  boss4 = boss(x, control = search_control(penalty_discount = 4)),
  ges2 = ges_pcalg(x, penalty_discount = 2),
  ges4 = ges_pcalg(x, penalty_discount = 4),
  if (grepl("^ges[0-9]+d$", m)) pcalg_ges_direct(x, as.numeric(gsub("[^0-9]", "", m))) else
    stop("unknown method ", m))
secs <- proc.time()[["elapsed"]] - t0
# the graph compared with the truth: the fit, or the CPDAG pcalg returned
est <- fit
if (is.matrix(fit)) fit <- list()
st <- readLines("/proc/self/status")
hwm <- as.numeric(sub("[^0-9]*([0-9]+).*", "\\\\1", grep("^VmHWM", st, value = TRUE))) / 1024
stages <- fit$stages
ref <- fit$refine$stage_seconds
times <- c(if (is.data.frame(stages)) stats::setNames(stages$seconds, stages$stage),
           if (length(ref)) stats::setNames(ref, paste0("refine_", names(ref))))
times <- paste(sprintf("s_%s=%.3f", names(times), times), collapse = ";")
B <- matrix(0, truth$d, truth$d, dimnames = list(truth$nm, truth$nm))
B[truth$at] <- truth$w
sk <- skeleton_metrics(est, B)
# calm\'s DAG against the true one in the fit\'s own score (n times
# score_dag() at the fit\'s penalty; positive: the truth scores better, so
# the search missed it)
gap <- if (!is.null(fit$amat) && !is.null(fit$penalty$lambda)) {
  lam <- fit$penalty$lambda
  s <- stats::cor(x)
  nrow(x) * (c(score_dag(fit$amat, cov = s, n = nrow(x), edge_penalty = lam)) -
               c(score_dag((B != 0) * 1, cov = s, n = nrow(x), edge_penalty = lam)))
} else NA
# a signature of the graph\'s edges, equal for equal graphs (the spread
# fit\'s graph against the sequential one\'s)
g <- if (is.matrix(est)) est else est$amat
sig <- sum(log1p(which(g != 0)))
cat(sprintf("RESULT shd=%d;true=%d;seconds=%.2f;peak_mb=%.0f;discount=%.4g;precision=%.4f;recall=%.4f;score_gap=%.4g;graph_sig=%.12g%s%s\\n",
            shd_cpdag(est, B), sum(B != 0), secs, hwm,
            if (is.null(fit$penalty$discount)) NA else fit$penalty$discount,
            sk[["precision"]], sk[["recall"]], gap, sig, if (nzchar(times)) ";" else "", times))
'
script <- tempfile(fileext = ".R")
writeLines(child, script)
rows <- list()
for (d in ds) for (kind in kinds) for (r in seq_len(a$graphs)) for (m in methods) {
  seed <- a$first_seed + r - 1L
  n <- if (a$n > 0) a$n else 2 * d
  err <- tempfile(fileext = ".txt")
  res <- system2(file.path(R.home("bin"), "Rscript"),
                 c(script, d, kind, seed, m, n, realistic), stdout = TRUE, stderr = err,
                 env = "OPENBLAS_NUM_THREADS=1")
  line <- grep("^RESULT ", res, value = TRUE)
  if (!length(line)) {
    # the child's last messages say why (an error, the memory guard, a kill)
    cat(sprintf("d %d %s seed %d %s: the fit failed (exit status %s); its stderr ends:\n",
                d, kind, seed, m, format(attr(res, "status"))))
    writeLines(paste("  ", utils::tail(readLines(err), 8)))
    next
  }
  kv <- strsplit(strsplit(sub("^RESULT ", "", line), ";")[[1]], "=")
  v <- stats::setNames(suppressWarnings(as.numeric(vapply(kv, `[`, "", 2))),
                       vapply(kv, `[`, "", 1))
  row <- data.frame(d = d, kind = kind, n = n, seed = seed, method = m, t(v))
  rows[[length(rows) + 1]] <- row
  cat(sprintf("d %5d %-3s n %5d seed %d %-7s SHD %4d (%5d true) %8.1f s  peak %6.0f MB  discount %s\n",
              d, kind, n, seed, m, as.integer(v[["shd"]]), as.integer(v[["true"]]), v[["seconds"]],
              v[["peak_mb"]], format(v["discount"], digits = 3)))
  cols <- unique(unlist(lapply(rows, names)))
  res_df <- do.call(rbind, lapply(rows, function(x) {
    x[setdiff(cols, names(x))] <- NA
    x[cols]
  }))
  attr(res_df, "info") <- list(date = format(Sys.Date()), R = R.version.string,
                               command = bench_command())
  bench_save(res_df, a$out)
}
res <- readRDS(a$out)
msd <- function(v) sprintf("%.1f +/- %.1f", mean(v), sd(v) / sqrt(length(v)))
tab <- do.call(rbind, lapply(split(res, list(res$method, res$kind, res$n, res$d), drop = TRUE),
                             function(b)
  data.frame(d = b$d[1], n = b$n[1], kind = b$kind[1], method = b$method[1], data_sets = nrow(b),
             seconds = msd(b$seconds), shd = msd(b$shd), true_edges = round(mean(b$true)),
             peak_mb = round(max(b$peak_mb)))))
print(tab[order(tab$d, tab$n, tab$kind, tab$method), ], row.names = FALSE)
