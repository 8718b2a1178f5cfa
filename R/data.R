#' Protein-signalling measurements of Sachs et al. (2005), observational part
#'
#' Flow-cytometry measurements of 11 phosphorylated proteins and
#' phospholipids in single human immune cells, from the baseline condition of
#' Sachs et al. (2005): cells stimulated with anti-CD3/CD28 and given no
#' further intervention. These 853 cells are the observational data set used
#' most often to benchmark structure learning on real data. The values are
#' the raw measurements (not log-transformed, not standardized); many
#' analyses log-transform or standardize them first.
#'
#' @format A data frame with 853 rows (cells) and 11 numeric columns, in this
#'   order:
#'   \describe{
#'     \item{raf}{Raf}
#'     \item{mek}{Mek1/2}
#'     \item{plc}{PLC-gamma (often written Plcg)}
#'     \item{pip2}{PIP2}
#'     \item{pip3}{PIP3}
#'     \item{erk}{Erk1/2 (p44/42)}
#'     \item{akt}{Akt}
#'     \item{pka}{PKA}
#'     \item{pkc}{PKC}
#'     \item{p38}{p38 MAPK}
#'     \item{jnk}{JNK}
#'   }
#' @source Rows 1-853 of `real/sachs/data/sachs.2005.continuous.txt` in the
#'   public repository <https://github.com/cmu-phil/example-causal-datasets>,
#'   released under CC0 1.0. The script `data-raw/sachs.R` in the package
#'   sources builds this object.
#' @references Sachs, K., Perez, O., Pe'er, D., Lauffenburger, D. A. and
#'   Nolan, G. P. (2005). Causal protein-signaling networks derived from
#'   multiparameter single-cell data. *Science*, 308(5721), 523-529.
#'   \doi{10.1126/science.1105809}
#' @seealso [sachs_consensus] for the graph usually taken as the truth.
#' @examples
#' dim(sachs)
#' summary(log(sachs$raf))
#' # the columns line up with the vertices of the consensus graph
#' identical(names(sachs), igraph::V(sachs_consensus)$name)
#' @docType data
#' @keywords datasets
#' @name sachs
NULL

#' Consensus signalling network for the Sachs et al. (2005) data
#'
#' The directed acyclic graph with 17 edges over the 11 variables of
#' [sachs] that is most often used as the ground truth when structure
#' learners are scored on those 853 observational cells. It is the network
#' bnlearn's repository gives for this data set, whose model string (with
#' bnlearn's node names) is
#' `[PKC][PKA|PKC][Raf|PKC:PKA][Mek|PKC:PKA:Raf][Erk|Mek:PKA][Akt|Erk:PKA]`
#' `[P38|PKC:PKA][Jnk|PKC:PKA][Plcg][PIP3|Plcg][PIP2|Plcg:PIP3]`; here the
#' nodes carry the column names of [sachs] (`Plcg` is `plc`).
#'
#' Which graph is "the truth" for these data is a choice. The network drawn
#' in Sachs et al. (2005) and other curated versions in the literature have
#' 18 or 19 edges and differ in a few of them, so published scores are only
#' comparable when they use the same graph. This one is used here because it
#' is the most widely used for this 853-row benchmark.
#'
#' **No v-structure.** Every node with two parents has adjacent parents, so
#' the graph has no v-structure and its CPDAG (see [dag_to_cpdag()]) has all
#' 17 edges undirected. Observational data cannot orient any of them: the
#' structural Hamming distance between CPDAGs ([shd_cpdag()]) then counts
#' every directed edge of an estimate as an error, even one that agrees with
#' the DAG drawn here. Keep this in mind when reading SHD of CPDAG on these
#' data, and report skeleton metrics ([skeleton_metrics()]) beside it.
#'
#' @format A directed [igraph][igraph::igraph] graph with 11 vertices, named
#'   and ordered as the columns of [sachs], and 17 edges. Use [as_amat()] for
#'   its adjacency matrix (`[i, j] = 1` for the edge `i -> j`).
#' @source The edge list distributed with the package's data sources
#'   (`data-raw/sachs.R`); the same graph as the bnlearn model string above
#'   (bnlearn Bayesian network repository, "sachs").
#' @references Sachs, K., Perez, O., Pe'er, D., Lauffenburger, D. A. and
#'   Nolan, G. P. (2005). Causal protein-signaling networks derived from
#'   multiparameter single-cell data. *Science*, 308(5721), 523-529.
#'   \doi{10.1126/science.1105809}
#' @seealso [sachs]
#' @examples
#' sachs_consensus
#' # its CPDAG is fully undirected: every edge appears in both directions
#' cp <- dag_to_cpdag(sachs_consensus, output = "matrix")
#' all(cp == t(cp))
#' @docType data
#' @keywords datasets
#' @name sachs_consensus
NULL

