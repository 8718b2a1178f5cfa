# Argument checks shared by every exported function.
#
# Each check takes the value and the argument's name as the user typed it,
# and the environment of the exported function (`call`, default the caller),
# and stops with a classed condition ("calm_error_argument") whose message
# names that argument. Checks return the (possibly coerced) value invisibly so
# they can be used inline.

abort_arg <- function(arg, message, ..., call, .envir = parent.frame()) {
  cli::cli_abort(
    c(paste0("{.arg ", arg, "} ", message), ...),
    class = c("calm_error_argument", "calm_error"),
    call = call,
    .envir = .envir
  )
}

check_flag <- function(x, arg = deparse(substitute(x)), call = parent.frame()) {
  if (!is.logical(x) || length(x) != 1L || is.na(x)) {
    abort_arg(arg, "must be TRUE or FALSE, not {.obj_type_friendly {x}}.", call = call)
  }
  invisible(x)
}

check_number <- function(x, arg = deparse(substitute(x)), lower = -Inf, upper = Inf,
                         lower_open = FALSE, upper_open = FALSE, allow_inf = FALSE,
                         call = parent.frame()) {
  if (!is.numeric(x) || length(x) != 1L || is.na(x)) {
    abort_arg(arg, "must be a single number, not {.obj_type_friendly {x}}.", call = call)
  }
  if (!allow_inf && is.infinite(x)) {
    abort_arg(arg, "must be finite, not {x}.", call = call)
  }
  too_low <- if (lower_open) x <= lower else x < lower
  too_high <- if (upper_open) x >= upper else x > upper
  if (too_low || too_high) {
    range <- paste0(if (lower_open) "(" else "[", lower, ", ", upper, if (upper_open) ")" else "]")
    abort_arg(arg, "must lie in {range}, not {x}.", call = call)
  }
  invisible(as.double(x))
}

check_count <- function(x, arg = deparse(substitute(x)), min = 0, max = Inf,
                        call = parent.frame()) {
  if (!is.numeric(x) || length(x) != 1L || is.na(x) || is.infinite(x) ||
      x != round(x)) {
    abort_arg(arg, "must be a single whole number, not {.obj_type_friendly {x}}.", call = call)
  }
  if (x < min || x > max) {
    abort_arg(arg, "must be between {min} and {max}, not {x}.", call = call)
  }
  # as.integer() would turn larger values into NA with only a warning.
  int_max <- .Machine$integer.max
  if (abs(x) > int_max) {
    abort_arg(arg, "must be at most {int_max}, not {format(x)}.", call = call)
  }
  invisible(as.integer(x))
}

# Refuse an allocation larger than getOption("calm.max_bytes") (8 GB by
# default) before trying it, and say what it would need: R's own error
# ("cannot allocate vector of size ...") names neither the argument nor the
# total. The same option, when set, caps calm()'s memory guard
# (memory_available()).
check_memory <- function(bytes, arg, call) {
  limit <- getOption("calm.max_bytes", 8e9)
  if (bytes > limit) {
    abort_arg(arg, "would need about {format_bytes(bytes)} of memory, more than the limit of {format_bytes(limit)}.",
              i = "Raise the limit with {.code options(calm.max_bytes = )} if the machine has the memory.",
              call = call)
  }
  invisible(TRUE)
}

format_bytes <- function(b) {
  units <- c("bytes", "kB", "MB", "GB", "TB", "PB")
  e <- max(0, min(length(units) - 1, floor(log(b, 1000))))
  paste(format(signif(b / 1000^e, 3)), units[e + 1])
}

# A finite numeric matrix (data frames of numeric columns are accepted and
# converted). Returns a double matrix with column names.
check_numeric_matrix <- function(x, arg = deparse(substitute(x)), min_rows = 1L,
                                 min_cols = 1L, call = parent.frame()) {
  if (is.data.frame(x)) {
    bad <- !vapply(x, function(col) is.numeric(col) || is.logical(col), logical(1))
    if (any(bad)) {
      abort_arg(arg, "must have only numeric columns; {.val {names(x)[bad]}} {?is/are} not numeric.",
                call = call)
    }
    x <- as.matrix(x)
  }
  if (!is.matrix(x) || !(is.numeric(x) || is.logical(x))) {
    abort_arg(arg, "must be a numeric matrix or data frame, not {.obj_type_friendly {x}}.",
              call = call)
  }
  if (nrow(x) < min_rows) {
    abort_arg(arg, "must have at least {min_rows} row{?s}, not {nrow(x)}.", call = call)
  }
  if (ncol(x) < min_cols) {
    abort_arg(arg, "must have at least {min_cols} column{?s}, not {ncol(x)}.", call = call)
  }
  if (anyNA(x)) {
    # only a learner with an `na` argument (calm()) is pointed to it
    hint <- if (is.environment(call) && exists("na", envir = call, inherits = FALSE)) {
      "use the complete rows with {.code na = \"complete\"}."
    } else {
      "remove the incomplete rows first, e.g. {.code x[stats::complete.cases(x), ]}."
    }
    abort_arg(arg, paste("must not contain missing values (NA or NaN);", hint), call = call)
  }
  if (any_infinite(x)) {
    abort_arg(arg, "must not contain infinite values.", call = call)
  }
  storage.mode(x) <- "double"
  invisible(x)
}

