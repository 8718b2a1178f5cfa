# Paper Table 5: CALM (as in the paper, and calm's default with its refinement) against BOSS, GOLEM-NV-l1, NOTEARS, PC and GES at penalty discounts 1, 2 and 4 (the paper ran Tetrad's FGES), 50-node ER1 and ER4 and 100-node ER1 graphs, n = 1000 and 10^6, standardized data.
#
#   Rscript table5.R [--quick] [--reps=R] [--methods=a,b] [--workers=W] [--outdir=DIR]
#
# Full size by default (the paper's graphs, 10 replicates); --quick (or
# CALM_QUICK=1) runs a small version in a minute or so. Results go to
# <outdir>/table5.rds (see common.R). CALM estimates the moral graph from the sample, as in the paper.
# --methods=notears_optim (not run by default) gives NOTEARS with R's
# L-BFGS-B, as in the NOTEARS rows stored before notears_control(solver = )
# existed.
library(calm)
source(system.file("bench", "paper", "common.R", package = "calm", mustWork = TRUE))
opts <- script_options()

run_er_table("table5", standardized = TRUE, opts)
