#pragma once
// Numbers in messages and reports: fixed decimals, no locale surprises.

#include <cstdio>
#include <string>

namespace diskref::io {

inline std::string fixed(double value, int decimals) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}

}  // namespace diskref::io
