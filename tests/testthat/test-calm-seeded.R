# The same seed gives bit for bit the same continuous phase as the stored
# results (fixtures/calm-seeded.rds, made before the optimizer was split
# into parts). The arithmetic depends on the kernel build and the compiler,
# so the comparison runs where the stored results were made with the same
# kernel build, and not on CRAN. The fits start from the stored data sets,
# so R's BLAS and LAPACK (reference or OpenBLAS) do not enter.
test_that("seeded fits reproduce the stored continuous phase bit for bit", {
  skip_on_cran()
  ref <- readRDS(test_path("fixtures", "calm-seeded.rds"))
  isa <- if (calm:::cpp_calm_simd_available()) "avx2" else "generic"
  skip_if(!identical(ref$a$isa, isa), "the stored results were made with another kernel build")
  got <- seeded_fits(lapply(ref, function(r) r$x))
  # the trace gained the per-round skipped count after the results were stored
  for (nm in names(ref)) {
    tr <- got[[nm]]$trace[names(ref[[nm]]$trace)]
    expect_identical(got[[nm]]$B_raw, ref[[nm]]$B_raw, label = paste(nm, "B_raw"))
    expect_identical(tr, ref[[nm]]$trace, label = paste(nm, "trace"))
    # B and the objective come from the least-squares refit on the learned
    # graph, which goes through R's solve() (LAPACK): same graph, weights
    # equal up to LAPACK's rounding
    expect_identical(got[[nm]]$B != 0, ref[[nm]]$B != 0, label = paste(nm, "graph"))
    expect_equal(got[[nm]]$B, ref[[nm]]$B, tolerance = 1e-10, label = paste(nm, "B"))
    expect_equal(got[[nm]]$objective, ref[[nm]]$objective, tolerance = 1e-10,
                 label = paste(nm, "objective"))
  }
  # early stopping ended some rounds early in the default-control cases
  expect_true(any(ref$a$trace$steps < 3000))
  expect_true(any(ref$c$trace$steps < 3000))
})
