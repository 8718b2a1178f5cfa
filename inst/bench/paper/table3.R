# Paper Table 3: CALM with and without data standardization, 50-node ER1 graphs, infinite samples.
#
#   Rscript table3.R [--quick] [--reps=R] [--methods=a,b] [--workers=W] [--outdir=DIR]
#
# Full size by default (the paper's graphs, 10 replicates); --quick (or
# CALM_QUICK=1) runs a small version in a minute or so. Results go to
# <outdir>/table3.rds (see common.R). The true moral graph is used.
library(calm)
source(system.file("bench", "paper", "common.R", package = "calm", mustWork = TRUE))
opts <- script_options()

settings <- data.frame(d = 50, k = 1, n = Inf, standardized = c(FALSE, TRUE))
run_benchmark_table("table3", c("calm", "calm_paper"), settings, moral = "true", opts)
