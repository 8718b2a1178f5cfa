# Small hand-made graphs used across the tests.
named <- function(m, nm = LETTERS[seq_len(nrow(m))]) {
  dimnames(m) <- list(nm, nm)
  m
}

# The paper's 3-node counterexample (Section 3.3) in the package's convention
# (B[i, j] is the weight of i -> j): the true model X1 -> X2 <- X3 and an
# alternative with three edges that reproduces the same covariance.
counterexample <- function() {
  B_true <- matrix(0, 3, 3)
  B_true[1, 2] <- 1 / 2
  B_true[3, 2] <- -1
  B_alt <- matrix(0, 3, 3)
  B_alt[1, 2] <- 1 / 2
  B_alt[1, 3] <- 1 / 10
  B_alt[2, 3] <- -1 / 5
  list(B_true = named(B_true, c("X1", "X2", "X3")), omega_true = c(16, 4, 1),
       B_alt = named(B_alt, c("X1", "X2", "X3")), omega_alt = c(16, 5, 4 / 5),
       sigma = named(matrix(c(16, 8, 0, 8, 9, -1, 0, -1, 1), 3), c("X1", "X2", "X3")))
}

# The graphs of the conversion tests (test-convert.R, test-convert-dagitty.R).
# a -> c <- b is a v-structure (stays directed in the CPDAG); c -> d follows
# from it; e -> f is undirected in the CPDAG.
test_dag <- function() {
  nm <- c("a", "b", "c", "d", "e", "f")
  m <- matrix(0, 6, 6, dimnames = list(nm, nm))
  m["a", "c"] <- m["b", "c"] <- m["c", "d"] <- m["e", "f"] <- 1
  m
}

test_cpdag <- function() {
  m <- test_dag()
  m["f", "e"] <- 1
  m
}
