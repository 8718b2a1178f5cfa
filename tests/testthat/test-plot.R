# Plots run on a file device; the edge-status table behind plot_comparison()
# is checked on a hand-made example.

# Evaluates `expr` with a png device open, closes it, and checks that
# something was drawn. Returns the value of `expr`.
plot_to_png <- function(expr, width = 700, height = 600) {
  f <- withr::local_tempfile(fileext = ".png")
  grDevices::png(f, width = width, height = height)
  dev <- grDevices::dev.cur()
  value <- tryCatch(force(expr), finally = grDevices::dev.off(dev))
  expect_gt(file.size(f), 1000)
  invisible(value)
}

# The same without the check, for code that should fail before drawing.
with_png <- function(expr) {
  f <- withr::local_tempfile(fileext = ".png")
  grDevices::png(f)
  dev <- grDevices::dev.cur()
  tryCatch(force(expr), finally = grDevices::dev.off(dev))
}

nodes8 <- c("a", "b", "c", "d", "e", "f", "g", "h")
empty8 <- function() matrix(0, 8, 8, dimnames = list(nodes8, nodes8))

# truth: a -> c <- b and e -> g <- f are v-structures, c -> d is compelled,
# a - h is undirected in its CPDAG.
truth8 <- function() {
  m <- empty8()
  m["a", "c"] <- m["b", "c"] <- m["c", "d"] <- m["e", "g"] <- m["f", "g"] <- m["a", "h"] <- 1
  m
}

# estimate: the same v-structures (4 correct), d -> c instead of c -> d
# (reversed; c keeps three unshielded parents, so it stays directed), the
# extra edge d -> e (undirected in its CPDAG), and no a - h (missing).
est8 <- function() {
  m <- empty8()
  m["a", "c"] <- m["b", "c"] <- m["d", "c"] <- m["e", "g"] <- m["f", "g"] <- m["d", "e"] <- 1
  m
}

test_that("edge status is right on a hand-made example", {
  st <- plot_to_png(plot_comparison(est8(), truth8()))
  expect_s3_class(st, "data.frame")
  expect_named(st, c("from", "to", "est", "truth", "status"))
  key <- paste(st$from, st$to)
  status <- setNames(as.character(st$status), key)
  expect_identical(
    status[order(names(status))],
    c("a c" = "correct", "a h" = "missing", "b c" = "correct", "d c" = "reversed",
      "d e" = "extra", "e g" = "correct", "f g" = "correct")
  )
  # marks, read from `from` to `to`
  row <- function(k) st[key == k, ]
  expect_identical(c(row("d c")$est, row("d c")$truth), c("->", "<-"))
  expect_identical(c(row("d e")$est, row("d e")$truth), c("--", ""))
  expect_identical(c(row("a h")$est, row("a h")$truth), c("", "--"))
  expect_identical(levels(st$status),
                   c("correct", "reversed", "misoriented", "extra", "missing"))
  # the pairs that are not correct are the ones SHD of CPDAG counts
  expect_equal(sum(st$status != "correct"), shd_cpdag(est8(), truth8()))
})

test_that("compare = 'dag' compares the graphs as given", {
  st <- plot_to_png(plot_comparison(est8(), truth8(), compare = "dag"))
  key <- paste(st$from, st$to)
  expect_identical(st$est[key == "d e"], "->")
  expect_identical(st$truth[key == "a h"], "->")
  expect_identical(as.character(st$status[key == "a h"]), "missing")
})

test_that("directed versus undirected is 'misoriented'", {
  truth <- matrix(0, 3, 3, dimnames = list(c("x", "y", "z"), c("x", "y", "z")))
  truth["x", "z"] <- truth["y", "z"] <- 1          # v-structure: directed
  est <- truth
  est["y", "z"] <- 0
  est["z", "y"] <- 1                               # chain x -> z -> y: undirected
  st <- plot_to_png(plot_comparison(est, truth, legend = FALSE))
  expect_identical(as.character(st$status), c("misoriented", "misoriented"))
  expect_equal(shd_cpdag(est, truth), 2L)
})

test_that("plot_comparison accepts igraph, fits, layouts and both styles", {
  set.seed(5)
  sem <- simulate_sem(15, k = 1.5)
  est <- sem$B != 0
  est[which(est)[1:2]] <- FALSE
  fit <- calm:::new_calm_fit(est * 1, sigma = sem$sigma)
  st1 <- plot_to_png(plot_comparison(fit, sem$dag))
  st2 <- plot_to_png(plot_comparison(est * 1, sem$B, side_by_side = TRUE), width = 1000)
  expect_identical(st1, st2)
  expect_equal(sum(st1$status == "missing"), shd_cpdag(fit, sem$dag))

  xy <- cbind(seq_len(15), (seq_len(15) %% 3))
  plot_to_png(plot_comparison(fit, sem$dag, layout = xy, main = "custom"))
  plot_to_png(plot_comparison(fit, sem$dag, layout = igraph::layout_in_circle,
                              vertex.color = "grey90"))
})

test_that("plot_comparison restores graphical parameters", {
  plot_to_png({
    graphics::par(mfrow = c(2, 2))
    before <- graphics::par(c("mfrow", "mar"))
    plot_comparison(est8(), truth8(), side_by_side = TRUE)
    expect_identical(graphics::par(c("mfrow", "mar")), before)
    graphics::par(mfrow = c(1, 1))
    plot_comparison(est8(), truth8())
    plot(1:3)
    expect_equal(graphics::par("fig"), c(0, 1, 0, 1))
  })
})

test_that("plot_comparison checks its arguments", {
  other <- truth8()
  dimnames(other) <- list(toupper(nodes8), toupper(nodes8))
  with_png({
    expect_error(plot_comparison(est8(), truth8(), layout = matrix(0, 3, 2)),
                 class = "calm_error_argument")
    expect_error(plot_comparison(est8(), other), class = "calm_error_argument")
    expect_error(plot_comparison(est8(), truth8(), side_by_side = NA),
                 class = "calm_error_argument")
    cyclic <- empty8()
    cyclic["a", "b"] <- cyclic["b", "c"] <- cyclic["c", "a"] <- 1
    # a directed cycle is drawn as it is, with the metrics' warning
    expect_warning(plot_comparison(cyclic, truth8()), "`est` has a directed cycle",
                   class = "calm_warning_conflict")
  })
})

trace_fit <- function() {
  set.seed(8)
  sem <- simulate_sem(6, k = 1)
  tr <- data.frame(round = 1:4, rho = 1e-5 * 3^(0:3), h = c(0.3, 1e-3, 1e-7, 0),
                   objective = c(4.2, 3.9, 3.85, 3.84), edges = c(9, 7, 6, 6),
                   seconds = c(0.1, 0.2, 0.3, 0.4))
  calm:::new_calm_fit(sem$B != 0, sigma = sem$sigma, trace = tr,
                      settings = list(h_tol = 1e-8))
}

test_that("plot_trace draws a fit's trace or a trace data frame", {
  fit <- trace_fit()
  expect_identical(plot_to_png(plot_trace(fit)), fit)
  plot_to_png(plot_trace(fit$trace, pch = 4))
  no_trace <- calm:::new_calm_fit(fit$amat, sigma = NULL)
  with_png({
    expect_error(plot_trace(no_trace), "no optimizer trace", class = "calm_error_argument")
    expect_error(plot_trace(fit$trace[, c("round", "h")]), "objective",
                 class = "calm_error_argument")
    expect_error(plot_trace(1:3), class = "calm_error_argument")
  })
})

test_that("plot.calm_fit draws the graph, the CPDAG, the comparison or the trace", {
  fit <- trace_fit()
  expect_identical(plot_to_png(plot(fit)), fit)
  expect_identical(plot_to_png(plot(fit, cpdag = FALSE)), fit)
  expect_identical(plot_to_png(plot(fit, type = "trace")), fit)
  st <- plot_to_png(plot(fit, truth = fit$dag))
  expect_true(all(st$status == "correct"))
  # a fit that holds only a CPDAG (as from PC or GES)
  cp <- calm:::new_calm_fit(fit$cpdag_amat, is_cpdag = TRUE, method = "pc")
  expect_identical(plot_to_png(plot(cp)), cp)
  with_png(expect_error(plot(fit, type = "nope")))
})

