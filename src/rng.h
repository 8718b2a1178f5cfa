// A small, fast, seeded random number generator for the optimizers:
// xoshiro256++ (Blackman and Vigna, 2019) with its state filled by
// splitmix64 from one 64-bit seed. R draws the seed, so set.seed() in R
// reproduces every run; each restart gets its own generator.
//
// Its members are inline: include this header only in translation units
// built for the baseline instruction set (not in calm_kernel_avx2.cpp).
#ifndef CALM_RNG_H
#define CALM_RNG_H

#include <cmath>
#include <cstdint>

namespace calm {

class Rng {
 public:
  explicit Rng(std::uint64_t seed) { this->seed(seed); }

  void seed(std::uint64_t seed) {
    std::uint64_t z = seed;
    for (int i = 0; i < 4; ++i) s_[i] = splitmix64(z);
    has_spare_ = false;
  }

  std::uint64_t next() {
    const std::uint64_t result = rotl(s_[0] + s_[3], 23) + s_[0];
    const std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }

  // Uniform on [0, 1) with 53 random bits.
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

  // Uniform on the open interval (0, 1): the midpoints of the 2^53 cells,
  // so that log(u) and log(1 - u) are always finite.
  double uniform_open() { return (static_cast<double>(next() >> 11) + 0.5) * 0x1.0p-53; }

  double uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }

  // Standard normal by the polar Box-Muller method (pairs; one is cached).
  double normal() {
    if (has_spare_) {
      has_spare_ = false;
      return spare_;
    }
    double u, v, s;
    do {
      u = 2.0 * uniform() - 1.0;
      v = 2.0 * uniform() - 1.0;
      s = u * u + v * v;
    } while (s >= 1.0 || s == 0.0);
    const double f = std::sqrt(-2.0 * std::log(s) / s);
    spare_ = v * f;
    has_spare_ = true;
    return u * f;
  }

 private:
  static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

  static std::uint64_t splitmix64(std::uint64_t& x) {
    std::uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }

  std::uint64_t s_[4];
  double spare_ = 0.0;
  bool has_spare_ = false;
};

}  // namespace calm

#endif
