# Interventional data for the tests of targets, the interventional score
# and the interventional class.

# A data set with experiments on `vars` (one condition each).
int_data <- function(d, vars, n_obs = 300, n_each = 100, k = 1.5) {
  sem <- simulate_sem(d, k = k)
  tg <- c(list(integer(0)), as.list(vars))
  sim <- simulate_interventions(sem, tg, c(n_obs, rep(n_each, length(vars))))
  c(sim, list(B = sem$B))
}
