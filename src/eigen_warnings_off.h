// Included right before a third-party header that includes Eigen, with
// eigen_warnings_on.h right after it: switches GCC's -Wignored-attributes
// off for that header only (see calm_eigen.h for why). No include guard:
// every inclusion pushes the diagnostic state again.
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wignored-attributes"
#endif
