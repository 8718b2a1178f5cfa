# Edge stability by bootstrap.

boot_sem <- function() {
  set.seed(21)
  simulate_sem(5, k = 1, n = 300)
}

test_that("bootstrap_edges() counts edges and directions consistently", {
  sem <- boot_sem()
  set.seed(1)
  bs <- bootstrap_edges(sem$x, R = 4)
  expect_s3_class(bs, "calm_bootstrap")
  expect_equal(bs$R, 4)
  d <- 5
  for (g in c("dag", "cpdag")) {
    s <- bs[[g]]
    expect_equal(nrow(s), d * (d - 1))
    expect_true(all(s$strength >= 0 & s$strength <= 1))
    expect_true(all(s$direction >= 0 & s$direction <= 1))
    # strength is a property of the pair; directions of a pair add up to one
    key <- paste(pmin(s$from, s$to), pmax(s$from, s$to))
    expect_true(all(tapply(s$strength, key, function(v) diff(range(v))) < 1e-12))
    both <- tapply(s$direction, key, sum)
    st <- tapply(s$strength, key, `[`, 1)
    expect_true(all(abs(both[st > 0] - 1) < 1e-12))
    # shares are multiples of 1/R
    expect_true(all(abs(s$strength * 4 - round(s$strength * 4)) < 1e-12))
  }
  # same seed, same result
  set.seed(1)
  expect_equal(bootstrap_edges(sem$x, R = 4)$cpdag, bs$cpdag)
  expect_output(print(bs), "4 replicates")
})

test_that("the bootstrap of a fixed learner gives strength one to its edges", {
  sem <- boot_sem()
  truth <- sem$B != 0
  fixed <- function(x, ...) truth * 1
  bs <- bootstrap_edges(sem$x, R = 3, learner = fixed)
  avg <- average_graph(bs, graph = "dag")
  expect_equal(unname(avg), unname(truth * 1), ignore_attr = TRUE)
  avg_cp <- average_graph(bs)
  expect_equal(shd_cpdag(avg_cp, sem$B), 0)
  s <- as_bn_strength(bs)
  expect_s3_class(s, "bn.strength")
  expect_named(s, c("from", "to", "strength", "direction"))
  expect_equal(attr(s, "method"), "bootstrap")
  expect_equal(attr(s, "nodes"), colnames(sem$x))
})

test_that("bnlearn's averaged.network() accepts the strengths", {
  skip_if_not_installed("bnlearn")
  sem <- boot_sem()
  set.seed(2)
  bs <- bootstrap_edges(sem$x, R = 3)
  avg <- bnlearn::averaged.network(as_bn_strength(bs))
  expect_s3_class(avg, "bn")
  expect_equal(shd_cpdag(avg, average_graph(bs)), 0)
  # with bnlearn's own boot.strength on the same kind of object
  ref <- bnlearn::boot.strength(as.data.frame(sem$x), R = 2, algorithm = "hc")
  expect_equal(names(ref), names(as_bn_strength(bs)))
})

test_that("bootstrap_edges() refuses bad input and reports failed replicates", {
  sem <- boot_sem()
  expect_error(bootstrap_edges(sem$x, R = 0), "R", class = "calm_error_argument")
  expect_error(bootstrap_edges(sem$x, R = 2, learner = "calm"), "learner",
               class = "calm_error_argument")
  expect_error(bootstrap_edges(sem$x, R = 2, threshold = 2), "threshold",
               class = "calm_error_argument")
  expect_error(bootstrap_edges("a", R = 2), "x", class = "calm_error_argument")
  expect_error(bootstrap_edges(sem$x, R = 2, learner = function(x) stop("boom")),
               "Every bootstrap replicate failed")
  k <- 0
  flaky <- function(x) {
    if (x[1, 1] > 0) stop("flaky") else diag(ncol(x)) * 0
  }
  set.seed(5)
  expect_warning(bootstrap_edges(sem$x, R = 6, learner = flaky), "failed")
  expect_error(average_graph(list()), "bootstrap_edges", class = "calm_error_argument")
  expect_error(as_bn_strength(1), "bootstrap_edges", class = "calm_error_argument")
  bs <- bootstrap_edges(sem$x, R = 2, learner = function(x) sem$B)
  expect_error(average_graph(bs, threshold = -1), "threshold", class = "calm_error_argument")
  expect_error(average_graph(bs, graph = "pag"), "graph", class = "calm_error_argument")
})

test_that("bootstrap plots draw", {
  sem <- boot_sem()
  bs <- bootstrap_edges(sem$x, R = 2, learner = function(x) sem$B)
  f <- tempfile(fileext = ".png")
  grDevices::png(f)
  on.exit({grDevices::dev.off(); unlink(f)})
  expect_invisible(plot(bs))
  expect_invisible(plot(bs, type = "strength", top = 3))
  expect_error(plot(bs, type = "pie"), "type", class = "calm_error_argument")
})

test_that("knowledge reaches the bootstrap's learner", {
  sem <- boot_sem()
  bk <- background_knowledge(required = data.frame(from = "X1", to = "X5"))
  set.seed(3)
  bs <- bootstrap_edges(sem$x, R = 2, knowledge = bk)
  s <- bs$dag
  expect_equal(s$directed[s$from == "X1" & s$to == "X5"], 1)
})

