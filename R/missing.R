# Missing values in data: complete cases on request. (The word about logical
# columns, note_logical(), sits with the data checks in R/utils-checks.R,
# which resolve_covariance() calls.)

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
