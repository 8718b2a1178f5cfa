# Shared by the tests of calm()'s stages (test-calm*.R, test-moral-resolve.R).

# The long schedule (calm()'s without the refinement), with rounds of 5000
# steps instead of 40,000: these tests pin the optimizer's own path to
# h < 1e-8, which the short schedule cuts off. Small graphs then need about
# 30 rounds.
fast <- list(schedule = "long", iter_per_round = 5000, max_rounds = 40)

sem_case <- function(d, seed) {
  set.seed(seed)
  simulate_sem(d, k = 1)
}
