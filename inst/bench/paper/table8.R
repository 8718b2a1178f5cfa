# Paper Table 8 (appendix): CALM's likelihood score against the CoLiDE-NV score with the same l0 gates, hard constraint and moral graph; 50-node ER1 and ER4, 100-node ER1 graphs, infinite samples, standardized and not.
#
#   Rscript table8.R [--quick] [--reps=R] [--methods=a,b] [--workers=W] [--outdir=DIR]
#
# Full size by default (the paper's graphs, 10 replicates); --quick (or
# CALM_QUICK=1) runs a small version in a minute or so. Results go to
# <outdir>/table8.rds (see common.R). The true moral graph is used.
library(calm)
source(system.file("bench", "paper", "common.R", package = "calm", mustWork = TRUE))
opts <- script_options()

settings <- expand.grid(standardized = c(FALSE, TRUE), d = c(50, 50, 100), KEEP.OUT.ATTRS = FALSE)
settings$k <- rep(c(1, 4, 1), each = 2)
settings$n <- Inf
run_benchmark_table("table8", c("calm", "calm_colide", "calm_paper", "calm_paper_colide"), settings,
                    moral = "true", opts)
