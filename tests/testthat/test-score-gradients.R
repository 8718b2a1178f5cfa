# Objective values and analytic gradients of the C++ kernel against plain R
# formulas and central finite differences, for every score x gate x
# constraint x acyclicity function, on dense and block-structured masks, and
# for both kernel builds.

kernel_control <- function(acyclicity = "poly", simd = TRUE) {
  unclass(calm_control(lambda1 = 0.05, acyclicity = acyclicity, simd = simd))
}

# The objective written out in R from the definitions (dense matrices).
ref_objective <- function(S, M, theta, P, noise, gate, score, coef, quadratic, ctrl) {
  d <- nrow(S)
  if (gate == "gumbel") {
    A <- M / (1 + exp(-(theta + noise) / ctrl$tau))
    B <- A * P
    pen <- sum(A)
    hA <- A
  } else if (gate == "stg") {
    A <- M * pmin(1, pmax(0, theta + noise))
    B <- A * P
    pen <- sum(M * stats::pnorm(theta / ctrl$stg_sigma))
    hA <- A
  } else {
    B <- M * P
    pen <- sum(M * tanh(ctrl$tanh_c * abs(B)))
    hA <- B * B
  }
  W <- diag(d) - B
  q <- diag(t(W) %*% S %*% W)
  sc <- if (score == "likelihood") 0.5 * sum(log(q)) - log(abs(det(W))) else sum(sqrt(q))
  if (ctrl$acyclicity == "poly") {
    X <- diag(d) + hA / d
    Xp <- diag(d)
    for (i in seq_len(d)) Xp <- Xp %*% X
    h <- sum(diag(Xp)) - d
  } else {
    h <- sum(diag(expm_taylor(hA))) - d
  }
  sc + ctrl$lambda1 * pen + if (quadratic) coef / 2 * h^2 else coef * h
}

# exp(A) by scaling and squaring a long Taylor series (reference only).
expm_taylor <- function(A) {
  s <- max(0, ceiling(log2(max(1, sum(abs(A))))) + 1)
  As <- A / 2^s
  E <- diag(nrow(A))
  term <- diag(nrow(A))
  for (k in 1:30) {
    term <- term %*% As / k
    E <- E + term
  }
  for (i in seq_len(s)) E <- E %*% E
  E
}

kernel_obj <- function(S, M, theta, P, noise, gate, score, coef, quadratic, ctrl) {
  calm:::cpp_calm_objective(S, M, theta, P, noise, calm:::optimizer_control(ctrl), gate, score,
                            coef, quadratic)
}

# Central differences of the kernel objective over the free entries.
fd_gradients <- function(S, M, theta, P, noise, gate, score, coef, quadratic, ctrl,
                         eps = 1e-6) {
  f <- function(th, w) kernel_obj(S, M, th, w, noise, gate, score, coef, quadratic, ctrl)$objective
  gt <- gw <- matrix(0, nrow(S), nrow(S))
  for (k in which(M != 0)) {
    if (gate != "tanh") {
      tp <- theta; tp[k] <- tp[k] + eps
      tm <- theta; tm[k] <- tm[k] - eps
      gt[k] <- (f(tp, P) - f(tm, P)) / (2 * eps)
    }
    wp <- P; wp[k] <- wp[k] + eps
    wm <- P; wm[k] <- wm[k] - eps
    gw[k] <- (f(theta, wp) - f(theta, wm)) / (2 * eps)
  }
  list(theta = gt, weight = gw)
}

# Masks: dense; a sparse 9-node chain, a triangle, a pair and an isolated
# node (the small components are packed into one block); an 8-node graph
# with a few pairs missing (neither sparse nor complete); a sparse 10-node
# ring. d - 1 is odd for the last two, even for the first two, which covers
# both ends of the kernel's binary powering of I + A / d.
test_masks <- function() {
  dense <- matrix(1, 6, 6) - diag(6)
  blocks <- matrix(0, 15, 15)
  for (i in 1:8) blocks[i, i + 1] <- blocks[i + 1, i] <- 1
  blocks[10:12, 10:12] <- 1
  blocks[13, 14] <- blocks[14, 13] <- 1
  diag(blocks) <- 0
  partial <- matrix(1, 8, 8) - diag(8)
  partial[cbind(c(1, 2, 3, 5), c(4, 7, 8, 6))] <- 0
  partial[cbind(c(4, 7, 8, 6), c(1, 2, 3, 5))] <- 0
  ring <- matrix(0, 10, 10)
  ring[cbind(1:10, c(2:10, 1))] <- 1
  ring <- ring + t(ring)
  list(dense = dense, blocks = blocks, partial = partial, ring = ring)
}