check_square <- function(x, arg = deparse(substitute(x)), call = parent.frame()) {
  if (nrow(x) != ncol(x)) {
    abort_arg(arg, "must be a square matrix, not {nrow(x)} x {ncol(x)}.", call = call)
  }
  # one set of names for both dimensions, or the matrix is silently relabelled
  rn <- rownames(x)
  cn <- colnames(x)
  if (!is.null(rn) && !is.null(cn) && !identical(rn, cn)) {
    abort_arg(arg, "has row names that differ from its column names; a square matrix of variables needs one set of names.",
              call = call)
  }
  invisible(x)
}

# Node names: the column names when present, otherwise X1..Xd.
node_names <- function(x) {
  nm <- colnames(x)
  if (is.null(nm)) nm <- rownames(x)
  if (is.null(nm)) nm <- paste0("X", seq_len(ncol(x)))
  nm
}

set_node_names <- function(m, nm = node_names(m)) {
  # names already right: no copy (at scale each is d x d)
  if (identical(dimnames(m), list(nm, nm))) return(m)
  dimnames(m) <- list(nm, nm)
  m
}

# A covariance matrix: finite, square, symmetric (to a relative tolerance),
# and positive definite. Returns it symmetrised exactly, with node names.
# Symmetry and definiteness are judged on the correlation scale: both are
# unchanged by rescaling the variables, and variables measured in very
# different units (say 1e8 and 1e-8) must not make a well-conditioned
# covariance look asymmetric or singular.
#
# `small_n = TRUE` (a sample covariance of n <= d observations, for the
# learners that only ever regress a node on a few others) replaces the
# global requirement by what can be told of single pairs: no two variables
# may be copies of each other (up to scale and sign). Any other singularity
# is left to the searches, which refuse a parent set whose regression is not
# well posed (see score_dag()).
check_covariance <- function(x, arg = deparse(substitute(x)), call = parent.frame(),
                             n_rows = NULL, small_n = FALSE) {
  if (inherits(x, "Matrix")) x <- as.matrix(x)
  x <- check_numeric_matrix(x, arg, call = call)
  check_square(x, arg, call = call)
  if (ncol(x) < 2L) {
    abort_arg(arg, "must describe at least 2 variables, not {ncol(x)}.", call = call)
  }
  if (any(diag(x) <= 0)) {
    nm0 <- node_names(x)[diag(x) <= 0]
    abort_arg(arg, "must have a positive diagonal (every variance > 0); {.val {nm0}} {?has/have} none.",
              call = call)
  }
  sd <- sqrt(diag(x))
  # on the correlation scale r_ij = x_ij / sd_i / sd_j (divided one factor
  # at a time, so that sd_i * sd_j cannot under- or overflow), in C++
  # without a d x d copy
  chk <- cpp_covariance_check(x, sd, DUPLICATE_CORRELATION)
  if (!chk$finite || chk$asymmetry > 1e-8) {
    abort_arg(arg, "must be symmetric.", call = call)
  }
  nm <- node_names(x)
  check_node_names(nm, arg, call)
  given <- x
  if (!chk$symmetric) x <- (x + t(x)) / 2
  if (small_n) {
    if (chk$duplicated > 0) {
      abort_arg(arg, "has perfectly correlated variables, which no regression can tell apart.",
                i = duplicated_pairs(correlation_scale(given, sd), nm), call = call)
    }
    return(invisible(set_node_names(x)))
  }
  r <- correlation_scale(given, sd)
  ev <- eigen((r + t(r)) / 2, symmetric = TRUE, only.values = TRUE)$values
  if (min(ev) <= max(ev) * 1e-12) {
    abort_arg(arg, "must be positive definite; the smallest eigenvalue of its correlation matrix is {signif(min(ev), 3)}.",
              i = singular_hint(r, nm, n_rows), call = call)
  }
  invisible(set_node_names(x))
}

