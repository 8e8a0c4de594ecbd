#pragma once
// When the table is settled (spec §9): it has been quiet — no disk moving, nothing but disks over
// the play area — in every frame of the last `window_s` seconds. The first frame starts the
// clock: nothing was watched before it, so the earliest settle is `window_s` after it. The ground
// truth (simulator/truth.h) settles by the same rule, so that a settle's latency can be measured.

#include <optional>

namespace diskref::vision {

class SettleClock {
 public:
  // Throws std::invalid_argument for a negative or non-finite window.
  explicit SettleClock(double window_s);

  // One frame (in time order): whether the table is settled now.
  bool update(double t, bool quiet);
  // Forget the past (after a seek): the next frame starts the clock again.
  void reset() { last_busy_t_.reset(); }
  double window_s() const { return window_s_; }

 private:
  double window_s_;
  std::optional<double> last_busy_t_;
};

}  // namespace diskref::vision
