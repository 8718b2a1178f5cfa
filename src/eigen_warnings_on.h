// The end of eigen_warnings_off.h's region: restores the diagnostic state.
// No include guard: every inclusion pops it again.
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif
