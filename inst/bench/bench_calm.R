# Speed of the CALM optimizer, single thread.
#
# For d = 20, 50, 100, ER1 and ER4 graphs, with the true moral graph as mask
# and without a mask (all edges allowed), prints
#   * the time of one optimizer step (noise, objective, gradient, Adam),
#     wall clock and CPU, for the kernel build in use and for the baseline
#     build, and the speed-up over a PyTorch float64 implementation of the
#     same step (0.24 / 0.44 / 1.56 ms per step at d = 20 / 50 / 100);
#   * the wall time, rounds, Adam steps and SHD of a fit with the paper's
#     schedule (rounds of 40,000 steps until h < 1e-8, early_stop = FALSE)
#     and of a default fit (early_stop = TRUE: rounds end early once they
#     stop making progress, and the schedule ends once the learned graph has
#     settled), and how many times faster each is than
#     PyTorch would be on the paper's schedule for the same problem (the
#     paper-schedule fit's steps times PyTorch's time per step).
#
# Usage: Rscript inst/bench/bench_calm.R [steps | full] [d]
#   steps  per-step times only (20 seconds)
#   full   (default) also the 24 fits (about 70 minutes, most of it the
#          paper-schedule fits at d = 100)
#   d      only these numbers of nodes, comma-separated (default 20,50,100)
# The machine should be otherwise idle: wall times include time lost to
# other processes, CPU times do not.

suppressPackageStartupMessages(library(calm))
source(system.file("bench", "bench_args.R", package = "calm", mustWork = TRUE))
a <- bench_args(list(mode = "full", d = "20,50,100"),
                usage = "Rscript inst/bench/bench_calm.R [steps|full] [d,...]")
mode <- a$mode
stopifnot(mode %in% c("steps", "full"))
ds <- as.numeric(bench_list(a$d))
stopifnot(all(ds %in% c(20, 50, 100)))

pytorch_ms <- c(`20` = 0.24, `50` = 0.44, `100` = 1.56)
target_ms <- c(`20` = 0.020, `50` = 0.110, `100` = 0.8)

step_time <- function(sigma, mask, simd, steps) {
  ctrl <- unclass(calm_control(simd = simd))
  st <- system.time(
    wall <- calm:::cpp_calm_step_time(sigma, mask, ctrl, "gumbel", "likelihood", 1, steps)
  )
  c(wall = wall, cpu = (st[["user.self"]] + st[["sys.self"]]) / steps)
}

rows <- list()
for (d in ds) {
  for (k in c(1, 4)) {
    set.seed(100 * d + k)
    sem <- simulate_sem(d, k = k)
    sigma <- stats::cov2cor(sem$sigma)
    masks <- list(moral = moral_graph(sem$dag, output = "matrix"),
                  none = matrix(1, d, d) - diag(d))
    for (mask_name in names(masks)) {
      mask <- masks[[mask_name]]
      steps <- round(2e5 / d)
      fast <- step_time(sigma, mask, TRUE, steps)
      base <- step_time(sigma, mask, FALSE, steps)
      row <- data.frame(
        d = d, graph = paste0("ER", k), mask = mask_name, free = sum(mask),
        step_ms = fast[["wall"]] * 1e3, step_cpu_ms = fast[["cpu"]] * 1e3,
        baseline_ms = base[["wall"]] * 1e3, target_ms = target_ms[[as.character(d)]],
        speedup_vs_pytorch = pytorch_ms[[as.character(d)]] / (fast[["wall"]] * 1e3),
        paper_s = NA_real_, paper_rounds = NA_integer_, paper_steps = NA_real_,
        paper_shd = NA_integer_, default_s = NA_real_, default_rounds = NA_integer_,
        default_steps = NA_real_, default_shd = NA_integer_,
        paper_vs_pytorch = NA_real_, default_vs_pytorch = NA_real_
      )
      if (mode == "full") {
        for (es in c(FALSE, TRUE)) {
          set.seed(1)
          fit <- suppressWarnings(calm(cov = sem$sigma, moral = mask, early_stop = es,
                                       verbose = FALSE))
          pre <- if (es) "default_" else "paper_"
          row[[paste0(pre, "s")]] <- fit$time
          row[[paste0(pre, "rounds")]] <- max(fit$trace$round)
          row[[paste0(pre, "steps")]] <- sum(fit$trace$steps)
          row[[paste0(pre, "shd")]] <- compare_graphs(fit, sem$B)$shd
        }
        pytorch_s <- row$paper_steps * pytorch_ms[[as.character(d)]] / 1000
        row$paper_vs_pytorch <- pytorch_s / row$paper_s
        row$default_vs_pytorch <- pytorch_s / row$default_s
      }
      rows[[length(rows) + 1L]] <- row
      r <- row
      cat(sprintf(paste0("d = %3d %s %-5s: step %.3f ms (cpu %.3f, baseline build %.3f; ",
                         "target %.3f; %.1fx PyTorch)%s\n"),
                  r$d, r$graph, r$mask, r$step_ms, r$step_cpu_ms, r$baseline_ms,
                  r$target_ms, r$speedup_vs_pytorch,
                  if (mode == "full") {
                    sprintf(paste0("\n    paper schedule %.1f s, %d rounds, SHD %d (%.0fx PyTorch);",
                                   " default %.1f s, %d rounds, SHD %d (%.0fx PyTorch)"),
                            r$paper_s, r$paper_rounds, r$paper_shd, r$paper_vs_pytorch,
                            r$default_s, r$default_rounds, r$default_shd,
                            r$default_vs_pytorch)
                  } else ""))
    }
  }
}
res <- do.call(rbind, rows)
isa <- if (calm:::cpp_calm_simd_available()) "avx2" else "generic"
cat("\nkernel build in use:", isa, "| R", R.version$major, ".", R.version$minor,
    "|", format(Sys.time(), "%Y-%m-%d %H:%M"), "\n\n")
num <- vapply(res, is.double, logical(1))
res[num] <- lapply(res[num], signif, 3)
print(res, row.names = FALSE)
