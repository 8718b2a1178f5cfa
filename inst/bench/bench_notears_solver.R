# NOTEARS's L-BFGS-B subproblems on non-standardized 50-node ER4 (or ER1)
# data (the graphs and data of inst/bench/paper/table7.R setting 3, or setting 1,
# benchmark_methods() seed 2025): calm's notears_linear() with each of its
# two solvers (notears_control(solver = "lbfgspp"), the C++ LBFGSpp
# library's L-BFGS-B, and solver = "optim", R's lbfgsb(), L-BFGS-B 2.3)
# against the authors' reference code (SciPy's L-BFGS-B 3.0) on the same
# data.
#
#   Rscript inst/bench/bench_notears_solver.R out.rds [reps] [notears_dir] [k] [solvers]
#
# k: 4 (ER4, default) or 1 (ER1); solvers: comma-separated, from lbfgspp
# and optim (default both); reps: comma-separated replicate numbers
# (default 1,2,3); notears_dir: a folder holding the reference code's
# linear.py (from the xunzheng/notears repository), run with the python3 on
# the PATH, which needs numpy and scipy; '' or no folder: calm's side only.
# For each graph and solver the script prints the final loss plus l1 term
# (l1_weight = 0.1) of the unthresholded solution, h(W), the subproblems
# stopped at the iteration cap, and the SHD of CPDAG after the paper's
# threshold 0.1 and acyclic post-processing. With solver optim it also
# prints the first subproblem (rho = 1, alpha = 0, from W = 0) solved by
# R's L-BFGS-B through optim() with the iteration cap that
# notears_control() uses.
suppressPackageStartupMessages(library(calm))
source(system.file("bench", "bench_args.R", package = "calm", mustWork = TRUE))
a <- bench_args(list(out = NA_character_, reps = "1,2,3", notears_dir = "", k = 4, solvers = "lbfgspp,optim"),
                usage = "Rscript inst/bench/bench_notears_solver.R out.rds [reps] [notears_dir] [k] [solvers]")
out <- a$out
reps <- as.integer(bench_list(a$reps))
notears_dir <- if (nzchar(a$notears_dir)) normalizePath(a$notears_dir) else NULL
k <- a$k
if (!k %in% c(1, 4)) stop("k must be 1 or 4")
solvers <- bench_list(a$solvers)
if (!all(solvers %in% c("lbfgspp", "optim"))) stop("solvers must be lbfgspp and/or optim")

setting <- calm:::settings_arg(data.frame(n = 1000, d = 50, k = k, standardized = FALSE))
l1_weight <- 0.1
penalised_loss <- function(W, S) {
  M <- diag(nrow(S)) - W
  0.5 * sum(M * (S %*% M)) + l1_weight * sum(abs(W))
}
# the post-processing notears_linear() applies to its own weights
shd_after_threshold <- function(W, B) {
  compare_graphs(calm:::threshold_acyclic(W, 0.1)$B != 0, B)$shd
}
first_subproblem <- function(S) {
  d <- nrow(S)
  f <- function(w) calm:::cpp_notears_objective(S, w, l1_weight, 1, 0)
  upper <- rep(Inf, 2 * d * d)
  upper[c(seq(1, d * d, by = d + 1), d * d + seq(1, d * d, by = d + 1))] <- 0
  ctl <- notears_control()
  op <- stats::optim(numeric(2 * d * d), function(w) f(w)$objective, function(w) f(w)$gradient,
                     method = "L-BFGS-B", lower = 0, upper = upper,
                     control = list(maxit = ctl$lbfgsb_max_iter, factr = ctl$lbfgsb_factr,
                                    pgtol = ctl$lbfgsb_pgtol, lmm = ctl$lbfgsb_memory))
  c(objective = op$value, iterations = op$counts[["function"]])
}

driver <- file.path(tempdir(), "notears_reference.py")
writeLines(c(
  "import sys, numpy as np",
  "sys.path.insert(0, sys.argv[1])",
  "from linear import notears_linear",
  "X = np.loadtxt(sys.argv[2], delimiter=',')",
  "W = notears_linear(X, lambda1=0.1, loss_type='l2', w_threshold=0.0)",
  "np.savetxt(sys.argv[3], W, delimiter=',')"), driver)

rows <- list()
for (rep in reps) {
  seed <- calm:::benchmark_seed(2025, setting[1, ], rep)
  calm:::with_local_seed(seed, {
    sem <- simulate_sem(setting$d, k = setting$k, n = Inf, edges = setting$edges)
    S <- stats::rWishart(1L, setting$n - 1, sem$sigma)[, , 1L] / setting$n
  })
  row <- data.frame(rep = rep)
  for (solver in solvers) {
    t0 <- proc.time()[["elapsed"]]
    fit <- suppressWarnings(notears_linear(cov = S, n = setting$n, standardize = FALSE,
                                           solver = solver))
    row[[paste0(solver, "_shd")]] <- compare_graphs(fit, sem$B)$shd
    row[[paste0(solver, "_objective")]] <- penalised_loss(fit$W_unthresholded, S)
    row[[paste0(solver, "_h")]] <- fit$h
    row[[paste0(solver, "_at_limit")]] <- fit$subproblems_at_limit
    row[[paste0(solver, "_seconds")]] <- proc.time()[["elapsed"]] - t0
  }
  if ("optim" %in% solvers) {
    sub <- first_subproblem(S)
    row$optim_first_objective <- sub[["objective"]]
    row$optim_first_iterations <- sub[["iterations"]]
  }
  if (!is.null(notears_dir)) {
    # data whose centred cross-product is exactly S, for the reference code
    z <- scale(matrix(stats::rnorm(setting$n * setting$d), setting$n), scale = FALSE)
    X <- sqrt(setting$n) * qr.Q(qr(z)) %*% chol(S)
    xfile <- tempfile(fileext = ".csv")
    wfile <- tempfile(fileext = ".csv")
    utils::write.table(X, xfile, sep = ",", row.names = FALSE, col.names = FALSE)
    t0 <- proc.time()[["elapsed"]]
    status <- system2("python3", c(driver, notears_dir, xfile, wfile))
    if (status != 0) stop("the reference code failed on replicate ", rep)
    W <- unname(as.matrix(utils::read.csv(wfile, header = FALSE)))
    row$reference_shd <- shd_after_threshold(W, sem$B)
    row$reference_objective <- penalised_loss(W, S)
    row$reference_seconds <- proc.time()[["elapsed"]] - t0
  }
  print(row)
  rows[[length(rows) + 1L]] <- row
}
res <- do.call(rbind, rows)
attr(res, "info") <- list(date = format(Sys.time(), tz = "UTC", usetz = TRUE),
                          R = R.version.string,
                          command = paste("Rscript inst/bench/bench_notears_solver.R out.rds",
                                          paste(reps, collapse = ","),
                                          if (!is.null(notears_dir)) "NOTEARS_DIR" else "''", k,
                                          paste(solvers, collapse = ",")))
bench_save(res, out)
num <- vapply(res, is.numeric, logical(1))
mean_se <- function(v) sprintf("%.1f +/- %.1f", mean(v), stats::sd(v) / sqrt(length(v)))
print(vapply(res[num & names(res) != "rep"], mean_se, ""))
