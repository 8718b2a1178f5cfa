#!/usr/bin/env bash
# src/Makevars lists what is compiled (OBJECTS): the glue's single unit
# rcpp_all.cpp and the core files. A C++ file in neither that list nor
# rcpp_all.cpp would be left out of the build and only fail when R loads
# calm; this says which. Run by tools/run-tests.sh.
set -euo pipefail
cd "$(dirname "$0")/../src"
objects=$(sed -n '/^OBJECTS *=/,/^[^ ]*$/p' Makevars | tr -d '\\' | tr ' ' '\n' | sed -n 's/\.o$//p')
status=0
for f in *.cpp; do
  name=${f%.cpp}
  if [ "$name" = rcpp_all ]; then continue; fi
  if printf '%s\n' $objects | grep -qx "$name"; then continue; fi
  if grep -qx "#include \"$f\"" rcpp_all.cpp; then continue; fi
  echo "src/$f is compiled by nothing: add $name.o to OBJECTS in src/Makevars (core) or #include it in src/rcpp_all.cpp (glue)"
  status=1
done
for name in $objects; do
  [ -f "$name.cpp" ] || { echo "src/Makevars lists $name.o, but src/$name.cpp does not exist"; status=1; }
done
exit "$status"