# |r_ij| above which two variables count as copies of each other.
DUPLICATE_CORRELATION <- 1 - 1e-10

# `x` on the correlation scale, divided by the standard deviations `sd` one
# factor at a time (see check_covariance()).
correlation_scale <- function(x, sd) x / sd / rep(sd, each = nrow(x))

# Why a covariance is singular: fewer rows than variables, or pairs of variables that are copies of each
# other (up to scale and sign), named; else collinearity in general.
singular_hint <- function(r, nm, n_rows = NULL) {
  if (!is.null(n_rows) && n_rows <= ncol(r)) {
    return(sprintf("The data have %d rows for %d variables: with n <= d the sample covariance is singular. calm(), boss() and estimate_moral_graph() accept such data.",
                   as.integer(n_rows), ncol(r)))
  }
  dup <- duplicated_pairs(r, nm)
  if (!is.null(dup)) return(dup)
  "Collinear variables (one a linear combination of others) make a covariance matrix singular."
}

# The pairs of perfectly correlated variables as a sentence (escaped for
# cli), or NULL when there are none.
duplicated_pairs <- function(r, nm) {
  same <- which(abs(r) > DUPLICATE_CORRELATION & upper.tri(r), arr.ind = TRUE)
  if (nrow(same) == 0L) return(NULL)
  pairs <- paste0(nm[same[, 1]], " and ", nm[same[, 2]])
  txt <- paste0("Duplicated (perfectly correlated) variables: ",
                paste(utils::head(pairs, 5), collapse = "; "),
                if (length(pairs) > 5L) "; ..." else "", ". Drop one of each pair.")
  gsub("}", "}}", gsub("{", "{{", txt, fixed = TRUE), fixed = TRUE)
}

# Data for a learner: finite numeric matrix with >= 2 rows and >= 2 columns,
# no constant columns.
check_data <- function(x, arg = deparse(substitute(x)), call = parent.frame()) {
  x <- check_numeric_matrix(x, arg, min_rows = 2L, min_cols = 2L, call = call)
  # judged on the values, not on the standard deviation, which underflows
  # to zero for data of scale 1e-170
  # (every entry equal to the column's first: in C++ for doubles, where
  # R's comparison took 0.3 s and two d x n temporaries at 5000 variables)
  const <- if (is.double(x)) cpp_constant_columns(x) else colSums(x != rep(x[1L, ], each = nrow(x))) == 0
  if (any(const)) {
    abort_arg(arg, "has constant column{?s} {.val {node_names(x)[const]}}.", call = call)
  }
  colnames(x) <- check_node_names(node_names(x), arg, call)
  invisible(x)
}

# Resolve the (x, cov, n) triple every learner accepts into a covariance
# matrix, the sample size (Inf for a population covariance) and node names.
# `x` is data; `cov` a covariance matrix; `n` the sample size behind `cov`.
#
# `small_n = TRUE` (the learners whose searches only regress a node on a few
# others) accepts a singular sample covariance when n <= d: see
# check_covariance(). `threads`: of the data's covariance (data_cov()).
resolve_covariance <- function(x = NULL, cov = NULL, n = NULL, standardize = FALSE,
                               call = parent.frame(), small_n = FALSE, threads = 1L) {
  if (is.null(x) && is.null(cov)) {
    cli::cli_abort("Supply data as {.arg x} or a covariance matrix as {.arg cov}.",
                   class = c("calm_error_argument", "calm_error"), call = call)
  }
  if (!is.null(x) && !is.null(cov)) {
    cli::cli_abort("Supply either {.arg x} or {.arg cov}, not both.",
                   class = c("calm_error_argument", "calm_error"), call = call)
  }
  if (!is.null(x)) {
    note_logical(x, "x", call = call)
    x <- check_data(x, "x", call = call)
    if (!is.null(n)) {
      abort_arg("n", "is taken from the data; leave it NULL when {.arg x} is given.", call = call)
    }
    n <- nrow(x)
    s <- data_cov(x, threads)
    if (!covariance_representable(s)) {
      check_no_outlier_overflow(x, call)
      s <- rescaled_covariance(x, standardize, call = call)
    }
    s <- check_covariance(s, "x", call = call, n_rows = n,
                          small_n = small_n && n <= ncol(x))
  } else {
    if (is.null(n)) {
      n <- Inf
    } else {
      check_number(n, "n", lower = 2, allow_inf = TRUE, call = call)
    }
    s <- check_covariance(cov, "cov", call = call,
                          small_n = small_n && is.finite(n) && n <= NCOL(cov))
  }
  if (standardize) s <- cov_to_cor(s)
  list(sigma = s, n = n, names = colnames(s), x = x)
}

