# One-off (2026-11-28, issue 63): the eight accuracy_cv_*.rds files (one per
# setting, bench_accuracy.R with the default of their time) become the runs
# of one file, accuracy_cv.rds, with bench_append() (inst/bench/bench_args.R):
# each file's rows under its setting's name in column `run`, its provenance
# (attribute "provenance", as the run wrote it) under attr(, "provenance")[[run]].
# stored_run() gives a file back as it was; this script checks that before it
# deletes the files. inst/extdata had 44 files, the issue allows 40.
# Run from the package's source folder: Rscript data-raw/merge_accuracy_cv.R
source(file.path("inst", "bench", "bench_args.R"))
ext <- file.path("inst", "extdata")
out <- file.path(ext, "accuracy_cv.rds")
if (file.exists(out)) stop(out, " exists")
files <- list.files(ext, pattern = "^accuracy_cv_.*\\.rds$")
run_of <- function(f) sub("^accuracy_cv_(.*)\\.rds$", "\\1", f)
for (f in files) {
  bench_append(readRDS(file.path(ext, f)), out, run_of(f))
}
merged <- readRDS(out)
for (f in files) {
  o <- readRDS(file.path(ext, f))
  if (!identical(stored_run(merged, run_of(f)), o)) stop(f, " does not come back as it was")
}
unlink(file.path(ext, files))
cat(sprintf("accuracy_cv.rds: %d runs (%s)\n", length(files), paste(run_of(files), collapse = ", ")))
