# Missing values and logical columns in data: complete cases on request,
# and a word about what is done with logical columns.

# `x` with only its complete rows when na = "complete" (with a message on
# how many were dropped, kept in attr(, "na_dropped")); unchanged otherwise.
complete_rows <- function(x, na, call) {
  if (is.null(x) || na != "complete" || !(is.data.frame(x) || is.matrix(x))) return(x)
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

# Logical data columns are used as 0/1 numbers; say so once per call.
note_logical <- function(x, arg) {
  lg <- if (is.data.frame(x)) vapply(x, is.logical, logical(1)) else if (is.logical(x)) rep(TRUE, NCOL(x)) else FALSE
  if (any(lg)) {
    nm <- if (is.null(colnames(x))) paste0("X", which(lg)) else colnames(x)[lg]
    cli::cli_inform(c(i = "{.arg {arg}}: {cli::qty(length(nm))}logical column{?s} {.val {nm}} {?is/are} used as 0/1 numbers (FALSE = 0, TRUE = 1)."),
                    class = "calm_message_logical")
  }
  invisible(x)
}
