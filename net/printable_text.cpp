#include "net/printable_text.h"

namespace diskref::net {
namespace {

void append_escaped(std::string& out, unsigned char byte) {
  static constexpr char kHex[] = "0123456789abcdef";
  out += "\\x";
  out += kHex[byte >> 4];
  out += kHex[byte & 15];
}

// The length of the valid UTF-8 sequence starting at `at` (1..4), or 0 when it is not one
// (overlong forms, surrogates and code points above U+10FFFF are not valid).
std::size_t utf8_length(std::string_view s, std::size_t at) {
  const auto b = [&](std::size_t i) { return static_cast<unsigned char>(s[at + i]); };
  const unsigned char first = b(0);
  std::size_t n = 0;
  unsigned min = 0;
  if (first >= 0xc2 && first <= 0xdf)
    n = 2, min = 0x80;
  else if (first >= 0xe0 && first <= 0xef)
    n = 3, min = 0x800;
  else if (first >= 0xf0 && first <= 0xf4)
    n = 4, min = 0x10000;
  else
    return 0;
  if (at + n > s.size()) return 0;
  unsigned code = first & (0x7f >> n);
  for (std::size_t i = 1; i < n; ++i) {
    if ((b(i) & 0xc0) != 0x80) return 0;
    code = (code << 6) | (b(i) & 0x3f);
  }
  if (code < min || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return 0;
  return n;
}

}  // namespace

std::string printable(std::string_view text, std::size_t max_bytes) {
  std::string out;
  std::size_t at = 0;
  while (at < text.size() && out.size() < max_bytes) {
    const auto byte = static_cast<unsigned char>(text[at]);
    if (byte < 0x80) {
      if (byte < 0x20 || byte == 0x7f)
        append_escaped(out, byte);
      else if (byte == '\\')
        out += "\\\\";
      else
        out += static_cast<char>(byte);
      ++at;
      continue;
    }
    const std::size_t n = utf8_length(text, at);
    // C1 controls (U+0080..U+009F) are 0xC2 0x80..0x9F in UTF-8: a terminal may obey them too.
    const bool c1 = n == 2 && byte == 0xc2 && static_cast<unsigned char>(text[at + 1]) < 0xa0;
    if (n == 0 || c1) {
      append_escaped(out, byte);
      ++at;
      continue;
    }
    out.append(text.substr(at, n));
    at += n;
  }
  if (at < text.size()) out += "…";
  return out;
}

}  // namespace diskref::net
