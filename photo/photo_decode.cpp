#include "photo/photo_decode.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iterator>
#include <memory>

#include <fmt/format.h>
#include <libexif/exif-data.h>
#include <opencv2/imgcodecs.hpp>

namespace diskref::photo {
namespace {

std::uint32_t big_endian(std::span<const std::uint8_t> bytes, std::size_t at, int count) {
  std::uint32_t value = 0;
  for (int i = 0; i < count; ++i) value = (value << 8) | bytes[at + static_cast<std::size_t>(i)];
  return value;
}

std::uint32_t little_endian(std::span<const std::uint8_t> bytes, std::size_t at, int count) {
  std::uint32_t value = 0;
  for (int i = count - 1; i >= 0; --i) value = (value << 8) | bytes[at + static_cast<std::size_t>(i)];
  return value;
}

bool starts_with(std::span<const std::uint8_t> bytes, std::size_t at, std::string_view text) {
  if (bytes.size() < at + text.size()) return false;
  return std::equal(text.begin(), text.end(), bytes.begin() + static_cast<std::ptrdiff_t>(at),
                    [](char c, std::uint8_t b) { return static_cast<std::uint8_t>(c) == b; });
}

// The frame header (SOF0..SOF15 but DHT, JPG and DAC, which share the range) carries the size; it
// comes before the first scan, so the walk stops at SOS.
std::optional<cv::Size> jpeg_size(std::span<const std::uint8_t> bytes) {
  std::size_t at = 2;
  while (at + 4 <= bytes.size()) {
    if (bytes[at] != 0xFF) return std::nullopt;
    const std::uint8_t marker = bytes[at + 1];
    if (marker == 0xFF) {  // fill byte
      ++at;
      continue;
    }
    if (marker == 0x01 || (marker >= 0xD0 && marker <= 0xD7)) {  // markers without a length
      at += 2;
      continue;
    }
    if (marker == 0xDA || marker == 0xD9) return std::nullopt;  // scan or end before any frame
    const std::size_t length = big_endian(bytes, at + 2, 2);
    if (length < 2) return std::nullopt;
    const bool frame = marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC;
    if (frame) {
      if (at + 9 > bytes.size() || length < 7) return std::nullopt;
      const int height = static_cast<int>(big_endian(bytes, at + 5, 2));
      const int width = static_cast<int>(big_endian(bytes, at + 7, 2));
      return cv::Size(width, height);
    }
    at += 2 + length;
  }
  return std::nullopt;
}

std::optional<cv::Size> png_size(std::span<const std::uint8_t> bytes) {
  if (bytes.size() < 24 || !starts_with(bytes, 12, "IHDR")) return std::nullopt;
  const auto width = big_endian(bytes, 16, 4), height = big_endian(bytes, 20, 4);
  if (width > 0x7FFFFFFF || height > 0x7FFFFFFF) return std::nullopt;
  return cv::Size(static_cast<int>(width), static_cast<int>(height));
}

// RIFF container, first chunk VP8 (lossy), VP8L (lossless) or VP8X (extended, canvas size).
std::optional<cv::Size> webp_size(std::span<const std::uint8_t> bytes) {
  if (bytes.size() < 30) return std::nullopt;
  if (starts_with(bytes, 12, "VP8 ")) {
    if (bytes[23] != 0x9D || bytes[24] != 0x01 || bytes[25] != 0x2A) return std::nullopt;
    return cv::Size(static_cast<int>(little_endian(bytes, 26, 2) & 0x3FFF),
                    static_cast<int>(little_endian(bytes, 28, 2) & 0x3FFF));
  }
  if (starts_with(bytes, 12, "VP8L")) {
    if (bytes[20] != 0x2F) return std::nullopt;
    const std::uint32_t bits = little_endian(bytes, 21, 4);
    return cv::Size(static_cast<int>(bits & 0x3FFF) + 1, static_cast<int>((bits >> 14) & 0x3FFF) + 1);
  }
  if (starts_with(bytes, 12, "VP8X")) {
    return cv::Size(static_cast<int>(little_endian(bytes, 24, 3)) + 1,
                    static_cast<int>(little_endian(bytes, 27, 3)) + 1);
  }
  return std::nullopt;
}

struct ExifDataFree {
  void operator()(ExifData* data) const { exif_data_unref(data); }
};

// One entry's first value as a number, when its format is one EXIF allows for it and the entry
// really holds a value (a broken block may claim one and carry none).
std::optional<double> entry_number(ExifData* data, ExifTag tag) {
  ExifEntry* entry = exif_data_get_entry(data, tag);
  if (entry == nullptr || entry->components < 1 || entry->data == nullptr) return std::nullopt;
  const ExifByteOrder order = exif_data_get_byte_order(data);
  const auto need = static_cast<unsigned>(exif_format_get_size(entry->format));
  if (need == 0 || entry->size < need) return std::nullopt;
  switch (entry->format) {
    case EXIF_FORMAT_RATIONAL: {
      const ExifRational r = exif_get_rational(entry->data, order);
      if (r.denominator == 0) return std::nullopt;
      return static_cast<double>(r.numerator) / r.denominator;
    }
    case EXIF_FORMAT_SRATIONAL: {
      const ExifSRational r = exif_get_srational(entry->data, order);
      if (r.denominator == 0) return std::nullopt;
      return static_cast<double>(r.numerator) / r.denominator;
    }
    case EXIF_FORMAT_SHORT:
      return exif_get_short(entry->data, order);
    case EXIF_FORMAT_LONG:
      return exif_get_long(entry->data, order);
    default:
      return std::nullopt;
  }
}

std::string entry_text(ExifData* data, ExifTag tag) {
  ExifEntry* entry = exif_data_get_entry(data, tag);
  if (entry == nullptr || entry->format != EXIF_FORMAT_ASCII || entry->data == nullptr) return {};
  std::string text(reinterpret_cast<const char*>(entry->data), entry->size);
  text = text.substr(0, text.find('\0'));
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string::npos) return {};
  return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

}  // namespace

std::optional<cv::Size> claimed_image_size(std::span<const std::uint8_t> bytes) {
  if (bytes.size() >= 3 && bytes[0] == 0xFF && bytes[1] == 0xD8 && bytes[2] == 0xFF) return jpeg_size(bytes);
  if (starts_with(bytes, 0, "\x89PNG\r\n\x1a\n")) return png_size(bytes);
  if (starts_with(bytes, 0, "RIFF") && starts_with(bytes, 8, "WEBP")) return webp_size(bytes);
  return std::nullopt;
}

ExifFacts read_exif(std::span<const std::uint8_t> bytes) {
  ExifFacts facts;
  if (bytes.empty()) return facts;
  std::unique_ptr<ExifData, ExifDataFree> data(
      exif_data_new_from_data(bytes.data(), static_cast<unsigned>(std::min<std::size_t>(bytes.size(), 0xFFFFFFFFu))));
  if (!data) return facts;
  if (auto f = entry_number(data.get(), EXIF_TAG_FOCAL_LENGTH); f && std::isfinite(*f) && *f > 0) {
    facts.focal_length_mm = *f;
  }
  if (auto f = entry_number(data.get(), EXIF_TAG_FOCAL_LENGTH_IN_35MM_FILM); f && *f > 0) {
    facts.focal_length_35mm = *f;
  }
  if (auto o = entry_number(data.get(), EXIF_TAG_ORIENTATION); o && *o >= 1 && *o <= 8) {
    facts.orientation = static_cast<int>(*o);
  }
  const std::string make = entry_text(data.get(), EXIF_TAG_MAKE);
  const std::string model = entry_text(data.get(), EXIF_TAG_MODEL);
  // Many makers repeat the make in the model ("Canon" "Canon EOS R5"; but "Apple" "iPhone 15").
  if (make.empty() || model.rfind(make, 0) == 0) {
    facts.camera = model.empty() ? make : model;
  } else {
    facts.camera = model.empty() ? make : make + " " + model;
  }
  return facts;
}

Photo decode_photo(std::span<const std::uint8_t> bytes, const std::string& source, const PhotoLimits& limits) {
  if (bytes.empty()) throw PhotoRefused(fmt::format("{}: empty, no image", source));
  if (bytes.size() > limits.max_bytes) {
    throw PhotoRefused(fmt::format("{}: {:.1f} MiB is more than the limit of {:.0f} MiB", source,
                                   static_cast<double>(bytes.size()) / (1 << 20),
                                   static_cast<double>(limits.max_bytes) / (1 << 20)));
  }
  const std::optional<cv::Size> claimed = claimed_image_size(bytes);
  if (!claimed) throw PhotoRefused(fmt::format("{}: not a JPEG, PNG or WebP image (no header found)", source));
  if (claimed->width <= 0 || claimed->height <= 0) {
    throw PhotoRefused(fmt::format("{}: the header claims {} x {} pixels", source, claimed->width, claimed->height));
  }
  const std::int64_t pixels = static_cast<std::int64_t>(claimed->width) * claimed->height;
  if (pixels > limits.max_pixels) {
    throw PhotoRefused(fmt::format("{}: {} x {} pixels ({:.0f} Mpx) is more than the limit of {:.0f} Mpx", source,
                                   claimed->width, claimed->height, static_cast<double>(pixels) / 1e6,
                                   static_cast<double>(limits.max_pixels) / 1e6));
  }
  if (std::max(claimed->width, claimed->height) > limits.max_side) {
    throw PhotoRefused(fmt::format("{}: {} x {} pixels: a side is longer than the limit of {} pixels", source,
                                   claimed->width, claimed->height, limits.max_side));
  }
  Photo photo;
  photo.source = source;
  photo.exif = read_exif(bytes);
  // IMREAD_COLOR turns the image upright by its EXIF orientation (OpenCV 4; tested).
  const cv::Mat encoded(1, static_cast<int>(bytes.size()), CV_8U, const_cast<std::uint8_t*>(bytes.data()));
  try {
    photo.image = cv::imdecode(encoded, cv::IMREAD_COLOR);
  } catch (const cv::Exception& e) {
    throw PhotoRefused(fmt::format("{}: a broken image ({})", source, e.what()));
  }
  if (photo.image.empty()) throw PhotoRefused(fmt::format("{}: a broken image (it does not decode)", source));
  return photo;
}

Photo load_photo(const std::filesystem::path& file, const PhotoLimits& limits) {
  const std::string name = file.string();
  std::error_code error;
  const auto size = std::filesystem::file_size(file, error);
  if (error) throw PhotoRefused(fmt::format("{}: cannot read ({})", name, error.message()));
  if (size > limits.max_bytes) {
    throw PhotoRefused(fmt::format("{}: {:.1f} MiB is more than the limit of {:.0f} MiB", name,
                                   static_cast<double>(size) / (1 << 20),
                                   static_cast<double>(limits.max_bytes) / (1 << 20)));
  }
  std::ifstream in(file, std::ios::binary);
  if (!in) throw PhotoRefused(fmt::format("{}: cannot open", name));
  std::vector<std::uint8_t> bytes(static_cast<std::size_t>(size));
  in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  if (static_cast<std::size_t>(in.gcount()) != bytes.size())
    throw PhotoRefused(fmt::format("{}: cannot read it whole", name));
  return decode_photo(bytes, name, limits);
}

}  // namespace diskref::photo
