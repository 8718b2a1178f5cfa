# calm()'s first stage: its arguments checked, the covariance, the
# knowledge, the moral graph and the mask, with the memory guard.

# Checks calm()'s arguments (errors name them, as calm()'s `call`) and
# builds what the later stages need: the control, the covariance, the
# knowledge, the moral graph and its mask with the knowledge, and the
# restarts' seeds, in this order (the seeds come last from R's random
# numbers, after the moral graph).
calm_prepare <- function(x, cov, n, standardize, moral, gate, constraint, score, refine, control,
                         restarts, verbose, dots, alpha, knowledge, na, seed, call,
                         phase = no_phase) {
  if (identical(na, "omit")) na <- "complete"
  na <- match_choice(na, c("fail", "complete"), "na", call = call)
  x <- complete_rows(x, na, call = call)
  d0 <- if (!is.null(x)) NCOL(x) else if (!is.null(cov)) NCOL(cov) else NA
  alpha <- moral_alpha(alpha, d0, call = call)
  check_flag(standardize, "standardize", call = call)
  gate <- match_choice(gate, c("gumbel", "stg", "tanh"), "gate", call = call)
  constraint <- match_choice(constraint, c("hard", "soft"), "constraint", call = call)
  score <- match_choice(score, c("likelihood", "colide"), "score", call = call)
  if (inherits(refine, "calm_search_control")) {
    dots$search <- refine
    refine <- "ges"
  }
  refine <- match_choice(refine, c("ges", "none"), "refine", call = call)
  restarts <- check_count(restarts, "restarts", min = 1, max = 1e6, call = call)
  check_flag(verbose, "verbose", call = call)
  knowledge <- bnlearn_lists(dots, knowledge, call = call)
  if (!is.null(names(dots))) dots <- dots[!names(dots) %in% c("whitelist", "blacklist")]
  ctrl <- schedule_for_refine(resolve_control(control, dots, call = call), refine)
  seed <- check_seeds(seed, restarts, call = call)
  # the memory guard, before anything of size d x d is allocated
  n0 <- if (!is.null(x)) NROW(x) else if (is.numeric(n) && length(n) == 1L) n else Inf
  check_fit_memory(d0, if (!is.null(x)) NROW(x) else 0, moral = moral, refine = refine,
                   ctrl = ctrl, kernel = !isTRUE(continuous_skip(ctrl, refine, n0, d0)),
                   call = call)
  phase("covariance")
  t0 <- proc.time()[["elapsed"]]
  cv <- resolve_covariance(x, cov, n, standardize, call = call, small_n = TRUE,
                           threads = moral_threads(ctrl, d0))
  release_memory(ncol(cv[["sigma"]]))
  t1 <- proc.time()[["elapsed"]]
  sigma <- cv[["sigma"]]
  kn <- resolve_knowledge(knowledge, colnames(sigma), call = call)
  if (!is.null(kn) && gate == "tanh" && any(kn[["required"]] != 0)) {
    abort_arg("knowledge", "has required edges, which need a gate: use {.code gate = \"gumbel\"} or {.code \"stg\"}.",
              call = call)
  }
  phase("moral graph")
  mo <- resolve_moral(moral, sigma, cv[["n"]], call = call, alpha = alpha, knowledge = kn,
                      correlation = standardize, threads = moral_threads(ctrl, ncol(sigma)))
  release_memory(ncol(sigma))
  t2 <- proc.time()[["elapsed"]]
  mask <- knowledge_mask(mo[["mask"]], kn)
  cut <- continuous_cut(ctrl, refine, cv[["n"]], ncol(sigma))
  if (cut) ctrl <- cut_control(ctrl)
  skip <- continuous_skip(ctrl, refine, cv[["n"]], ncol(sigma))
  # again, now that the free entries and components are known
  check_fit_memory(ncol(sigma), mask = mask, refine = refine, ctrl = ctrl, kernel = !skip,
                   call = call)
  seeds <- if (is.null(seed)) sample.int(.Machine$integer.max, restarts) else seed
  list(x = x, cov = cov, x_used = cv[["x"]], n = cv[["n"]], sigma = sigma, standardize = standardize,
       gate = gate, constraint = constraint, score = score, refine = refine, ctrl = ctrl,
       restarts = restarts, seeds = seeds, alpha = alpha, na = na, kn = kn, mo = mo, mask = mask,
       cut = cut, skip = skip, seconds = c(covariance = t1 - t0, moral = t2 - t1))
}

# The threads of the covariance, IAMB's targets and the two-step pairs in
# calm(): calm_control(threads) above search_control(all_pairs_max_d)
# variables, as the refinement's searches (search_threads()); each result is
# the same for any number.
moral_threads <- function(ctrl, d) {
  if (is.null(ctrl$threads) || is.na(d) || d <= ctrl$search$all_pairs_max_d) return(1L)
  as.integer(ctrl$threads)
}

# calm(alpha): a level in (0, 1), or "auto", 0.01 up to MORAL_ALPHA_D
# variables and MORAL_ALPHA_D / 100 / d above (see ?calm, `alpha`).
MORAL_ALPHA_D <- 500
moral_alpha <- function(alpha, d, call) {
  if (identical(alpha, "auto")) {
    return(if (is.na(d) || d <= MORAL_ALPHA_D) 0.01 else 0.01 * MORAL_ALPHA_D / d)
  }
  check_number(alpha, "alpha", lower = 0, upper = 1, lower_open = TRUE, upper_open = TRUE,
               call = call)
}

# bnlearn's `whitelist` and `blacklist`, given to calm() through `...`, as
# background knowledge (required and forbidden edges), with a word on the
# translation; an error when `knowledge` is given as well.
bnlearn_lists <- function(dots, knowledge, call) {
  lists <- intersect(names(dots), c("whitelist", "blacklist"))
  if (length(lists) == 0L) return(knowledge)
  if (!is.null(knowledge)) {
    abort_arg(lists[1], "and {.arg knowledge} are both given: put the edges in {.code knowledge = background_knowledge(required = , forbidden = )}.",
              call = call)
  }
  cli::cli_inform(c(i = "Read bnlearn's {.arg {lists}} as {.code knowledge = background_knowledge(required = whitelist, forbidden = blacklist)}."),
                  class = "calm_message_knowledge")
  tryCatch(background_knowledge(required = dots[["whitelist"]], forbidden = dots[["blacklist"]]),
           calm_error_argument = function(e) {
             abort_arg(lists[1], "is not a valid edge list: {conditionMessage(e)}", call = call)
           })
}

# The seed argument of calm(): NULL, or one whole number in
# [0, .Machine$integer.max] per restart; returned as an integer vector.
check_seeds <- function(seed, restarts, call = parent.frame()) {
  if (is.null(seed)) return(NULL)
  imax <- .Machine$integer.max
  if (!is.numeric(seed) || length(seed) != restarts || anyNA(seed) || any(seed != round(seed)) ||
      any(seed < 0) || any(seed > imax)) {
    abort_arg("seed", "must be NULL or {restarts} whole number{?s} between 0 and {imax} (one per restart).",
              call = call)
  }
  as.integer(seed)
}
