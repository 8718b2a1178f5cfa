# Missing values and logical columns in data: complete cases on request,
# and a word about what is done with logical columns.

# `x` with only its complete rows when na = "complete" (with a message on
# how many were dropped, kept in attr(, "na_dropped")); unchanged otherwise.
complete_rows <- function(x, na, call) {
  if (is.null(x) || na != "complete" || !(is.data.frame(x) || is.matrix(x))) return(x)
  check_no_empty_column(x, "x", call)
  keep <- stats::complete.cases(x)
  dropped <- sum(!keep)
  if (dropped > 0L) {
    x <- x[keep, , drop = FALSE]
    cli::cli_inform(c(i = "Dropped {dropped} row{?s} with missing values ({sum(keep)} complete row{?s} left)."),
                    class = "calm_message_na")
  }
  attr(x, "na_dropped") <- dropped
  x
}

# A column with no value at all is the problem to name first: R reads an
# all-NA column as logical, and dropping incomplete rows would leave none.
check_no_empty_column <- function(x, arg, call) {
  if (!(is.data.frame(x) || is.matrix(x)) || nrow(x) == 0L) return(invisible(x))
  empty <- if (is.data.frame(x)) vapply(x, function(col) all(is.na(col)), logical(1)) else
    colSums(!is.na(x)) == 0
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
