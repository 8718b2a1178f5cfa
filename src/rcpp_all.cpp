// The Rcpp glue as one translation unit (src/Makevars compiles this file and
// the core files, not the glue files one by one). Every glue file parses
// Rcpp's and RcppEigen's headers, about 7 s of compiler time each; together
// they parse them once. RcppExports.cpp comes last: it opens namespace Rcpp
// for the rest of its unit.
#include "rcpp_baselines.cpp"
#include "rcpp_search_boss.cpp"
#include "rcpp_calm.cpp"
#include "rcpp_search_exact.cpp"
#include "rcpp_search_ges.cpp"
#include "rcpp_graph.cpp"
#include "rcpp_iamb.cpp"
#include "rcpp_moments.cpp"
#include "rcpp_inconsistency.cpp"
#include "rcpp_knowledge.cpp"
#include "rcpp_search_score.cpp"
#include "rcpp_search_order.cpp"
#include "rcpp_search_scan.cpp"
#include "RcppExports.cpp"
