# Refinement of a learned graph by greedy equivalence search moves (C++ in
# src/ges_refine.cpp), used by calm(refine = "ges").

# The per-sample penalty of the refinement's score (see calm_control()).
refine_lambda <- function(ctrl, n) {
  p <- ctrl$refine_penalty
  if (is.numeric(p)) return(p)
  if (p == "bic" && is.finite(n)) return(bic_lambda(n, ctrl$refine_discount))
  ctrl$lambda1
}

# Runs the refinement from the DAG `dag` (0/1, named) on covariance `sigma`.
# Returns the refined DAG (a consistent extension of the refined CPDAG) and
# a record of what was done.
refine_dag <- function(dag, sigma, mask, lambda, ctrl, n = Inf) {
  forward <- ctrl$refine_forward
  if (identical(forward, "auto")) forward <- !is.finite(n)
  nm <- colnames(sigma)
  t0 <- proc.time()[["elapsed"]]
  start <- cpp_dag_to_cpdag(dag)
  storage.mode(start) <- "double"
  allowed <- mask
  diag(allowed) <- 0
  r <- cpp_ges_refine(sigma, start, lambda, allowed, forward, TRUE, TRUE,
                      ctrl$refine_max_moves)
  cpdag <- set_node_names(r$cpdag, nm)
  # keep the DAG when the class did not change, so that the refined fit of
  # an unchanged graph is the same DAG
  new_dag <- if (length(r$moves$type) == 0L) dag else set_node_names(cpp_pdag_extension(cpdag), nm)
  moves <- data.frame(
    type = r$moves$type, from = nm[r$moves$from], to = nm[r$moves$to],
    clique = vapply(r$moves$clique, function(k) paste(nm[k], collapse = ","), character(1)),
    delta = r$moves$delta, stringsAsFactors = FALSE
  )
  list(dag = new_dag,
       record = list(method = "ges", lambda = lambda, forward = forward,
                     dag_before = dag, cpdag_before = set_node_names(start, nm),
                     score_before = r$score_before, score_after = r$score_after,
                     moves = moves, seconds = proc.time()[["elapsed"]] - t0))
}
