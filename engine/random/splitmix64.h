#pragma once
// diskref's one pseudo-random generator: SplitMix64 (Steele, Lea, Flood 2014). The whole state is
// one 64-bit word, so it can live inside a value (the rules keep it in the game state and a game
// replays from its seed) and a stream can be forked per frame or per object (the simulator).
// std::normal_distribution and friends differ between standard libraries; these draws are the
// same everywhere for a given seed.

#include <cmath>
#include <cstdint>
#include <numbers>

namespace diskref::random {

// Advances `state` by one step and returns the next 64 random bits.
constexpr std::uint64_t splitmix64_next(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// Uniform in [0, 1) from the top 53 bits.
constexpr double unit_interval(std::uint64_t bits) {
  return static_cast<double>(bits >> 11) * 0x1.0p-53;
}

// The generator as an object, for code that draws many numbers of several kinds.
class SplitMix64 {
 public:
  explicit SplitMix64(std::uint64_t seed) : state_(seed) {}

  std::uint64_t next_u64() { return splitmix64_next(state_); }
  // Uniform in [0, 1).
  double uniform() { return unit_interval(next_u64()); }
  double uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }
  // Uniform integer in [lo, hi].
  int uniform_int(int lo, int hi) {
    return lo + static_cast<int>(next_u64() % static_cast<std::uint64_t>(hi - lo + 1));
  }
  // Standard normal (Box-Muller; one draw per call for simplicity).
  double normal() {
    double u1 = uniform();
    double u2 = uniform();
    if (u1 < 1e-300) u1 = 1e-300;
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
  }
  // An independent generator for a named sub-stream (e.g. one per frame), so that adding draws in
  // one place does not change the draws of another.
  SplitMix64 fork(std::uint64_t stream) const {
    SplitMix64 r(state_ ^ (stream * 0xD1B54A32D192ED03ull + 0x632BE59BD9B4E019ull));
    r.next_u64();
    return r;
  }

 private:
  std::uint64_t state_;
};

}  // namespace diskref::random
