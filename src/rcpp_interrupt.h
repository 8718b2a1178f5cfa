// The one interrupt check the Rcpp glue hands to the C++ core. A user's
// Ctrl-C is caught with R_ToplevelExec, so that R's longjmp never crosses
// C++ frames. Cores that poll a flag (the progress callback of the
// optimizers, IAMB, the order enumeration) see `true` from
// user_interrupted(), return normally, and the glue then calls
// rethrow_interrupt(); cores that take a void callback (the searches) get
// interrupt_check(), which throws the same exception through their frames,
// whose objects own all their memory.
#ifndef CALM_RCPP_INTERRUPT_H
#define CALM_RCPP_INTERRUPT_H

#include <Rcpp.h>
#include <R_ext/Utils.h>
#include <Rinternals.h>

#include "progress.h"

namespace calm_glue {

inline void check_interrupt_fn(void*) { R_CheckUserInterrupt(); }

inline bool user_interrupted() { return R_ToplevelExec(check_interrupt_fn, nullptr) == FALSE; }

// Signals an interrupt the core saw to R.
inline void rethrow_interrupt(bool interrupted) {
  if (interrupted) throw Rcpp::internal::InterruptedException();
}

// The void callback of the searches.
inline void interrupt_check() { rethrow_interrupt(user_interrupted()); }

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