test_that("learners of other packages: bnlearn's get a data frame, pcalg's GES and boss() work", {
  set.seed(45)
  sem <- simulate_sem(5, k = 1, n = 300)
  # a learner that refuses a matrix, as bnlearn's do, is given a data frame
  seen <- character()
  picky <- function(d) {
    seen <<- c(seen, class(d)[1])
    if (!is.data.frame(d)) stop("the data must be in a data frame.")
    fit_sem(sem$B, d)
  }
  bs <- bootstrap_edges(sem$x, R = 2, learner = picky)
  expect_identical(bs$failed, 0L)
  expect_true(all(bs$dag$strength[bs$dag$directed > 0] == 1))
  # errors that do not ask for a data frame are not retried
  expect_error(bootstrap_edges(sem$x, R = 2, learner = function(d) stop("no luck")),
               "no luck", class = "calm_error_fit")
  skip_if_not_installed("bnlearn")
  bh <- bootstrap_edges(sem$x, R = 3, learner = bnlearn::hc)
  expect_identical(bh$failed, 0L)
  expect_identical(bh$R, 3L)
  expect_gt(sum(bh$cpdag$strength > 0), 0)
  expect_true(all(round(bh$dag$strength * 3) == bh$dag$strength * 3))
  skip_if_not_installed("pcalg")
  bg <- bootstrap_edges(sem$x, R = 2, learner = ges_pcalg)
  expect_identical(bg$failed, 0L)
  bb <- bootstrap_edges(sem$x, R = 2, learner = boss, starts = 2)
  expect_identical(bb$failed, 0L)
  expect_gt(sum(bb$dag$strength > 0), 0)
})

test_that("a worker that dies, or a learner that errors, costs only its own replicates", {
  skip_on_cran()
  skip_if_not_installed("future")
  sem <- boot_sem()
  old <- future::plan(future::multisession, workers = 2)
  on.exit(future::plan(old), add = TRUE)
  # the first replicate to run kills its worker's R process
  marker <- tempfile()
  once_killer <- function(x) {
    if (!file.exists(marker)) {
      file.create(marker)
      tools::pskill(Sys.getpid())
    }
    sem$B
  }
  expect_warning(bs <- bootstrap_edges(sem$x, R = 4, learner = once_killer),
                 "1 of 4 bootstrap replicates failed", class = "calm_warning_failed")
  expect_true(file.exists(marker))
  # the dead worker was replaced under the user's own plan
  expect_true(inherits(future::plan(), "multisession"))
  expect_equal(future::nbrOfWorkers(), 2)
  expect_identical(bs$R, 3L)
  expect_identical(bs$failed, 1L)
  expect_match(bs$errors$error, "worker failed")
  # the three that ran are all kept: every true edge in each of them
  expect_equal(sort(bs$dag$strength[bs$dag$directed > 0]), rep(1, sum(sem$B != 0)))
  # a learner that errors on some replicates, on the workers (a replaced one too)
  set.seed(5)
  flaky <- function(x) if (x[1, 1] > 0) stop("flaky") else sem$B
  expect_warning(bs2 <- bootstrap_edges(sem$x, R = 6, learner = flaky), "failed",
                 class = "calm_warning_failed")
  expect_identical(bs2$R + bs2$failed, 6L)
  expect_true(all(bs2$errors$error == "flaky"))
  # the same replicates fail under a sequential plan: the streams follow the seed
  future::plan(future::sequential)
  set.seed(5)
  bs3 <- suppressWarnings(bootstrap_edges(sem$x, R = 6, learner = flaky))
  expect_identical(bs3$errors, bs2$errors)
})

# A bootstrap result with given CPDAG shares: `dir[i, j]` the share of
# replicates with i -> j, `und` the (symmetric) share with i - j.
fake_bootstrap <- function(dir, und) {
  structure(list(cpdag = calm:::strength_frame(dir, und, cpdag = TRUE),
                 dag = calm:::strength_frame(dir + und / 2, 0 * und), R = 20,
                 nodes = colnames(dir), threshold = 0.5, failed = 0),
            class = "calm_bootstrap")
}

test_that("pairs undirected in most replicates are undirected, named alike everywhere", {
  nm <- c("raf", "mek", "pka")
  dir <- und <- matrix(0, 3, 3, dimnames = list(nm, nm))
  dir["raf", "mek"] <- 0.1
  und["raf", "mek"] <- und["mek", "raf"] <- 0.9
  dir["pka", "raf"] <- 0.7
  und["pka", "raf"] <- und["raf", "pka"] <- 0.3
  bs <- fake_bootstrap(dir, und)
  avg <- average_graph(bs)
  # bnlearn's rule (direction 0.55) would draw raf -> mek
  expect_equal(c(avg["raf", "mek"], avg["mek", "raf"]), c(1, 1))
  expect_equal(c(avg["pka", "raf"], avg["raf", "pka"]), c(1, 0))
  shares <- calm:::strength_shares(bs$cpdag, 5)
  expect_setequal(colnames(shares), c("mek -- raf", "pka -> raf"))
  out <- capture.output(print(bs))
  expect_true(any(grepl("mek -- raf", out, fixed = TRUE)))
  expect_true(any(grepl("pka -> raf", out, fixed = TRUE)))
  expect_false(any(grepl("raf -- mek|mek - raf", out)))
})
