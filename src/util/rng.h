// A small deterministic random generator (splitmix64). It is written out here
// rather than taken from <random> because std::normal_distribution differs
// between libstdc++ (native) and libc++ (wasm): the same seed must give the
// same weights in both builds.
#pragma once

#include <cmath>
#include <cstdint>

namespace ae {

class Rng {
 public:
  // splitmix64's state is a counter: each draw adds kIncrement, then mixes it with kMix1, kMix2.
  static constexpr uint64_t kIncrement = 0x9E3779B97F4A7C15ull;
  static constexpr uint64_t kMix1 = 0xBF58476D1CE4E5B9ull, kMix2 = 0x94D049BB133111EBull;

  explicit Rng(uint64_t seed) : state_(seed) {}

  uint64_t next_u64() {
    uint64_t z = (state_ += kIncrement);
    z = (z ^ (z >> 30)) * kMix1;
    z = (z ^ (z >> 27)) * kMix2;
    return z ^ (z >> 31);
  }

  // Uniform in [0, 1) with 53 random bits.
  double uniform() { return static_cast<double>(next_u64() >> 11) * 0x1.0p-53; }

  // Standard normal by Box–Muller; the second value is dropped to keep the
  // stream position independent of call history.
  double normal() {
    double u1 = uniform();
    double u2 = uniform();
    if (u1 < 1e-300) u1 = 1e-300;  // log(0) would give -inf
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
  }

  // Uniform integer in [0, n).
  uint64_t below(uint64_t n) { return next_u64() % n; }

  // The counter itself: a vectorised draw (dropout_avx512.h) computes from it, then discards.
  uint64_t state() const { return state_; }

  // Skips the next n values of next_u64() (one addition).
  void discard(uint64_t n) { state_ += n * kIncrement; }

 private:
  uint64_t state_;
};

}  // namespace ae
