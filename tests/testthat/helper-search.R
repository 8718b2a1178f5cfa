# The named options of the test-only calm:::cpp_order_local_search() (as
# cpp_boss() takes them); tol is the score tolerance every search uses.
order_options <- function(max_sweeps, exact_limit, grow_ratio = 1) {
  list(max_sweeps = max_sweeps, tol = calm:::score_tol, exact_limit = exact_limit,
       grow_ratio = grow_ratio)
}
