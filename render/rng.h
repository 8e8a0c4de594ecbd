#pragma once
// A small deterministic random generator for rendering. std::normal_distribution and friends
// differ between standard libraries; these draws are the same everywhere for a given seed, so a
// scenario renders to the same frames and truth on every machine.

#include <cmath>
#include <cstdint>
#include <numbers>

namespace diskref::render {

// SplitMix64 (Steele, Lea, Flood 2014): one 64-bit state, good statistical quality, trivially
// seedable; several generators can be derived from one seed with `fork`.
class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}

  uint64_t next_u64() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // Uniform in [0, 1).
  double uniform() { return static_cast<double>(next_u64() >> 11) * 0x1.0p-53; }
  double uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }
  // Uniform integer in [lo, hi].
  int uniform_int(int lo, int hi) {
    return lo + static_cast<int>(next_u64() % static_cast<uint64_t>(hi - lo + 1));
  }
  // Standard normal (Box-Muller; one draw per call for simplicity).
  double normal() {
    double u1 = uniform();
    double u2 = uniform();
    if (u1 < 1e-300) u1 = 1e-300;
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
  }
  // An independent generator for a named sub-stream (e.g. one per frame), so that adding draws
  // in one place does not change the draws of another.
  Rng fork(uint64_t stream) const {
    Rng r(state_ ^ (stream * 0xD1B54A32D192ED03ull + 0x632BE59BD9B4E019ull));
    r.next_u64();
    return r;
  }

 private:
  uint64_t state_;
};

}  // namespace diskref::render
