# Builds data/sachs_interventional.rda and data/sachs_targets.rda: all 7466
# cells of Sachs et al. (2005) with their experimental condition. Run from
# the package root:
#   Rscript data-raw/sachs_interventional.R source-dir
#
# Source: two files of the public repository cmu-phil/example-causal-datasets
# (CC0 1.0), in its folder real/sachs/data: sachs.2005.continuous.txt (the
# raw measurements, whose rows 1-853 are data/sachs.rda) and
# sachs.2005.continuous.discrete.experimental.mixed.maximum.2.txt (the same
# cells, log(x + 10) of the measurements, with one 0/1 column per reagent).
# The two files list the cells in the same order; the script checks that.

args <- commandArgs(trailingOnly = TRUE)
if (length(args) < 1L) stop("give the folder that holds the two source files", call. = FALSE)
src <- args[[1L]]
raw <- utils::read.delim(file.path(src, "sachs.2005.continuous.txt"))
mixed <- utils::read.delim(file.path(src,
  "sachs.2005.continuous.discrete.experimental.mixed.maximum.2.txt"))
vars <- c("raf", "mek", "plc", "pip2", "pip3", "erk", "akt", "pka", "pkc", "p38", "jnk")
reagents <- c("cd3_cd28", "icam2", "aktinhib", "g0076", "psitect", "u0126", "ly", "pma", "b2camp")
stopifnot(identical(names(raw), vars), identical(names(mixed), c(vars, reagents)),
          nrow(raw) == 7466L, nrow(mixed) == 7466L,
          max(abs(log(as.matrix(raw) + 10) - as.matrix(mixed[vars]))) < 1e-4)

# Each condition is a set of reagents; the name says what was added.
key <- apply(mixed[reagents], 1L, function(r) paste(reagents[r == 1], collapse = "+"))
names_of <- c("cd3_cd28" = "cd3cd28", "cd3_cd28+icam2" = "cd3cd28+icam2",
              "cd3_cd28+aktinhib" = "cd3cd28+aktinhib", "cd3_cd28+g0076" = "cd3cd28+g0076",
              "cd3_cd28+psitect" = "cd3cd28+psitect", "cd3_cd28+u0126" = "cd3cd28+u0126",
              "cd3_cd28+ly" = "cd3cd28+ly", "pma" = "pma", "b2camp" = "b2camp")
stopifnot(all(key %in% names(names_of)))
sachs_interventional <- raw
sachs_interventional$condition <- factor(unname(names_of[key]), levels = unname(names_of))
# the first 853 cells are data/sachs.rda
old <- new.env()
load("data/sachs.rda", envir = old)
stopifnot(isTRUE(all.equal(sachs_interventional[1:853, vars], old$sachs, check.attributes = FALSE)))

# The variable each reagent acts on, as usually read (Sachs et al. 2005,
# table 1): the two stimuli (anti-CD3/CD28, ICAM-2) act on receptors that
# are not measured, so their cells count as observational.
sachs_targets <- list(
  "cd3cd28" = character(0), "cd3cd28+icam2" = character(0),
  "cd3cd28+aktinhib" = "akt", "cd3cd28+g0076" = "pkc", "cd3cd28+psitect" = "pip2",
  "cd3cd28+u0126" = "mek", "cd3cd28+ly" = "pip3", "pma" = "pkc", "b2camp" = "pka"
)
stopifnot(identical(names(sachs_targets), levels(sachs_interventional$condition)))

save(sachs_interventional, file = "data/sachs_interventional.rda", compress = "xz", version = 2)
save(sachs_targets, file = "data/sachs_targets.rda", compress = "xz", version = 2)
