# Paper Table 6: l0 approximations and GOLEM-NV-l1 on 50-node ER4 and 100-node ER1 graphs, infinite samples, standardized and not.
#
#   Rscript table6.R [--quick] [--reps=R] [--methods=a,b] [--workers=W] [--outdir=DIR]
#
# Full size by default (the paper's graphs, 10 replicates); --quick (or
# CALM_QUICK=1) runs a small version in a minute or so. Results go to
# <outdir>/table6.rds (see common.R). The true moral graph is used.
library(calm)
source(system.file("bench", "paper", "common.R", package = "calm", mustWork = TRUE))
opts <- script_options()

settings <- data.frame(d = c(50, 50, 100, 100), k = c(4, 4, 1, 1), n = Inf,
                       standardized = c(TRUE, FALSE, TRUE, FALSE))
run_benchmark_table("table6", c("calm", "calm_stg", "calm_tanh", "golem_nv", "golem_nv_ev", "calm_paper",
                               "calm_paper_stg", "calm_paper_tanh"), settings,
                    moral = "true", opts)
