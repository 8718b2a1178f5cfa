# Paper Table 2: moral graph and soft / hard acyclicity constraint, 50-node ER1 graphs, infinite samples, standardized data.
#
#   Rscript table2.R [--quick] [--reps=R] [--methods=a,b] [--workers=W] [--outdir=DIR]
#
# Full size by default (the paper's graphs, 10 replicates); --quick (or
# CALM_QUICK=1) runs a small version in a minute or so. Results go to
# <outdir>/table2.rds (see common.R). The true moral graph is used, as the paper does with infinite samples.
library(calm)
source(system.file("bench", "paper", "common.R", package = "calm", mustWork = TRUE))
opts <- script_options()

settings <- data.frame(d = 50, k = 1, n = Inf, standardized = TRUE)
run_benchmark_table("table2", c("calm_soft_nomoral", "calm_soft", "calm_nomoral", "calm",
                               "calm_paper_soft_nomoral", "calm_paper_soft",
                               "calm_paper_nomoral", "calm_paper"),
                    settings, moral = "true", opts)