# stats::cov2cor() of the covariance `s` (square, positive diagonal), the
# same numbers, computed in C++ in one pass (at 5000 variables R's took
# 0.7 s, and three d x d temporaries).
cov_to_cor <- function(s) {
  storage.mode(s) <- "double"
  cpp_cov2cor(s)
}

# The covariance (divisor n) of the data `x`: stats::cov() up to
# DATA_COV_CPP_D columns, calm's own (C++, cpp_data_covariance()) above. The
# two differ in the last bits (about 1e-13 on the seeded fixtures), which
# would change seeded small fits (B_raw) bit for bit; above it stats::cov()
# took 14 s of a fit at d = 2000, n = 4000, calm's own 1 s. `threads`
# share calm's own from 1000 columns up, with the same result for any
# number.
DATA_COV_CPP_D <- 500
data_cov <- function(x, threads = 1L) {
  n <- nrow(x)
  if (ncol(x) <= DATA_COV_CPP_D) return(stats::cov(x) * (n - 1) / n)
  storage.mode(x) <- "double"
  s <- cpp_data_covariance(x, threads)[["cov"]]
  dimnames(s) <- list(colnames(x), colnames(x))
  s
}

# A covariance of data whose scale is extreme (1e160, 1e-170) over- or
# underflows even though the data are finite and the columns vary.
covariance_representable <- function(s) !anyNA(s) && !any_infinite(s) && all(diag(s) > 0)

# any(is.infinite(x)), without its logical copy of x for doubles.
any_infinite <- function(x) if (is.double(x)) cpp_any_infinite(x) else any(is.infinite(x))

# Data whose covariance overflows because of a few entries far out of scale
# with the rest of their column (1e200 among values near 1, a typo or a
# missing-value code) are refused, naming the column: rescaling would let
# them dominate it, and every subsample without them (the folds of the
# penalty's selection) would underflow. Columns that are uniformly of an
# extreme scale (1e160) pass, to be rescaled.
check_no_outlier_overflow <- function(x, call) {
  nm <- node_names(x)
  for (j in seq_len(ncol(x))) {
    a <- abs(x[, j])
    big <- max(a)
    nonzero <- a[a > 0]
    typical <- if (length(nonzero)) stats::median(nonzero) else 0
    if (big > 1e100 * typical) {
      row <- which.max(a)
      abort_arg("x", "has an entry far out of scale in column {.val {nm[j]}}: {signif(x[row, j], 3)} in row {row}, where the column's typical size is {signif(typical, 3)}; its covariance overflows double precision.",
                i = "Check the data for a typing error or a code for a missing value.", call = call)
    }
  }
  invisible(x)
}

# The covariance of data rescaled column by column (by the largest absolute
# value), for callers that go on to the correlation matrix, which the
# rescaling does not change; for others the overflow is the error. Only
# data that need it take this path, so no other result changes.
rescaled_covariance <- function(x, standardize, call, cov_fun = function(z) {
  stats::cov(z) * (nrow(z) - 1) / nrow(z)
}) {
  if (!standardize) {
    abort_arg("x", "has values of a scale (largest {signif(max(abs(x)), 3)}) whose covariance overflows or underflows double precision.",
              i = "Rescale the columns, or use {.code standardize = TRUE}.", call = call)
  }
  scale <- apply(abs(x), 2L, max)
  cov_fun(x / rep(scale, each = nrow(x)))
}

# match.arg() with an error that names the argument (match.arg()'s own error
# says only "'arg' should be one of ...").
match_choice <- function(x, choices, arg, call) {
  if (identical(x, choices)) return(choices[1L])
  if (!is.character(x) || length(x) != 1L || is.na(x)) {
    abort_arg(arg, "must be one of {.val {choices}}, not {.obj_type_friendly {x}}.", call = call)
  }
  hit <- pmatch(x, choices)
  if (is.na(hit)) {
    abort_arg(arg, "must be one of {.val {choices}}, not {.val {x}}.", call = call)
  }
  choices[hit]
}