#' Protein-signalling measurements of Sachs et al. (2005), all conditions
#'
#' The 7466 cells of the flow-cytometry study of Sachs et al. (2005) under
#' nine conditions: the 853 cells of [sachs] (stimulation with anti-CD3/CD28
#' alone), cells given ICAM-2 as well, and seven experiments in which a
#' reagent inhibits or activates one of the measured molecules. Use it with
#' [sachs_targets], which says what each condition intervenes on, to learn
#' from the experiments (see [intervention_targets()] and the vignette
#' *calm on real data*).
#'
#' @format A data frame with 7466 rows (cells) and 12 columns: the 11 raw
#'   measurements of [sachs], in the same order (not log-transformed), and
#'   `condition`, a factor with the nine conditions (the reagents added):
#'   `cd3cd28` (853 cells, the rows of [sachs]), `cd3cd28+icam2` (902),
#'   `cd3cd28+aktinhib` (911, an Akt inhibitor), `cd3cd28+g0076` (723, a PKC
#'   inhibitor), `cd3cd28+psitect` (810, a PIP2 inhibitor), `cd3cd28+u0126`
#'   (799, a MEK inhibitor), `cd3cd28+ly` (848, LY294002, a PIP3 inhibitor),
#'   `pma` (913, a PKC activator) and `b2camp` (707, a PKA activator).
#' @source The files `real/sachs/data/sachs.2005.continuous.txt` (the
#'   measurements) and
#'   `real/sachs/data/sachs.2005.continuous.discrete.experimental.mixed.maximum.2.txt`
#'   (the same cells, log-transformed, with one 0/1 column per reagent, which
#'   give the conditions) of the public repository
#'   <https://github.com/cmu-phil/example-causal-datasets>, released under
#'   CC0 1.0. No CRAN or Debian package ships these data with their
#'   conditions in an installable form (the `sparsebn` package, GPL, once
#'   did; it is archived on CRAN). The script `data-raw/sachs_interventional.R`
#'   in the package sources builds the objects and checks that the two files
#'   list the cells in the same order.
#' @references Sachs, K., Perez, O., Pe'er, D., Lauffenburger, D. A. and
#'   Nolan, G. P. (2005). Causal protein-signaling networks derived from
#'   multiparameter single-cell data. *Science*, 308(5721), 523-529.
#'   \doi{10.1126/science.1105809}
#' @seealso [sachs_targets], [sachs_consensus]
#' @examples
#' table(sachs_interventional$condition)
#' # the conditions in pcalg's form
#' tg <- intervention_targets(sachs_targets, sachs_interventional$condition,
#'                            names(sachs), nrow(sachs_interventional))
#' tg
#' @docType data
#' @keywords datasets
#' @name sachs_interventional
NULL

#' Intervention targets of the Sachs et al. (2005) conditions
#'
#' What each condition of [sachs_interventional] intervenes on, as a named
#' list for the `targets` argument of the learners (with
#' `target_index = sachs_interventional$condition`). The reading is the
#' usual one (Sachs et al. 2005, and the analyses of these data with
#' interventional learners since): each inhibitor or activator intervenes
#' on the molecule it acts on (`akt`, `pkc`, `pip2`, `mek`, `pip3`, `pkc`,
#' `pka`); the two stimuli act on receptors that are not measured, so their
#' cells count as observation. An inhibitor of a kinase's activity need not
#' change the measured amount of the kinase itself, so this reading is a
#' model, not a fact of the data.
#'
#' @format A named list of nine character vectors, one per level of
#'   `sachs_interventional$condition`.
#' @source Built with [sachs_interventional] by
#'   `data-raw/sachs_interventional.R`.
#' @examples
#' sachs_targets[c("cd3cd28", "cd3cd28+u0126")]
#' @docType data
#' @keywords datasets
#' @name sachs_targets
NULL
