// The one interrupt check the Rcpp glue hands to the C++ core. A user's
// Ctrl-C is caught with R_ToplevelExec, so that R's longjmp never crosses
// C++ frames: the core sees `true`, returns normally, and the glue then
// signals the interrupt to R (Rcpp::internal::InterruptedException).
#ifndef CALM_RCPP_INTERRUPT_H
#define CALM_RCPP_INTERRUPT_H

#include <R_ext/Utils.h>
#include <Rinternals.h>

namespace calm_glue {

inline void check_interrupt_fn(void*) { R_CheckUserInterrupt(); }

inline bool user_interrupted() { return R_ToplevelExec(check_interrupt_fn, nullptr) == FALSE; }

}  // namespace calm_glue

#endif
