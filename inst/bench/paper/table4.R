# Paper Table 4: l0 approximations (Gumbel-softmax, STG, tanh) and GOLEM-NV-l1, 50-node ER1 graphs, infinite samples, standardized and not.
#
#   Rscript table4.R [--quick] [--reps=R] [--methods=a,b] [--workers=W] [--outdir=DIR]
#
# Full size by default (the paper's graphs, 10 replicates); --quick (or
# CALM_QUICK=1) runs a small version in a minute or so. Results go to
# <outdir>/table4.rds (see common.R). The true moral graph is used.
library(calm)
source(system.file("bench", "paper", "common.R", package = "calm", mustWork = TRUE))
opts <- script_options()

settings <- data.frame(d = 50, k = 1, n = Inf, standardized = c(TRUE, FALSE))
run_benchmark_table("table4", c("calm", "calm_stg", "calm_tanh", "golem_nv", "golem_nv_ev", "calm_paper",
                               "calm_paper_stg", "calm_paper_tanh"), settings,
                    moral = "true", opts)
