# Add one run's result to a benchmark's stored file (one file per
# benchmark, see bench_append() in bench_args.R), keeping its provenance:
#   Rscript inst/bench/bench_store.R result.rds stored.rds [run]
# result.rds is what a script wrote: list(result, meta) from inst/bench/paper
# (tables 2-8), a data frame with attribute "provenance" or "info" from
# inst/bench, or list(per_graph, summary, info) from bench_early_stop.R.
# run names the run in the stored file (default: result.rds's file name);
# a run of that name is replaced.
source(system.file("bench", "bench_args.R", package = "calm", mustWork = TRUE))
a <- bench_args(list(result = NULL, stored = NULL, run = ""),
                usage = "Rscript inst/bench/bench_store.R result.rds stored.rds [run]")
if (is.null(a$result) || is.null(a$stored)) stop("give result.rds and stored.rds", call. = FALSE)
run <- if (nzchar(a$run)) a$run else sub("\\.rds$", "", basename(a$result))
o <- readRDS(a$result)
if (!is.data.frame(o) && all(c("result", "meta") %in% names(o))) {
  x <- o$result
  prov <- o$meta
} else if (!is.data.frame(o) && all(c("per_graph", "summary", "info") %in% names(o))) {
  x <- o$per_graph
  prov <- c(o$info, list(summary = o$summary))
} else {
  x <- o
  # the script's own notes (attribute "info") and bench_save()'s provenance
  prov <- attr(o, "info")
  p2 <- attr(o, "provenance")
  prov <- c(prov, p2[setdiff(names(p2), names(prov))])
  attr(x, "info") <- NULL
}
stored <- bench_append(x, a$stored, run, provenance = prov)
cat(sprintf("%s: run %s added (%d rows; %d runs stored)\n", a$stored, run, nrow(x),
            length(stored_runs(stored))))
