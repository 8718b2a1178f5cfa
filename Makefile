# The README's two commands. Both install what is missing first, and only
# what their task needs (tools/install-deps.sh TASK).
#   make demo   install calm and run its main job (inst/examples/demo.R)
#   make test   install calm's dependencies and run the whole test suite
#               (R CMD build, then R CMD check of the tarball, with the tests)
#   make install  build the tarball (with the vignettes) and install it
#   make bench  time the optimizer (inst/bench/bench_calm.R)
#   make site   build the pkgdown website into docs/, offline (tools/build-site.R)
#   make site-check  open every page of docs/ in headless Chromium
#               (tools/check-site.sh), and show that a broken page fails it
R ?= R
RSCRIPT ?= Rscript
PKG := calm
VERSION := $(shell sed -n 's/^Version: //p' DESCRIPTION)
TARBALL := $(PKG)_$(VERSION).tar.gz
# C++ files compiled in parallel, one per core (R CMD INSTALL's make)
JOBS ?= $(shell nproc 2>/dev/null || echo 2)

.PHONY: deps demo test check install document bench clean readme site site-check

deps:
	bash tools/install-deps.sh all

document:
	$(RSCRIPT) -e 'Rcpp::compileAttributes(); roxygen2::roxygenise(load_code = "source")'

# The vignettes come with the installation only from a built tarball
# (R CMD build runs them; installing from the source directory skips them).
# Without pandoc the tarball is built without them, and the install says so.
# --strip drops the debug information of R's default -g (47 MB -> 1 MB).
install:
	bash tools/install-deps.sh demo
	rm -f $(TARBALL)
	@if command -v pandoc >/dev/null 2>&1; then v=""; else \
	  echo "NOTE: pandoc is missing: calm is installed without its vignettes"; v="--no-build-vignettes"; fi; \
	  echo "== R CMD build (compiles calm once to run the vignettes)"; \
	  MAKEFLAGS=-j$(JOBS) $(R) CMD build $$v . && \
	  echo "== R CMD INSTALL $(TARBALL)" && \
	  MAKEFLAGS=-j$(JOBS) R_STRIP_SHARED_LIB="strip --strip-debug" \
	    $(R) CMD INSTALL --no-multiarch --strip $(TARBALL)

demo: install
	$(RSCRIPT) inst/examples/demo.R

# README.md is rendered from README.Rmd by knitr (no pandoc), with the
# installed calm, so its example output cannot drift from the package.
readme: install
	$(RSCRIPT) -e 'knitr::knit("README.Rmd", "README.md", quiet = TRUE)'

test:
	bash tools/install-deps.sh test
	bash tools/run-tests.sh

check: test

# Per-step timings of the optimizer (about 20 seconds);
# the full benchmarks are the scripts in inst/bench/.
bench: install
	$(RSCRIPT) inst/bench/bench_calm.R steps

# The website (about a minute and a half, plus calm's installation into a
# temporary library unless CALM_SITE_LIB names a library that has it).
site:
	bash tools/install-deps.sh site
	$(RSCRIPT) tools/build-site.R

site-check:
	bash tools/install-deps.sh site-check
	bash tools/check-site.sh
	bash tools/check-site-selftest.sh

clean:
	rm -rf $(PKG).Rcheck $(PKG)_*.tar.gz src/*.o src/*.so docs
