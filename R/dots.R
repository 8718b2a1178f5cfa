# Arguments passed on through `...` to a learner or to base R. Above
# R/utils-checks.R (which must call nothing of the package's upper layers)
# because it knows the names calm() reads from its `...` (calm_control()).

# Arguments passed on through `...` to `fn`: each must be named and be one
# `fn` takes, so that a misspelt argument is an error naming it rather than
# silently unused. A function with its own `...` takes any name, unless the
# names it reads from there are known (calm()'s control parameters); the
# package's other learners check their `...` themselves.
check_dots_for <- function(dots, fn, fn_name, call) {
  if (!length(dots)) return(invisible(TRUE))
  nm <- names(dots) %||% rep("", length(dots))
  if (any(nm == "")) {
    cli::cli_abort("Arguments in {.arg ...} must be named: they are passed on to {.fn {fn_name}}.",
                   class = c("calm_error_argument", "calm_error"), call = call)
  }
  formal <- names(formals(fn))
  extra <- dots_accepted(fn)
  if ("..." %in% formal && is.null(extra)) return(invisible(TRUE))
  unknown <- setdiff(nm, c(setdiff(formal, "..."), extra))
  if (length(unknown)) {
    cli::cli_abort(c("{.arg {unknown}} {?is not an argument/are not arguments} of {.fn {fn_name}}.",
                     i = "Check the spelling; see {.fn {fn_name}} for its arguments."),
                   class = c("calm_error_argument", "calm_error"), call = call)
  }
  invisible(TRUE)
}

# What calm() reads from its `...` besides its formals, and the former
# argument names boss() and exact_search() still take there (deprecated).
dots_accepted <- function(fn) {
  if (identical(fn, calm)) return(c(names(calm_control()), "whitelist", "blacklist"))
  if (identical(fn, boss)) return(c("lambda1", names(boss_old_settings)))
  if (identical(fn, exact_search)) return("lambda1")
  NULL
}
