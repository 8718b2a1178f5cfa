# One-off (2026-11-25): merge the fragments under inst/extdata into one file
# per benchmark with bench_append() (inst/bench/bench_args.R). Each fragment
# becomes a run of its benchmark's file: its rows with the run's name in
# column `run`, its provenance (meta / info, as the run wrote it) under
# attr(, "provenance")[[run]]. stored_run() gives a fragment back as it was.
# Run from the package's source folder: Rscript data-raw/merge_extdata.R
source(file.path("inst", "bench", "bench_args.R"))
ext <- file.path("inst", "extdata")
frag <- function(pattern) list.files(ext, pattern = pattern)
merge_into <- function(files, into, run_of, read) {
  out <- file.path(ext, into)
  if (file.exists(out)) stop(out, " exists")
  for (f in files) {
    r <- read(readRDS(file.path(ext, f)))
    bench_append(r$x, out, run_of(f), provenance = r$provenance)
  }
  unlink(file.path(ext, files))
  cat(sprintf("%s: %d fragments\n", into, length(files)))
}
# the paper's tables (list(result, meta) from inst/bench/paper), one file a table
for (tab in sprintf("table%d", 2:8)) {
  if (file.exists(file.path(ext, paste0(tab, ".rds")))) next
  files <- frag(sprintf("^%s(_.*)?\\.rds$", tab))
  files <- files[!grepl("^table2_er1_infinite", files)]
  merge_into(files, paste0(tab, ".rds"), function(f) sub("\\.rds$", "", f),
             function(o) list(x = o$result, provenance = o$meta))
}
# baselines_inf.rds (one run) stays as it is
# calm's accuracy against peers (bench_accuracy.R); the accuracy_cv_* files
# are left as they are
info_of <- function(o) {
  p <- attr(o, "info")
  attr(o, "info") <- NULL
  list(x = o, provenance = p)
}
merge_into(frag("^accuracy_er.*\\.rds$"), "accuracy.rds",
           function(f) sub("^accuracy_(.*)\\.rds$", "\\1", f), info_of)
merge_into(frag("^free_starts_.*\\.rds$"), "free_starts.rds",
           function(f) sub("^free_starts_(.*)\\.rds$", "\\1", f), info_of)
merge_into(c("penalty_by_d_boss.rds", "penalty_by_d_s41001.rds", "penalty_ebic_validation.rds"),
           "penalty_by_d.rds",
           function(f) c(penalty_by_d_boss.rds = "boss_s12001", penalty_by_d_s41001.rds = "s41001",
                         penalty_ebic_validation.rds = "ebic_validation_s43001")[[f]], info_of)
merge_into(frag("^order_starts_.*\\.rds$"), "order_starts.rds",
           function(f) sub("^order_starts_(.*)\\.rds$", "\\1", f), info_of)
# early stopping (bench_early_stop.R): per-graph rows; the run's printed
# summary travels with its provenance
merge_into(frag("^early_stop_.*\\.rds$"), "early_stop.rds",
           function(f) sub("^early_stop_(.*)\\.rds$", "\\1", f),
           function(o) list(x = o$per_graph, provenance = c(o$info, list(summary = o$summary))))
# table2_er1_infinite.csv and _summary.csv repeat the .rds
unlink(file.path(ext, c("table2_er1_infinite.csv", "table2_er1_infinite_summary.csv")))
