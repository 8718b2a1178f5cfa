# Helpers shared by the reproduction scripts (table*.R). Each script sources
# this file, reads its options, runs one of the paper's experiments and
# stores the result with the date, the machine and the run time.
#
# Options (command line, or environment variables):
#   --quick        or CALM_QUICK=1     small version (few, small graphs; short runs)
#   --reps=R                           replicates per setting (default: the paper's 10)
#   --replicates=6-10                  run only these replicates (a range a-b or a list
#                                      a,b,c): a chunk of a long table, stored under a
#                                      name ending in _r6-10; the vignette binds the
#                                      chunks of one table, setting and method set
#   --methods=a,b                      run only these methods of the table
#   --settings=1,3                     run only these settings (rows) of the table
#   --workers=W                        future::plan(multisession, workers = W);
#                                      otherwise the plan already set (sequential by default)
#   --outdir=DIR   or CALM_OUTDIR=DIR  where results go (default ./calm-results)
#
# A run restricted by --methods or --settings is stored under a name that
# says so (e.g. table5_s1-2_golem_nv-notears.rds).

script_options <- function(defaults = list()) {
  args <- commandArgs(trailingOnly = TRUE)
  value <- function(flag) {
    hit <- grep(paste0("^--", flag, "="), args, value = TRUE)
    if (length(hit)) sub(paste0("^--", flag, "="), "", hit[length(hit)]) else NULL
  }
  env_quick <- Sys.getenv("CALM_QUICK", "")
  opts <- list(
    quick = "--quick" %in% args || (nzchar(env_quick) && env_quick != "0"),
    reps = value("reps"),
    replicates = value("replicates"),
    methods = value("methods"),
    settings = value("settings"),
    workers = value("workers"),
    outdir = value("outdir") %||% Sys.getenv("CALM_OUTDIR", "calm-results")
  )
  if (!is.null(opts$reps)) opts$reps <- as.integer(opts$reps)
  if (!is.null(opts$replicates)) opts$replicates <- parse_replicates(opts$replicates)
  if (!is.null(opts$methods)) opts$methods <- strsplit(opts$methods, ",", fixed = TRUE)[[1]]
  if (!is.null(opts$settings)) {
    opts$settings <- as.integer(strsplit(opts$settings, ",", fixed = TRUE)[[1]])
  }
  if (!is.null(opts$workers)) {
    future::plan(future::multisession, workers = as.integer(opts$workers))
  }
  dir.create(opts$outdir, showWarnings = FALSE, recursive = TRUE)
  opts
}

`%||%` <- function(a, b) if (is.null(a)) b else a

# "6-10" -> 6:10, "1,3,5" -> c(1, 3, 5)
parse_replicates <- function(x) {
  parts <- strsplit(x, ",", fixed = TRUE)[[1]]
  out <- unlist(lapply(parts, function(p) {
    ab <- suppressWarnings(as.integer(strsplit(p, "-", fixed = TRUE)[[1]]))
    if (length(ab) == 1L) return(ab)
    if (length(ab) == 2L && !anyNA(ab) && ab[1] <= ab[2]) ab[1]:ab[2] else NA
  }))
  if (!length(out) || anyNA(out) || any(out < 1) || anyDuplicated(out)) {
    stop("--replicates must be a range a-b or a list a,b,c of distinct replicate numbers")
  }
  sort(out)
}

# The stored name's part for a replicate chunk: "r6-10" for a range,
# "r1.3.5" otherwise
replicates_label <- function(r) {
  if (length(r) > 1L && all(diff(r) == 1L)) paste0("r", r[1], "-", r[length(r)])
  else paste0("r", paste(r, collapse = "."))
}

# Settings and methods of a table, shrunk in quick mode: graphs of at most
# 10 nodes, 2 replicates, short optimisation runs.
table_plan <- function(opts, methods, settings, reps = 10, extra = character()) {
  if (!is.null(opts$methods)) {
    unknown <- setdiff(opts$methods, c(methods, extra))
    if (length(unknown)) stop("not a method of this table: ", paste(unknown, collapse = ", "))
    methods <- intersect(c(methods, extra), opts$methods)
  }
  if (!is.null(opts$settings)) settings <- settings[opts$settings, , drop = FALSE]
  method_args <- list()
  if (opts$quick) {
    settings$d <- pmin(settings$d, 10)
    settings$k <- pmin(settings$k, 2)
    settings$n[is.finite(settings$n)] <- pmin(settings$n[is.finite(settings$n)], 1000)
    settings <- unique(settings)
    reps <- 2
    for (m in methods) {
      if (startsWith(m, "golem_nv")) {
        method_args[[m]] <- list(control = calm::golem_control(max_iter = 5000))
      }
      if (startsWith(m, "calm")) method_args[[m]] <- list(control = quick_calm_control())
    }
  }
  list(methods = methods, settings = settings,
       replicates = opts$replicates %||% seq_len(opts$reps %||% reps), method_args = method_args)
}

