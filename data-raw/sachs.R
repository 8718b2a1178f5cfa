# Builds data/sachs.rda and data/sachs_consensus.rda from the two files in
# /work/shared/data/sachs (or the directory given as the first command-line
# argument). Run from the package root:
#   Rscript data-raw/sachs.R [source-dir]
#
# Source of the measurements: rows 1-853 (the cd3cd28 condition without
# interventions) of real/sachs/data/sachs.2005.continuous.txt in the public
# repository cmu-phil/example-causal-datasets (CC0 1.0). Values are kept raw,
# not log-transformed, so users can choose their own transformation.

args <- commandArgs(trailingOnly = TRUE)
src <- if (length(args) >= 1L) args[[1L]] else "/work/shared/data/sachs"

sachs <- utils::read.delim(file.path(src, "sachs_cd3cd28_observational.tsv"),
                           check.names = FALSE)
stopifnot(
  identical(dim(sachs), c(853L, 11L)),
  identical(names(sachs), c("raf", "mek", "plc", "pip2", "pip3", "erk", "akt",
                            "pka", "pkc", "p38", "jnk")),
  all(vapply(sachs, is.numeric, logical(1))),
  !anyNA(sachs)
)

edges <- utils::read.delim(file.path(src, "sachs_consensus_17.tsv"),
                           stringsAsFactors = FALSE)
stopifnot(nrow(edges) == 17L, all(unlist(edges) %in% names(sachs)))

# Vertices in the column order of `sachs`, so that as_amat(sachs_consensus)
# lines up with the data without reordering.
sachs_consensus <- igraph::graph_from_data_frame(
  edges, directed = TRUE,
  vertices = data.frame(name = names(sachs), stringsAsFactors = FALSE)
)
stopifnot(
  identical(igraph::V(sachs_consensus)$name, names(sachs)),
  igraph::is_dag(sachs_consensus),
  igraph::ecount(sachs_consensus) == 17L
)

# Keep only what a user needs; graph_from_data_frame() adds no other
# attributes here, but strip any in case a future igraph does.
for (a in igraph::edge_attr_names(sachs_consensus)) {
  sachs_consensus <- igraph::delete_edge_attr(sachs_consensus, a)
}

save(sachs, file = "data/sachs.rda", compress = "xz", version = 2)
save(sachs_consensus, file = "data/sachs_consensus.rda", compress = "xz", version = 2)