test_that("bootstrap plots label real strengths and write edges from -> to", {
  set.seed(8)
  sem <- simulate_sem(4, k = 1, n = 100)
  nm <- colnames(sem$x)
  # a learner whose graphs alternate: X1 -> X2 always, X3 -> X4 in every
  # other replicate, X2 -> X3 twice one way and once the other
  k <- 0
  graphs <- list(c("X1", "X2", "X3", "X4", "X2", "X3"), c("X1", "X2", "X3", "X2"),
                 c("X1", "X2", "X3", "X4", "X2", "X3"), c("X1", "X2"))
  learner <- function(d) {
    k <<- k + 1
    m <- matrix(0, 4, 4, dimnames = list(nm, nm))
    e <- matrix(graphs[[(k - 1) %% 4 + 1]], ncol = 2, byrow = TRUE)
    m[e] <- 1
    m
  }
  bs <- bootstrap_edges(sem$x, R = 4, learner = learner)
  s <- bs$dag
  lab <- calm:::edge_strength_labels(s, c("X1", "X3", "X2"), c("X2", "X4", "X3"), c("->", "->", "->"))
  expect_identical(lab, c("1.00 / 1.00", "0.50 / 1.00", "0.75 / 0.67"))
  sh <- calm:::strength_shares(transform(s, undirected = 0), top = 10)
  expect_identical(colnames(sh), c("X1 -> X2", "X2 -> X3", "X3 -> X4"))
  expect_equal(unname(sh[, "X2 -> X3"]), c(0.5, 0.25, 0))
})

test_that("no example calls an internal function", {
  rd <- tools::Rd_db("calm")
  ex <- vapply(rd, function(r) paste(utils::capture.output(tools::Rd2ex(r)), collapse = "\n"), "")
  expect_false(any(grepl("calm:::", ex, fixed = TRUE)), info = paste(names(rd)[grepl("calm:::", ex, fixed = TRUE)], collapse = ", "))
})

# The geometry plot.calm_fit() draws for a 0/1 graph matrix: its layered
# layout in igraph's plot coordinates, the node radius, and the bend and
# clearance of each edge.
drawn_geometry <- function(m) {
  nodes <- rownames(m)
  xy <- calm:::dag_layout(igraph::graph_from_adjacency_matrix((m != 0) * 1))
  idx <- which((m != 0 & t(m) == 0) | (m != 0 & upper.tri(m)), arr.ind = TRUE)
  c(list(xy = calm:::plot_coords(xy), idx = idx), calm:::edge_drawing(xy, idx[, 1], idx[, 2], nodes))
}

test_that("no drawn edge passes over a node other than its ends", {
  cons <- as_amat(sachs_consensus)
  # the DAG calm(sachs) drew with pka -> erk straight through pip2
  nm <- colnames(sachs)
  fit_dag <- matrix(0, 11, 11, dimnames = list(nm, nm))
  fit_dag[rbind(c("mek", "raf"), c("pip3", "plc"), c("pip3", "pip2"), c("pka", "erk"),
                c("pka", "akt"), c("akt", "erk"), c("p38", "pkc"), c("jnk", "pkc"))] <- 1
  g <- drawn_geometry(fit_dag)
  e <- which(rownames(fit_dag)[g$idx[, 1]] == "pka" & rownames(fit_dag)[g$idx[, 2]] == "erk")
  expect_lt(calm:::edge_clearance(g$xy, g$idx[e, 1], g$idx[e, 2], 0, g$r), g$r)
  expect_gt(g$clearance[e], g$r)
  graphs <- list(sachs_fit = fit_dag, sachs_dag = cons,
                 sachs_cpdag = dag_to_cpdag(cons, output = "matrix"))
  for (d in c(11, 30, 60)) {
    set.seed(d)
    b <- simulate_dag(d, k = 1.5)
    graphs[[paste0("er", d)]] <- b
    graphs[[paste0("er", d, "_cpdag")]] <- dag_to_cpdag(b, output = "matrix")
  }
  straight_hits <- 0
  for (nm in names(graphs)) {
    g <- drawn_geometry(graphs[[nm]])
    expect_true(all(g$clearance > g$r), label = nm)
    expect_gte(g$size, 6)
    # the straight segments the bends replace would cross nodes
    straight <- vapply(seq_len(nrow(g$idx)), function(e) {
      calm:::edge_clearance(g$xy, g$idx[e, 1], g$idx[e, 2], 0, g$r)
    }, numeric(1))
    straight_hits <- straight_hits + sum(straight < g$r)
  }
  expect_gt(straight_hits, 0)
})

