// The one interrupt check the Rcpp glue hands to the C++ core, inside the
// one progress callback (progress_callback()). A user's
// Ctrl-C is caught with R_ToplevelExec, so that R's longjmp never crosses
// C++ frames: the core sees `true`, returns normally, and the glue then
// signals the interrupt to R (Rcpp::internal::InterruptedException).
#ifndef CALM_RCPP_INTERRUPT_H
#define CALM_RCPP_INTERRUPT_H

#include <R_ext/Utils.h>
#include <Rinternals.h>

#include "progress.h"

namespace calm_glue {

inline void check_interrupt_fn(void*) { R_CheckUserInterrupt(); }

inline bool user_interrupted() { return R_ToplevelExec(check_interrupt_fn, nullptr) == FALSE; }

// The progress callback (src/progress.h) the glue hands to every iterative
// optimizer: stops it on a user interrupt, and otherwise passes the progress
// on to report (a callable taking const calm::Progress&, which may call the
// user's R function).
template <class Report>
calm::ProgressFn progress_callback(Report report) {
  return [report](const calm::Progress& p) {
    if (user_interrupted()) return true;
    report(p);
    return false;
  };
}

}  // namespace calm_glue

#endif
