#include "vision/settle_clock.h"

#include <cmath>
#include <stdexcept>

namespace diskref::vision {

SettleClock::SettleClock(double window_s) : window_s_(window_s) {
  if (!(std::isfinite(window_s) && window_s >= 0)) throw std::invalid_argument("settle window must be >= 0 s");
}

bool SettleClock::update(double t, bool quiet) {
  if (!quiet || !last_busy_t_) last_busy_t_ = t;
  // A hair of tolerance: frame times are k / fps, and 15 frames at 30 fps are 0.5 s.
  return t - *last_busy_t_ >= window_s_ - 1e-9;
}

}  // namespace diskref::vision
