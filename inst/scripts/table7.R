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
here <- local({
  f <- sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE))
  if (length(f)) dirname(normalizePath(f)) else "."
})
source(file.path(here, "common.R"))
opts <- script_options()

settings <- expand.grid(n = c(1000, 1e6), d = c(50, 50, 100), KEEP.OUT.ATTRS = FALSE)
settings$k <- rep(c(1, 4, 1), each = 2)
settings$standardized <- FALSE
run_benchmark_table("table7", c("calm_paper", "calm", "boss", "golem_nv", "golem_nv_ev", "notears", "pc", "ges1",
                             "ges", "ges4"), settings,
                    moral = "default", opts, extra = "notears_optim")
