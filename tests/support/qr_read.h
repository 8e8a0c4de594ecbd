#pragma once
// Test support: what a phone's camera would read from a QR code, by OpenCV's QR decoder (Debian
// libopencv-objdetect): from a picture (a screenshot), or from a QrMatrix drawn as a picture.
#include <string>

#include <opencv2/imgproc.hpp>
#include <opencv2/objdetect.hpp>

#include "net/qr_code.h"

namespace diskref::testing {

// The text of the QR code in `image` (BGR or grey); empty when none is read.
inline std::string read_qr_in(const cv::Mat& image) {
  cv::QRCodeDetector detector;
  return detector.detectAndDecode(image);
}

// `code` drawn dark on white with its quiet zone, `px` pixels a module, then read.
inline std::string read_qr(const net::QrMatrix& code, int px = 6) {
  const int modules = code.width + 2 * net::QrMatrix::kQuietZone;
  cv::Mat image(modules * px, modules * px, CV_8UC1, cv::Scalar(255));
  for (int y = 0; y < code.width; ++y)
    for (int x = 0; x < code.width; ++x)
      if (code.is_dark(x, y))
        image(cv::Rect((x + net::QrMatrix::kQuietZone) * px, (y + net::QrMatrix::kQuietZone) * px, px, px)).setTo(0);
  return read_qr_in(image);
}

}  // namespace diskref::testing