random_point <- function(M, gate) {
  d <- nrow(M)
  S <- stats::cov2cor(stats::rWishart(1, d + 5, diag(d))[, , 1])
  if (gate == "stg") {
    theta <- matrix(stats::runif(d * d, 0.15, 0.85), d)
    noise <- matrix(stats::runif(d * d, -0.1, 0.1), d)
    # a few gates clamped at 0 or 1 (gradient from the penalty only)
    theta[sample(which(M != 0), 3)] <- c(-0.5, 1.5, 1.4)
  } else {
    theta <- matrix(stats::rnorm(d * d), d)
    noise <- matrix(stats::rlogis(d * d), d)
  }
  P <- matrix(sample(c(-1, 1), d * d, TRUE) * stats::runif(d * d, 0.05, 0.5), d)
  list(S = S, theta = theta, P = P, noise = noise)
}

test_that("kernel objective and gradients match R formulas and finite differences", {
  set.seed(11)
  masks <- test_masks()
  for (mask_name in names(masks)) {
    M <- masks[[mask_name]]
    for (gate in c("gumbel", "stg", "tanh")) {
      for (score in c("likelihood", "colide")) {
        for (quadratic in c(TRUE, FALSE)) {
          for (acyc in c("poly", "exp")) {
            pt <- random_point(M, gate)
            ctrl <- kernel_control(acyc)
            coef <- if (quadratic) 3 else 0.7
            label <- paste(mask_name, gate, score, if (quadratic) "hard" else "soft", acyc)
            res <- kernel_obj(pt$S, M, pt$theta, pt$P, pt$noise, gate, score, coef, quadratic, ctrl)
            ref <- ref_objective(pt$S, M, pt$theta, pt$P, pt$noise, gate, score, coef,
                                 quadratic, ctrl)
            expect_equal(res$objective, ref, tolerance = 1e-10, label = label)
            fd <- fd_gradients(pt$S, M, pt$theta, pt$P, pt$noise, gate, score, coef,
                               quadratic, ctrl)
            scale <- max(1, abs(fd$weight), abs(fd$theta))
            expect_lt(max(abs(res$grad_weight - fd$weight)) / scale, 1e-6, label = label)
            expect_lt(max(abs(res$grad_theta - fd$theta)) / scale, 1e-6, label = label)
            # nothing outside the mask
            expect_true(all(res$grad_weight[M == 0] == 0), label = label)
          }
        }
      }
    }
  }
})

# The kernel computes h on a sparse block by its power series in sparse
# products, and gives the series up for the binary powering when it would
# cost more (src/calm_kernel_impl.h, series_block()). Both paths against
# the R formula and finite differences, on 70 nodes: a ring with chords and
# small gates takes the series (17 terms, within the budget of
# top * n^2 / (4 * ne) = 6 * 4900 / 1120 = 26), a random mask with about 14
# entries per column and gates near one gives it up (budget 7 terms; the
# series would need 47: both counted by the rule written out in R).
test_that("h on a large sparse block: the power series and the powering it falls back to", {
  set.seed(14)
  n <- 70
  ring <- matrix(0, n, n)
  ring[cbind(1:n, c(2:n, 1))] <- 1
  ring[cbind(1:n, c(8:n, 1:7))] <- 1
  ring <- pmax(ring, t(ring))
  dense <- matrix(stats::rbinom(n * n, 1, 0.1), n)
  dense <- pmax(dense, t(dense))
  diag(dense) <- 0
  cases <- list(series = list(M = ring, shift = -2), fallback = list(M = dense, shift = 3))
  for (nm in names(cases)) {
    M <- cases[[nm]]$M
    expect_lt(4 * sum(M), n * n)  # a sparse block, where the series is tried
    pt <- random_point(M, "gumbel")
    pt$theta <- pt$theta + cases[[nm]]$shift
    ctrl <- kernel_control("poly")
    res <- kernel_obj(pt$S, M, pt$theta, pt$P, pt$noise, "gumbel", "likelihood", 3, TRUE, ctrl)
    ref <- ref_objective(pt$S, M, pt$theta, pt$P, pt$noise, "gumbel", "likelihood", 3, TRUE,
                         ctrl)
    expect_equal(res$objective, ref, tolerance = 1e-10, label = nm)
    expect_gt(res$h, 1e-3)  # h is not negligible: a cyclic gate matrix
    fd <- fd_gradients(pt$S, M, pt$theta, pt$P, pt$noise, "gumbel", "likelihood", 3, TRUE,
                       ctrl)
    scale <- max(1, abs(fd$weight), abs(fd$theta))
    expect_lt(max(abs(res$grad_weight - fd$weight)) / scale, 1e-6, label = nm)
    expect_lt(max(abs(res$grad_theta - fd$theta)) / scale, 1e-6, label = nm)
    # poly_series = FALSE: the powering everywhere, the same function
    off <- kernel_obj(pt$S, M, pt$theta, pt$P, pt$noise, "gumbel", "likelihood", 3, TRUE,
                      unclass(calm_control(lambda1 = 0.05, poly_series = FALSE)))
    expect_equal(off$h, res$h, tolerance = 1e-12, label = nm)
    expect_equal(off$grad_theta, res$grad_theta, tolerance = 1e-10, label = nm)
  }
})

