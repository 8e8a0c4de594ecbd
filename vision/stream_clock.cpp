#include "vision/stream_clock.h"

namespace diskref::vision {

double StreamClock::place(double stream_t, double now) {
  if (!offset_) {
    offset_ = now - stream_t;
  } else {
    const double stream_step = stream_t - last_stream_t_;
    const double local_step = now - last_now_;
    if (stream_step < 0 || stream_step > local_step + kLeapS) {
      offset_ = now - stream_t;
      ++replaced_;
    }
  }
  last_stream_t_ = stream_t;
  last_now_ = now;
  return *offset_ + stream_t;
}

}  // namespace diskref::vision