test_that("the edge path follows igraph's X-spline", {
  grDevices::pdf(NULL)
  on.exit(grDevices::dev.off())
  graphics::plot.new()
  graphics::plot.window(c(-1, 1), c(-1, 1), asp = 1)
  for (bend in c(0.3, -0.9)) {
    a <- c(-0.6, 0.2)
    b <- c(0.5, -0.4)
    p <- calm:::edge_path(a, b, bend, r = 0)
    mid <- (a + b) / 2
    ctrl <- mid + bend / 2 * c(-(b[2] - a[2]), b[1] - a[1])
    s <- graphics::xspline(c(a[1], ctrl[1], b[1]), c(a[2], ctrl[2], b[2]), shape = 1, draw = FALSE)
    # every point of R's curve lies near the path
    gap <- vapply(seq_along(s$x), function(i) min(sqrt((p[, 1] - s$x[i])^2 + (p[, 2] - s$y[i])^2)),
                  numeric(1))
    expect_lt(max(gap), 0.02)
  }
})

test_that("bootstrap edge labels never cover a node or each other", {
  set.seed(30)
  b <- simulate_dag(30, k = 1.5)
  m <- dag_to_cpdag(b, output = "matrix")
  g <- drawn_geometry(m)
  paths <- lapply(seq_len(nrow(g$idx)), function(e) {
    calm:::edge_path(g$xy[g$idx[e, 1], ], g$xy[g$idx[e, 2], ], g$curved[e], g$r)
  })
  w <- rep(0.16, length(paths))
  h <- rep(0.05, length(paths))
  pl <- calm:::place_labels(g$xy, g$r, paths, w, h)
  expect_gt(sum(pl$kept), length(paths) / 3)
  k <- which(pl$kept)
  boxes <- cbind(pl$x[k] - w[k] / 2, pl$x[k] + w[k] / 2, pl$y[k] - h[k] / 2, pl$y[k] + h[k] / 2)
  for (i in seq_along(k)) {
    expect_false(calm:::box_hits_circles(boxes[i, ], g$xy, g$r))
    expect_false(calm:::box_hits_boxes(boxes[i, ], boxes[-i, , drop = FALSE]))
  }
  # labels at the middle of every edge, as before, would pile up
  mids <- t(vapply(paths, function(p) p[21, ], numeric(2)))
  all_boxes <- cbind(mids[, 1] - 0.08, mids[, 1] + 0.08, mids[, 2] - 0.025, mids[, 2] + 0.025)
  clash <- vapply(seq_len(nrow(all_boxes)), function(i) {
    calm:::box_hits_boxes(all_boxes[i, ], all_boxes[-i, , drop = FALSE])
  }, logical(1))
  expect_true(any(clash))
})

test_that("large graphs fill a wide device, with labels of readable size", {
  set.seed(100)
  d <- 100
  g <- igraph::graph_from_adjacency_matrix(simulate_dag(d, k = 1))
  xy <- calm:::dag_layout(g)
  nodes <- paste0("X", seq_len(d))
  e <- igraph::as_edgelist(g, names = FALSE)
  f <- withr::local_tempfile(fileext = ".png")
  grDevices::png(f, width = 1000, height = 800)
  dev <- grDevices::dev.cur()
  geo <- tryCatch({
    graphics::par(mar = c(0.5, 0.5, 2, 0.5))
    asp <- calm:::plot_aspect()
    attr(xy, "aspect") <- asp
    list(asp = asp, xy = calm:::plot_coords(xy),
         style = calm:::edge_drawing(xy, e[, 1], e[, 2], nodes))
  }, finally = grDevices::dev.off(dev))
  expect_gt(geo$asp, 1.2)
  # the drawing spans the device's width, not a centred square
  expect_equal(range(geo$xy[, 1]), c(-1, 1) * geo$asp)
  expect_equal(range(geo$xy[, 2]), c(-1, 1))
  # labels of at least 0.6 of the device's text size (they were 0.45)
  expect_gte(geo$style$cex, 0.6)
  # and the plots draw
  sem <- simulate_sem(50, k = 1, n = 200)
  bs <- bootstrap_edges(sem$x, R = 2, learner = boss, starts = 1)
  expect_identical(plot_to_png(plot(bs), width = 1000, height = 800), bs)
})
