#pragma once
// A photograph as a dispute brings it (spec §14): from a file or from bytes a phone uploaded,
// checked against limits before it is decoded, turned upright by its EXIF orientation, with the
// EXIF facts that help fit the camera (the focal length).
//
// A decompression bomb (a small file that claims 60 000 x 60 000 pixels) is refused from its
// header, before a pixel is decoded.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>

#include <opencv2/core.hpp>

namespace diskref::photo {

// What the photo's EXIF block says (libexif), when it says it.
struct ExifFacts {
  std::optional<double> focal_length_mm;    // the lens's real focal length (FocalLength)
  std::optional<double> focal_length_35mm;  // 35 mm equivalent (FocalLengthIn35mmFilm)
  int orientation = 1;                      // 1..8 as EXIF numbers them; 1 = upright
  std::string camera;                       // "Make Model", trimmed; empty when absent
};

struct PhotoLimits {
  std::size_t max_bytes = 64u << 20;      // 64 MiB: a 48 Mpx phone JPEG is 10-25 MiB
  std::int64_t max_pixels = 120'000'000;  // 120 Mpx: above every phone's full resolution
  int max_side = 20'000;
};

struct Photo {
  cv::Mat image;  // BGR, 8 bit, upright (EXIF orientation applied)
  ExifFacts exif;
  std::string source;  // the file, or what the bytes came from ("upload from 192.168.1.7")
};

// Why a photo is refused: too large, too many pixels, not an image, a broken image. `what()` names
// the source and the problem ("photo.jpg: 61440 x 61440 pixels (3775 Mpx) is more than the limit
// of 120 Mpx").
class PhotoRefused : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The width and height a JPEG, PNG or WebP header claims, read without decoding; nullopt when the
// bytes are none of these.
std::optional<cv::Size> claimed_image_size(std::span<const std::uint8_t> bytes);

ExifFacts read_exif(std::span<const std::uint8_t> bytes);

// Throws PhotoRefused.
Photo decode_photo(std::span<const std::uint8_t> bytes, const std::string& source, const PhotoLimits& limits = {});
Photo load_photo(const std::filesystem::path& file, const PhotoLimits& limits = {});

}  // namespace diskref::photo
