#pragma once
// Test support: reading liblo's message arguments. OSC aligns them to 4 bytes and liblo hands
// them over as `lo_arg*`, a union with 8-byte members: reading `argv[i]->i` is a misaligned access
// (UndefinedBehaviorSanitizer says so). These read the bytes instead.

#include <lo/lo.h>

#include <cstdint>
#include <cstring>
#include <string>

namespace diskref::testing {

inline std::int32_t osc_int(const lo_arg* a) {
  std::int32_t v = 0;
  std::memcpy(&v, a, sizeof v);
  return v;
}

inline float osc_float(const lo_arg* a) {
  float v = 0;
  std::memcpy(&v, a, sizeof v);
  return v;
}

inline std::string osc_string(const lo_arg* a) {
  return reinterpret_cast<const char*>(a);
}

}  // namespace diskref::testing
