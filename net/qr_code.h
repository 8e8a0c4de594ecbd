#pragma once
// A QR code's modules for a short text (the feed's address with its token), encoded once by
// libqrencode (Debian libqrencode-dev) and drawn by whoever shows it: the terminal in half blocks
// (net/access_notice.h), the companion screen in rectangles (ui/).

#include <cstdint>
#include <string>
#include <vector>

namespace diskref::net {

struct QrMatrix {
  int width = 0;                   // modules a side; 0 when the text could not be encoded
  std::vector<std::uint8_t> dark;  // width x width, row by row: 1 dark, 0 light
  // The quiet zone (light modules all round) that a reader needs: the standard asks for 4.
  static constexpr int kQuietZone = 4;

  // Outside the code (the quiet zone and beyond) is light.
  bool is_dark(int x, int y) const {
    return x >= 0 && y >= 0 && x < width && y < width && dark[static_cast<std::size_t>(y * width + x)] != 0;
  }
};

// The smallest code that holds `text` (8-bit mode, error correction L: the text is short and a
// screen or terminal is clean); width 0 when it cannot be encoded (too long).
QrMatrix qr_matrix(const std::string& text);

}  // namespace diskref::net
