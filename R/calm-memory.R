# The memory guard of calm() (see ?calm, "Memory"): the bytes a fit
# needs against what the machine can give.

# The memory guard of calm(): the bytes a fit needs, estimated before
# anything is allocated, against what the machine can give (see
# memory_available()). Called twice: before the covariance and moral graph
# are computed, from the number of variables alone (the free entries of an
# estimated moral graph are not known yet: none are counted, and the kernel
# is taken to hold one component of all variables), and again before the
# optimizer, with the mask's free entries and components.
check_fit_memory <- function(d, n_rows = 0, mask = NULL, moral = NULL, refine = "ges", ctrl,
                             kernel = TRUE, call = parent.frame()) {
  avail <- memory_available()
  if (is.null(avail) || !is.finite(d) || d < 1) return(invisible(NULL))
  d <- as.double(d)
  free <- if (!is.null(mask)) {
    mask_sizes(mask)
  } else if (identical(moral, "none")) {
    list(m = d * (d - 1), blocks2 = d * d)
  } else if (is.matrix(moral) && (is.numeric(moral) || is.logical(moral)) && !anyNA(moral) &&
             nrow(moral) == d && ncol(moral) == d) {
    # a moral graph given as a matrix fixes the free entries now
    mask_sizes(moral)
  }
  need <- fit_memory_need(d, n_rows, free[["m"]], free[["blocks2"]], refine, ctrl, kernel)
  if (need > avail) {
    cli::cli_abort(c(
      "A {.fn calm} fit on {d} variable{?s} needs about {format_bytes(need)} of memory, more than the {format_bytes(avail)} available ({attr(avail, 'source')}).",
      i = "Restrict the search with a sparser {.arg moral} graph, fit fewer variables, or set {.code options(calm.max_bytes = )} (bytes) if the machine has more to give; see {.topic calm} (Memory)."
    ), class = c("calm_error_memory", "calm_error"), call = call)
  }
  invisible(need)
}

# Bytes a calm() fit needs at its peak, beyond what R held before the call.
# Counted from what is allocated, with coefficients set by the peaks
# measured with inst/bench/bench_memory.R (d = 200 to 800) and
# inst/bench/bench_large.R (d = 2000 to 5000; see ?calm, "Memory"):
# - 16 MB that R's heap grows by in any fit (measured at d = 100 to 200);
# - data (n_rows x d): the centred and scaled copies made for the
#   covariance, 2 n d doubles;
# - R's d x d matrices (the covariance, the moral graph, the pairs the
#   refinement may join, the current and the next graph, the fit), of
#   which MEMORY_R_DD are alive at once at the peak (counted at d = 2000);
# - the optimizer's kernel: 9 n_b x n_b matrices per block (component) of
#   n_b nodes (15 with acyclicity = "exp"); none when the continuous phase
#   is skipped (`kernel = FALSE`, see continuous_skip());
# - per free entry of the mask: parameters, gradient, Adam's moments, gate
#   noise and values, the early-stopping history (20 + patience doubles)
#   and entry indices, with R's copies: 32 doubles and 8 integers
#   (measured: 256 bytes); none without the kernel;
# - the refinement (refine = "ges"): the searches' own d x d matrices
#   (MEMORY_SEARCH_DD: the mask and graphs in C++ and their copies for R),
#   their caches (5 d^2 doubles, at most search_cache_budget), and the exact
#   search's tables where it runs (at most search_control(exact_max_d)
#   variables and within the 2 GB it is allowed).
# At d = 5000, n = 3000 (skipped continuous phase) this gives 4.1 GB for a
# measured peak of 4.06 GB.
# m: the number of free entries, blocks2 the sum of the squared sizes of
# the mask's components; NULL when not known (no free entry, one block of
# all d nodes).
MEMORY_R_DD <- 10
MEMORY_SEARCH_DD <- 4
fit_memory_need <- function(d, n_rows = 0, m = NULL, blocks2 = NULL, refine = "ges",
                            ctrl = calm_control(), kernel = TRUE) {
  d <- as.double(d)
  dd <- d * d
  m <- if (is.null(m) || !kernel) 0 else as.double(m)
  blocks2 <- if (is.null(blocks2)) dd else as.double(blocks2)
  per_block <- if (!kernel) 0 else if (identical(ctrl[["acyclicity"]], "exp")) 15 else 9
  bytes <- 16e6 + 8 * (2 * as.double(n_rows) * d + MEMORY_R_DD * dd + per_block * blocks2 +
                         32 * m) + 4 * 8 * m
  if (identical(refine, "ges")) bytes <- bytes + search_memory_need(d, ctrl)
  bytes
}

# The refinement's share of fit_memory_need().
search_memory_need <- function(d, ctrl) {
  dd <- as.double(d) * d
  bytes <- 8 * MEMORY_SEARCH_DD * dd + min(search_cache_budget, 8 * 5 * dd)
  if (d >= 2 && d <= ctrl[["search"]][["exact_max_d"]]) {
    full <- matrix(1, d, d) - diag(d)
    ex <- cpp_exact_search_bytes(full)
    if (ex <= exact_search_budget) bytes <- bytes + ex
  }
  bytes
}

# The free entries of a mask (off the diagonal) and the sum of the squared
# sizes of its components of two or more nodes, for fit_memory_need().
mask_sizes <- function(mask) {
  sizes <- tabulate(mask_components(mask))
  list(m = as.double(sum(mask != 0)) - sum(diag(mask) != 0),
       blocks2 = sum(as.double(sizes[sizes >= 2L])^2))
}

# The bytes this R process may still allocate: getOption("calm.max_bytes")
# when set, else MemAvailable of /proc/meminfo (Linux), else NULL (unknown:
# no check). The attribute "source" says which.
memory_available <- function() {
  opt <- getOption("calm.max_bytes")
  if (!is.null(opt)) {
    if (!is.numeric(opt) || length(opt) != 1L || is.na(opt) || opt <= 0) {
      cli::cli_abort("Option {.code calm.max_bytes} must be a positive number of bytes, not {.obj_type_friendly {opt}}.",
                     class = c("calm_error_argument", "calm_error"), call = NULL)
    }
    return(structure(as.double(opt), source = "option calm.max_bytes"))
  }
  info <- "/proc/meminfo"
  if (!file.exists(info)) return(NULL)
  lines <- tryCatch(readLines(info, warn = FALSE), error = function(e) character())
  hit <- grep("^MemAvailable:", lines, value = TRUE)
  if (length(hit) != 1L) return(NULL)
  kb <- suppressWarnings(as.numeric(sub("^MemAvailable:[[:space:]]*([0-9]+).*$", "\\1", hit)))
  if (!is.finite(kb)) return(NULL)
  structure(kb * 1024, source = "MemAvailable in /proc/meminfo")
}
