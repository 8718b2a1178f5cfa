# The README's two commands. Both install what is missing first.
#   make demo   install calm and run its main job (inst/examples/demo.R)
#   make test   install calm's dependencies and run the whole test suite
#   make bench  time the optimizer (inst/bench/bench_calm.R)
#               (R CMD build, then R CMD check of the tarball, with the tests)
#   make site   build the pkgdown website into docs/, offline (tools/build-site.R)
#   make site-check  open every page of docs/ in headless Chromium
#               (tools/check-site.sh), and show that a broken page fails it
R ?= R
RSCRIPT ?= Rscript
PKG := calm
VERSION := $(shell sed -n 's/^Version: //p' DESCRIPTION)
TARBALL := $(PKG)_$(VERSION).tar.gz

.PHONY: deps demo test check install document bench clean readme site site-check

deps:
	bash tools/install-deps.sh

document:
	$(RSCRIPT) -e 'Rcpp::compileAttributes(); roxygen2::roxygenise(load_code = "source")'

install: deps
	$(R) CMD INSTALL --preclean --no-multiarch .

demo: install
	$(RSCRIPT) inst/examples/demo.R

# README.md is rendered from README.Rmd by knitr (no pandoc), with the
# installed calm, so its example output cannot drift from the package.
readme: install
	$(RSCRIPT) -e 'knitr::knit("README.Rmd", "README.md", quiet = TRUE)'

$(TARBALL): deps
	$(R) CMD build .

test: deps
	bash tools/run-tests.sh

check: test

# Per-step timings of the optimizer (about 20 seconds);
# the full benchmarks are the scripts in inst/bench/.
bench: install
	$(RSCRIPT) inst/bench/bench_calm.R steps

# The website (about a minute and a half, plus calm's installation into a
# temporary library unless CALM_SITE_LIB names a library that has it).
site: deps
	$(RSCRIPT) tools/build-site.R

site-check:
	bash tools/check-site.sh
	bash tools/check-site-selftest.sh

clean:
	rm -rf $(PKG).Rcheck $(PKG)_*.tar.gz src/*.o src/*.so docs