test_that("the deterministic gate is the noise-free objective", {
  set.seed(12)
  M <- test_masks()$blocks
  pt <- random_point(M, "gumbel")
  ctrl <- kernel_control()
  a <- kernel_obj(pt$S, M, pt$theta, pt$P, NULL, "gumbel", "likelihood", 2, TRUE, ctrl)
  b <- kernel_obj(pt$S, M, pt$theta, pt$P, 0 * pt$noise, "gumbel", "likelihood", 2, TRUE, ctrl)
  expect_equal(a$objective, b$objective, tolerance = 1e-12)
  expect_equal(a$grad_theta, b$grad_theta, tolerance = 1e-12)
})

test_that("both kernel builds compute the same objective and gradient", {
  skip_if_not(calm:::cpp_calm_simd_available(), "no AVX2 build on this machine")
  set.seed(13)
  for (M in test_masks()) {
    pt <- random_point(M, "gumbel")
    a <- kernel_obj(pt$S, M, pt$theta, pt$P, pt$noise, "gumbel", "likelihood", 2, TRUE,
                    kernel_control(simd = TRUE))
    b <- kernel_obj(pt$S, M, pt$theta, pt$P, pt$noise, "gumbel", "likelihood", 2, TRUE,
                    kernel_control(simd = FALSE))
    expect_identical(a$isa, "avx2")
    expect_identical(b$isa, "generic")
    expect_equal(a$objective, b$objective, tolerance = 1e-12)
    expect_equal(a$grad_theta, b$grad_theta, tolerance = 1e-10)
    expect_equal(a$grad_weight, b$grad_weight, tolerance = 1e-10)
  }
})

test_that("reference scores have the stated values and gradients", {
  set.seed(14)
  d <- 5
  S <- stats::rWishart(1, 10, diag(d))[, , 1] / 10
  B <- matrix(stats::rnorm(d * d, sd = 0.3), d)
  diag(B) <- 0
  W <- diag(d) - B
  q <- diag(t(W) %*% S %*% W)
  for (score in c("likelihood", "colide")) {
    r <- calm:::cpp_calm_score(S, B, score)
    want <- if (score == "likelihood") 0.5 * sum(log(q)) - log(abs(det(W))) else sum(sqrt(q))
    expect_equal(r$value, want, tolerance = 1e-12)
    fd <- matrix(0, d, d)
    for (k in seq_len(d * d)) {
      Bp <- B; Bp[k] <- Bp[k] + 1e-6
      Bm <- B; Bm[k] <- Bm[k] - 1e-6
      fd[k] <- (calm:::cpp_calm_score(S, Bp, score)$value -
                  calm:::cpp_calm_score(S, Bm, score)$value) / 2e-6
    }
    expect_lt(max(abs(r$grad - fd)), 1e-6)
  }
})

test_that("the colide score is CoLiDE-NV with the noise variances profiled out", {
  set.seed(15)
  d <- 4
  S <- stats::rWishart(1, 10, diag(d))[, , 1] / 10
  B <- matrix(stats::rnorm(d * d, sd = 0.3), d)
  diag(B) <- 0
  W <- diag(d) - B
  M <- t(W) %*% S %*% W
  # CoLiDE-NV: 1/2 tr(Omega^(-1/2) W^T S W) + 1/2 tr(Omega^(1/2)), minimised
  # numerically over log omega
  colide_nv <- function(log_omega) {
    s <- exp(log_omega / 2)
    0.5 * sum(diag(M) / s) + 0.5 * sum(s)
  }
  best <- stats::optim(rep(0, d), colide_nv, method = "BFGS",
                       control = list(reltol = 1e-14))
  expect_equal(calm:::cpp_calm_score(S, B, "colide")$value, best$value, tolerance = 1e-8)
  # the minimiser is omega_j = q_j, the residual variances
  expect_equal(exp(best$par), diag(M), tolerance = 1e-4)
})
