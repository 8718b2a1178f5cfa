# GOLEM-NV-l1 and NOTEARS on 50-node ER1 graphs with infinite samples
# (population covariance), standardized and not: the baseline side of the
# paper's Table 4 (GOLEM-NV-l1: SHD 56.2 +/- 3.5 standardized, 121.1 +/- 6.1
# not) and NOTEARS in the same setting (the paper reports NOTEARS only with
# samples: 46.6 +/- 1.9 at n = 10^6, standardized, Table 5).
#
#   Rscript baselines_inf.R [--quick] [--reps=R] [--methods=a,b] [--workers=W] [--outdir=DIR]
#
# Results go to <outdir>/baselines_inf.rds (see common.R).
library(calm)
source(system.file("bench", "paper", "common.R", package = "calm", mustWork = TRUE))
opts <- script_options()

settings <- data.frame(d = 50, k = 1, n = Inf, standardized = c(TRUE, FALSE))
run_benchmark_table("baselines_inf", c("golem_nv", "notears"), settings, moral = "default", opts)
