# Peak memory of calm() against the number of variables.
#
# For ER1 graphs with d variables and n = 1000 samples, fits calm() with a
# short schedule (iter_per_round = 500, max_rounds = 2: the optimizer's
# memory does not depend on the number of steps), without and with the
# refinement, each in a fresh R process. The child reads its resident set
# size (VmRSS in /proc/self/status) after a small warm-up fit and simulating
# the data, and its peak (VmHWM) after the fit; the difference is what the
# fit took (glibc is told to give freed memory back at once, so that the fit
# cannot hide in memory the set-up freed). Prints one row per fit and the
# bytes per d^2 of each, and stores the rows.
#
#   Rscript inst/bench/bench_memory.R [out.csv] [d,...] [refine,...] [moral] [input]
#
# The runs behind ?calm ("Memory") are stored in
# inst/extdata/memory_calm.csv (a 2-core machine with another job running):
#   Rscript inst/bench/bench_memory.R a.csv 100,200,400 none,ges NULL data
#   Rscript inst/bench/bench_memory.R b.csv 800 none NULL data
#   Rscript inst/bench/bench_memory.R c.csv 200,400,600 none NULL cov
#   Rscript inst/bench/bench_memory.R d.csv 200,400 none none cov
#
# d: default 100,200,400; refine: default none,ges; moral: calm()'s `moral`
# (default "NULL": estimated by IAMB); input: "data" (default; calm(x)) or
# "cov" (calm(cov = , n = 1000): no copies of the data, so the peak is the
# part that grows with d^2). Linux only (reads /proc).
source(system.file("bench", "bench_args.R", package = "calm", mustWork = TRUE))
a <- bench_args(list(out = "", d = "100,200,400", refine = "none,ges", moral = "NULL", input = "data"),
                usage = "Rscript inst/bench/bench_memory.R [out.csv] [d,...] [refine,...] [moral] [input]")
out <- if (nzchar(a$out)) a$out else NA
ds <- as.numeric(bench_list(a$d))
refines <- bench_list(a$refine)
moral <- a$moral
input <- a$input

child <- '
suppressPackageStartupMessages(library(calm))
a <- commandArgs(TRUE)
d <- as.numeric(a[1]); refine <- a[2]; moral <- if (a[3] == "NULL") NULL else a[3]
input <- a[4]
kb <- function(field) {
  s <- readLines("/proc/self/status")
  as.numeric(sub("[^0-9]*([0-9]+).*", "\\\\1", grep(paste0("^", field, ":"), s, value = TRUE)))
}
# a small fit first, so that the packages calm() loads on first use
# (future, progressr, ...) are in memory before the measurement
set.seed(2)
invisible(suppressWarnings(calm(simulate_sem(5, n = 100)$x, refine = refine, iter_per_round = 10,
                                max_rounds = 1, verbose = FALSE)))
set.seed(1)
sem <- simulate_sem(d, k = 1, n = 1000)
s <- stats::cov(sem$x)
if (input == "cov") sem$x <- NULL
invisible(gc())
before <- kb("VmRSS")
t0 <- proc.time()[["elapsed"]]
args <- list(refine = refine, moral = moral, iter_per_round = 500, max_rounds = 2, verbose = FALSE)
fit <- suppressWarnings(if (input == "cov") do.call(calm, c(list(cov = s, n = 1000), args)) else
  do.call(calm, c(list(sem$x), args)))
secs <- proc.time()[["elapsed"]] - t0
cat(sprintf("rss_before_kb=%.0f;peak_kb=%.0f;seconds=%.2f;moral_edges=%d;components=%d\\n", before,
            kb("VmHWM"), secs, igraph::ecount(fit$moral),
            if (is.null(fit$components)) 1L else nrow(fit$components)))
'
script <- tempfile(fileext = ".R")
writeLines(child, script)

rows <- list()
for (d in ds) for (refine in refines) {
  # glibc returns freed large blocks to the system at once, so that the
  # resident size follows what is live and memory freed before the fit
  # (the simulation's) is not silently reused by it
  res <- system2(file.path(R.home("bin"), "Rscript"), c(script, d, refine, moral, input),
                 stdout = TRUE,
                 env = c("MALLOC_MMAP_THRESHOLD_=65536", "MALLOC_TRIM_THRESHOLD_=0"))
  line <- grep("=", res, value = TRUE)
  kv <- strsplit(strsplit(line[length(line)], ";")[[1]], "=")
  v <- stats::setNames(as.numeric(vapply(kv, `[`, "", 2)), vapply(kv, `[`, "", 1))
  row <- data.frame(d = d, input = input, refine = refine, moral = moral, rss_before_mb = v[["rss_before_kb"]] / 1024,
                    peak_mb = v[["peak_kb"]] / 1024,
                    fit_mb = (v[["peak_kb"]] - v[["rss_before_kb"]]) / 1024,
                    seconds = v[["seconds"]], moral_edges = v[["moral_edges"]],
                    components = v[["components"]])
  row$bytes_per_d2 <- row$fit_mb * 1024^2 / d^2
  print(row, row.names = FALSE)
  rows[[length(rows) + 1L]] <- row
}
tab <- do.call(rbind, rows)
cat("\n")
print(tab, row.names = FALSE, digits = 4)
if (!is.na(out)) utils::write.csv(tab, out, row.names = FALSE)
