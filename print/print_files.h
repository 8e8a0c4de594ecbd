#pragma once
// Print-ready files from raster pages at a known resolution: PNG with the resolution in its pHYs
// chunk, and a minimal PDF whose pages each hold one image at its exact physical size.
//
// The PDF embeds each page's pixels as a Flate-compressed image XObject. OpenCV's PNG encoder
// already produces exactly that stream (zlib data with PNG row predictors), so the IDAT data of
// cv::imencode(".png") is embedded as is, with /DecodeParms telling the reader about the
// predictors (PDF 1.2+, "FlateDecode ... /Predictor 15"): no PDF library, and no second compression
// pass, is needed. The pHYs chunk's CRC is zlib's crc32.

#include <filesystem>
#include <string>
#include <vector>

#include <opencv2/core.hpp>

namespace diskref::print {

// Writes a BGR or grey 8-bit image as PNG with `dpi` recorded (pHYs, pixels per metre).
// Throws std::runtime_error when the file cannot be written.
void write_png_with_dpi(const cv::Mat& image, double dpi, const std::filesystem::path& file);

// The bytes of a PNG with a pHYs chunk for `dpi` (exposed for tests).
std::vector<uint8_t> png_with_dpi(const cv::Mat& image, double dpi);

// Writes a PDF with one page per image, each page exactly the image's size at `dpi`.
void write_pdf(const std::vector<cv::Mat>& pages, double dpi, const std::filesystem::path& file);

}  // namespace diskref::print
