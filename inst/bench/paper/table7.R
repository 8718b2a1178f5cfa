# Paper Table 7: as Table 5 without data standardization.
#
#   Rscript table7.R [--quick] [--reps=R] [--methods=a,b] [--workers=W] [--outdir=DIR]
#
# Full size by default (the paper's graphs, 10 replicates); --quick (or
# CALM_QUICK=1) runs a small version in a minute or so. Results go to
# <outdir>/table7.rds (see common.R). CALM estimates the moral graph from the sample, as in the paper.
# --methods=notears_optim (not run by default) gives NOTEARS with R's
# L-BFGS-B, as in the NOTEARS rows stored before notears_control(solver = )
# existed.
library(calm)
source(system.file("bench", "paper", "common.R", package = "calm", mustWork = TRUE))
opts <- script_options()

run_er_table("table7", standardized = FALSE, opts)
