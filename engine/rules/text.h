#pragma once
// Small text helpers for messages. (Also sidesteps GCC 12's false -Wrestrict warning on
// `"\"" + std::string`.)

#include <string>
#include <string_view>

namespace diskref::rules {

// The text in double quotes: in_quotes("tderet") is "\"tderet\"".
inline std::string in_quotes(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 2);
  out += '"';
  out += text;
  out += '"';
  return out;
}

}  // namespace diskref::rules
