# What a fit records of the learner that made it (its name and settings),
# so that bootstrap effects refit each replicate as the fit was learned.

# The learner's arguments as given, captured when it starts (before any of
# them is overwritten by its checked or chosen value), without the data and
# what only says how to run (`verbose`, `seed`: each replicate draws its own
# seeds). `env` is
# the learner's environment; arguments in its `...` are kept too.
learner_record <- function(name, env) {
  fn <- get(name, envir = asNamespace("calm"), mode = "function")
  formal <- names(formals(fn))
  keep <- setdiff(formal, c("x", "cov", "n", "verbose", "seed", "..."))
  args <- mget(keep, envir = env)
  if ("..." %in% formal) args <- c(args, eval(quote(list(...)), env))
  list(name = name, args = args)
}

# The learner function and its arguments for bootstrap replicates of `fit`:
# the fit's own learner with its recorded settings, the user's arguments
# (`dots`) over them. A `learner` other than the fit's gets the user's
# arguments and, when it takes `knowledge` and the user gave none, the
# fit's knowledge: a replicate never silently drops what the fit was told.
replicate_learner <- function(fit, learner, dots, call) {
  rec <- if (inherits(fit, "calm_fit")) fit[["learner"]] else NULL
  name <- rec[["name"]] %||% (if (inherits(fit, "calm_fit")) fit[["method"]] else NULL)
  own <- if (!is.null(name) && name %in% c("calm", "boss", "exact_search", "exact")) {
    get(if (identical(name, "exact")) "exact_search" else name, envir = asNamespace("calm"))
  }
  if (is.null(learner)) learner <- own %||% calm
  if (!is.function(learner)) {
    abort_arg("learner", "must be a function that learns a graph from data, such as {.fn calm}, not {.obj_type_friendly {learner}}.",
              call = call)
  }
  same <- !is.null(own) && identical(learner, own)
  args <- if (same && !is.null(rec)) rec[["args"]] else list()
  kn <- if (inherits(fit, "calm_fit")) fit[["knowledge"]] else NULL
  if (is.null(args[["knowledge"]]) && !is.null(kn) && "knowledge" %in% names(formals(learner))) {
    args["knowledge"] <- list(kn)
  }
  check_dots_for(dots, learner, learner_name(learner), call)
  # a NULL given by the user stays, as NULL
  args[names(dots)] <- dots
  list(learner = learner, args = args)
}

# The name of one of the package's learners, for messages; "learner" for
# any other function.
learner_name <- function(fn) {
  ns <- asNamespace("calm")
  for (nm in c("calm", "boss", "exact_search", "golem_nv", "notears_linear", "pc_pcalg",
               "ges_pcalg")) {
    if (identical(fn, get(nm, envir = ns))) return(nm)
  }
  "learner"
}
