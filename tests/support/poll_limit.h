// A wait's bound as poll() takes it: milliseconds, never negative (a bound already passed asks
// once, where a negative number would wait for ever).
#pragma once

#include <algorithm>
#include <chrono>

namespace diskref::testing {

inline int poll_limit(std::chrono::milliseconds limit) {
  return static_cast<int>(std::clamp<std::chrono::milliseconds::rep>(limit.count(), 0, 24 * 3600 * 1000));
}

}  // namespace diskref::testing
