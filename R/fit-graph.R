# Which graph of a fit a function works on. A fit holds two: one DAG of the
# equivalence class (`amat`) and the CPDAG (`cpdag_amat`), which carries the
# orientations background knowledge forces. The CPDAG is what the data
# support, so it is the default of every converter and comparison; the DAG
# is there for what needs one member (weights, likelihoods, simulation).

graph_types <- c("cpdag", "dag", "skeleton")

# The fit's CPDAG as a 0/1 matrix: its own `cpdag_amat` while `amat` is a
# member of it (same adjacencies, every directed CPDAG edge as in `amat`).
# A fit whose `amat` was edited afterwards gets the CPDAG of its edited DAG,
# under the fit's knowledge, instead of a stale one.
fit_cpdag <- function(x) {
  a <- (x[["amat"]] != 0) * 1
  cp <- (x[["cpdag_amat"]] != 0) * 1
  dimnames(cp) <- dimnames(a)
  if (is.null(x[["dag"]])) return(cp)
  same_skeleton <- all(((a + t(a)) != 0) == ((cp + t(cp)) != 0))
  directed <- cp != 0 & t(cp) == 0
  if (same_skeleton && all(a[directed] != 0)) return(cp)
  class_cpdag(a, fit_targets(x), x[["knowledge"]])
}

# One graph of a fit as a 0/1 matrix. `graph = "dag"` on a learner that
# returns only a CPDAG (PC, GES) is an error naming `graph`.
fit_graph <- function(x, graph = "cpdag", call = parent.frame()) {
  graph <- match_choice(graph, graph_types, "graph", call)
  if (graph == "dag") {
    if (is.null(x[["dag"]])) {
      abort_arg("graph", "is {.val dag}, but this fit (method {.val {x[['method']]}}) learned a CPDAG only.",
                i = "Use {.code graph = \"cpdag\"}, or {.fn pcalg::pdag2dag} for one member of the class.",
                call = call)
    }
    m <- (x[["amat"]] != 0) * 1
    dimnames(m) <- dimnames(x[["amat"]])
    return(m)
  }
  cp <- fit_cpdag(x)
  if (graph == "skeleton") cp[] <- as.double(cp != 0 | t(cp) != 0)
  cp
}
