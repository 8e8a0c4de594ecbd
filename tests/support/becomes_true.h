// Waits for something another thread does, by asking until it is so: no pause between asks, so
// the test goes on the moment it is true. The limit is a failure's bound (a test that would
// otherwise hang), never a measure of speed.
#pragma once

#include <chrono>
#include <thread>

namespace diskref::testing {

template <class Condition>
bool becomes_true(Condition&& condition, std::chrono::seconds limit = std::chrono::seconds(30)) {
  const auto give_up = std::chrono::steady_clock::now() + limit;
  while (!condition()) {
    if (std::chrono::steady_clock::now() > give_up) return false;
    std::this_thread::yield();
  }
  return true;
}

}  // namespace diskref::testing