# A fit (class `calm_fit`) that every method taking a fit can rely on: a
# user may have edited or truncated one. Checks the fields the methods read
# (`amat` and `cpdag_amat`: square 0/1-style matrices of the same size;
# `B`, `B_raw` when present: that size too; `method` and `n`), and stops
# naming the argument and the field. Returns the fit invisibly.
check_fit_object <- function(x, arg = deparse(substitute(x)), call = parent.frame()) {
  bad <- function(what) {
    abort_arg(arg, paste("is not a valid fit:", what),
              i = "Was it edited? Refit, or pass the graph itself (e.g. {.code {arg}$amat}).",
              call = call)
  }
  if (!is.list(x)) bad("it is not a list.")
  for (f in c("amat", "cpdag_amat")) {
    m <- x[[f]]
    if (!is.matrix(m) || !is.numeric(m) || nrow(m) != ncol(m) || nrow(m) == 0L || anyNA(m)) {
      bad(sprintf("its `%s` is missing or not a square numeric matrix without NA.", f))
    }
  }
  d <- nrow(x[["amat"]])
  for (f in c("cpdag_amat", "B", "B_raw")) {
    m <- x[[f]]
    if (!is.null(m) && (!is.matrix(m) || !identical(dim(m), c(d, d)))) {
      bad(sprintf("its `%s` is not a %d x %d matrix like its `amat`.", f, d, d))
    }
  }
  if (!is.character(x[["method"]]) || length(x[["method"]]) != 1L || is.na(x[["method"]])) {
    bad("its `method` is missing or not a single string.")
  }
  if (!is.numeric(x[["n"]]) || length(x[["n"]]) != 1L || is.na(x[["n"]])) {
    bad("its `n` is missing or not a single number.")
  }
  invisible(x)
}

# Node names of data or a covariance: none may be missing or empty, and
# none repeated (a learner's graph would name two nodes alike).
check_node_names <- function(nm, arg, call) {
  bad <- as.character(which(is.na(nm) | nm == ""))
  if (length(bad)) {
    abort_arg(arg, "has column{?s} {bad} with {?a /}missing or empty name{?s}; every variable needs a name.",
              i = "Name the columns, or remove the names ({.code colnames(x) <- NULL}) to get X1, X2, ...",
              call = call)
  }
  if (anyDuplicated(nm)) {
    abort_arg(arg, "must have distinct variable names; {.val {unique(nm[duplicated(nm)])}} {?is/are} repeated.",
              call = call)
  }
  invisible(nm)
}

# A column with no value at all is the problem to name first: R reads an
# all-NA column as logical, and dropping incomplete rows would leave none.
check_no_empty_column <- function(x, arg, call) {
  if (!(is.data.frame(x) || is.matrix(x)) || nrow(x) == 0L) return(invisible(x))
  empty <- if (is.data.frame(x)) vapply(x, function(col) all(is.na(col)), logical(1)) else
    if (is.double(x)) cpp_empty_columns(x) else colSums(!is.na(x)) == 0
  if (any(empty)) {
    nm <- if (is.null(colnames(x))) paste0("X", which(empty)) else colnames(x)[empty]
    abort_arg(arg, "has {cli::qty(length(nm))}column{?s} {.val {nm}} with only missing values (NA).",
              i = "Remove such columns: they hold nothing to learn from.", call = call)
  }
  invisible(x)
}

# Logical data columns are used as 0/1 numbers; say so once per call. An
# all-NA column (logical to R) is an error before that.
note_logical <- function(x, arg, call = parent.frame()) {
  check_no_empty_column(x, arg, call)
  lg <- if (is.data.frame(x)) vapply(x, is.logical, logical(1)) else if (is.logical(x)) rep(TRUE, NCOL(x)) else FALSE
  if (any(lg)) {
    nm <- if (is.null(colnames(x))) paste0("X", which(lg)) else colnames(x)[lg]
    cli::cli_inform(c(i = "{.arg {arg}}: {cli::qty(length(nm))}logical column{?s} {.val {nm}} {?is/are} used as 0/1 numbers (FALSE = 0, TRUE = 1)."),
                    class = "calm_message_logical")
  }
  invisible(x)
}

check_dots_empty <- function(..., fn, call = parent.frame()) {
  dots <- list(...)
  if (length(dots) > 0L) {
    nm <- names(dots)
    nm <- if (is.null(nm)) rep("", length(dots)) else nm
    shown <- ifelse(nm == "", "(unnamed)", nm)
    cli::cli_abort(c("Unknown {cli::qty(length(shown))}argument{?s}: {.arg {shown}}.",
                     i = "See {.fn {fn}} for the valid arguments."),
                   class = c("calm_error_argument", "calm_error"), call = call)
  }
  invisible(TRUE)
}