quick_calm_control <- function() {
  ctl <- get0("calm_control", envir = asNamespace("calm"), mode = "function")
  if (is.null(ctl)) return(NULL)
  ctl(iter_per_round = 2000)
}

machine_info <- function() {
  cpu <- tryCatch({
    x <- grep("^model name", readLines("/proc/cpuinfo", warn = FALSE), value = TRUE)
    if (length(x)) sub("^model name\\s*:\\s*", "", x[1]) else NA_character_
  }, error = function(e) NA_character_)
  si <- Sys.info()
  list(sysname = unname(si["sysname"]), release = unname(si["release"]),
       machine = unname(si["machine"]), cpu = cpu,
       cores = parallel::detectCores(), R = R.version.string,
       calm = as.character(utils::packageVersion("calm")),
       plan = setdiff(class(future::plan()), c("FutureStrategy", "tweaked", "function"))[1],
       workers = future::nbrOfWorkers())
}

# Saves `result` as <outdir>/<name>[_quick][_<methods>].rds: a list with the
# result and `meta` (date, machine, run time, options, command).
store_result <- function(name, result, opts, started, methods = NULL, all_methods = NULL) {
  suffix <- ""
  if (opts$quick) suffix <- paste0(suffix, "_quick")
  if (!is.null(opts$settings)) suffix <- paste0(suffix, "_s", paste(opts$settings, collapse = "-"))
  if (!is.null(methods) && !is.null(all_methods) && !setequal(methods, all_methods)) {
    suffix <- paste0(suffix, "_", paste(methods, collapse = "-"))
  }
  if (!is.null(opts$replicates)) suffix <- paste0(suffix, "_", replicates_label(opts$replicates))
  meta <- list(
    name = name,
    date = format(Sys.time(), "%Y-%m-%d %H:%M:%S %Z"),
    machine = machine_info(),
    run_time_seconds = as.numeric(difftime(Sys.time(), started, units = "secs")),
    quick = opts$quick,
    command = paste(c("Rscript", sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE)),
                      commandArgs(trailingOnly = TRUE)), collapse = " ")
  )
  path <- file.path(opts$outdir, paste0(name, suffix, ".rds"))
  saveRDS(list(result = result, meta = meta), path, version = 2)
  message(sprintf("stored %s (%.1f s)", path, meta$run_time_seconds))
  invisible(path)
}

# Runs one benchmark table end to end and prints it next to the paper's.
# `extra`: methods run only when --methods names them (e.g. notears_optim,
# which reproduces NOTEARS rows stored before notears_control(solver = )).
run_benchmark_table <- function(name, methods, settings, moral, opts, extra = character()) {
  started <- Sys.time()
  plan <- table_plan(opts, methods, settings, extra = extra)
  message(sprintf("%s: %d method(s) x %d setting(s) x %d replicate(s)%s", name,
                  length(plan$methods), nrow(plan$settings), length(plan$replicates),
                  if (opts$quick) " (quick mode)" else ""))
  res <- progressr::with_progress(
    calm::benchmark_methods(plan$methods, plan$settings, seed = 2025,
                            method_args = plan$method_args, moral = moral,
                            replicates = plan$replicates)
  )
  print(res)
  store_result(name, res, opts, started, plan$methods, methods)
  invisible(res)
}

# Paper Tables 5 and 7: the same graphs (50-node ER1 and ER4, 100-node ER1,
# n = 1000 and 10^6) and methods, on standardized data (Table 5) or not
# (Table 7); CALM estimates the moral graph from the sample, as in the paper.
run_er_table <- function(name, standardized, opts) {
  settings <- expand.grid(n = c(1000, 1e6), d = c(50, 50, 100), KEEP.OUT.ATTRS = FALSE)
  settings$k <- rep(c(1, 4, 1), each = 2)
  settings$standardized <- standardized
  run_benchmark_table(name, c("calm_paper", "calm", "boss", "golem_nv", "golem_nv_ev", "notears",
                              "pc", "ges1", "ges", "ges4"), settings,
                      moral = "default", opts, extra = "notears_optim")
}
