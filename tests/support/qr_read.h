#pragma once
// Test support: what a phone's camera would read from a QR code, by zbar (Debian libzbar-dev;
// OpenCV's QR decoder needs quirc, which Debian's OpenCV is built without): from a grey picture (a
// screenshot), or from a QrMatrix drawn as one.
#include <zbar.h>

#include <cstdint>
#include <string>
#include <vector>

#include "net/qr_code.h"

namespace diskref::testing {

// The text of the first QR code in a grey picture (`width` x `height`, one byte a pixel, rows one
// after another); empty when none is read.
inline std::string read_qr_in_grey(const std::uint8_t* grey, int width, int height) {
  using namespace zbar;  // in C++, zbar.h declares its C API in namespace zbar
  zbar_image_scanner_t* scanner = zbar_image_scanner_create();
  zbar_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_ENABLE, 0);
  zbar_image_scanner_set_config(scanner, ZBAR_QRCODE, ZBAR_CFG_ENABLE, 1);
  zbar_image_t* image = zbar_image_create();
  zbar_image_set_format(image, zbar_fourcc('Y', '8', '0', '0'));
  zbar_image_set_size(image, static_cast<unsigned>(width), static_cast<unsigned>(height));
  zbar_image_set_data(image, grey, static_cast<unsigned long>(width) * static_cast<unsigned long>(height), nullptr);
  std::string text;
  if (zbar_scan_image(scanner, image) > 0)
    if (const zbar_symbol_t* symbol = zbar_image_first_symbol(image))
      text.assign(zbar_symbol_get_data(symbol), zbar_symbol_get_data_length(symbol));
  zbar_image_destroy(image);
  zbar_image_scanner_destroy(scanner);
  return text;
}

// `code` drawn dark on white with its quiet zone, `px` pixels a module, then read.
inline std::string read_qr(const net::QrMatrix& code, int px = 6) {
  const int modules = code.width + 2 * net::QrMatrix::kQuietZone, side = modules * px;
  std::vector<std::uint8_t> grey(static_cast<std::size_t>(side) * static_cast<std::size_t>(side), 255);
  for (int y = 0; y < side; ++y)
    for (int x = 0; x < side; ++x)
      if (code.is_dark(x / px - net::QrMatrix::kQuietZone, y / px - net::QrMatrix::kQuietZone))
        grey[static_cast<std::size_t>(y) * static_cast<std::size_t>(side) + static_cast<std::size_t>(x)] = 0;
  return read_qr_in_grey(grey.data(), side, side);
}

}  // namespace diskref::testing
