#pragma once
// An EXIF block written by hand for the tests (TIFF, little-endian, as the EXIF standard lays it
// out), put into a JPEG as its APP1 segment: the reader under test (libexif) is not also the
// writer of what it reads.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace diskref::photo {

struct ExifSpec {
  std::optional<int> orientation;
  std::optional<double> focal_mm;
  std::optional<int> focal_35mm;
  std::string make;
  std::string model;
};

namespace exif_detail {

struct Entry {
  std::uint16_t tag = 0, type = 0;
  std::uint32_t count = 0;
  std::vector<std::uint8_t> value;
};

inline void put16(std::vector<std::uint8_t>& out, std::uint32_t v) {
  out.push_back(std::uint8_t(v));
  out.push_back(std::uint8_t(v >> 8));
}
inline void put32(std::vector<std::uint8_t>& out, std::uint32_t v) {
  put16(out, v & 0xFFFF);
  put16(out, v >> 16);
}

inline std::size_t ifd_size(const std::vector<Entry>& entries) {
  std::size_t size = 2 + 12 * entries.size() + 4;
  for (const Entry& e : entries) {
    if (e.value.size() > 4) size += (e.value.size() + 1) & ~std::size_t{1};
  }
  return size;
}

// Writes one IFD at `offset` (from the TIFF header) with its long values right after it.
inline void write_ifd(std::vector<std::uint8_t>& tiff, const std::vector<Entry>& entries) {
  const std::size_t offset = tiff.size();
  std::size_t data_at = offset + 2 + 12 * entries.size() + 4;
  std::vector<std::uint8_t> data;
  put16(tiff, std::uint32_t(entries.size()));
  for (const Entry& e : entries) {
    put16(tiff, e.tag);
    put16(tiff, e.type);
    put32(tiff, e.count);
    if (e.value.size() <= 4) {
      std::vector<std::uint8_t> inline_value = e.value;
      inline_value.resize(4, 0);
      tiff.insert(tiff.end(), inline_value.begin(), inline_value.end());
    } else {
      put32(tiff, std::uint32_t(data_at + data.size()));
      data.insert(data.end(), e.value.begin(), e.value.end());
      if (data.size() % 2) data.push_back(0);
    }
  }
  put32(tiff, 0);  // no next IFD
  tiff.insert(tiff.end(), data.begin(), data.end());
}

inline Entry ascii(std::uint16_t tag, const std::string& text) {
  Entry e{tag, 2, std::uint32_t(text.size() + 1), std::vector<std::uint8_t>(text.begin(), text.end())};
  e.value.push_back(0);
  return e;
}
inline Entry short_value(std::uint16_t tag, int value) {
  Entry e{tag, 3, 1, {}};
  put16(e.value, std::uint32_t(value));
  return e;
}

}  // namespace exif_detail

// `jpeg` with an APP1 EXIF segment inserted after its SOI marker.
inline std::vector<std::uint8_t> with_exif(const std::vector<std::uint8_t>& jpeg, const ExifSpec& spec) {
  using namespace exif_detail;
  std::vector<Entry> ifd0, exif_ifd;
  if (!spec.make.empty()) ifd0.push_back(ascii(0x010F, spec.make));
  if (!spec.model.empty()) ifd0.push_back(ascii(0x0110, spec.model));
  if (spec.orientation) ifd0.push_back(short_value(0x0112, *spec.orientation));
  if (spec.focal_mm) {
    Entry e{0x920A, 5, 1, {}};
    put32(e.value, std::uint32_t(*spec.focal_mm * 1000 + 0.5));
    put32(e.value, 1000);
    exif_ifd.push_back(e);
  }
  if (spec.focal_35mm) exif_ifd.push_back(short_value(0xA405, *spec.focal_35mm));
  if (!exif_ifd.empty()) {
    Entry pointer{0x8769, 4, 1, {}};
    ifd0.push_back(pointer);  // value filled below, once IFD0's size is known
  }
  std::vector<std::uint8_t> tiff = {'I', 'I', 42, 0};
  put32(tiff, 8);
  if (!exif_ifd.empty()) {
    ifd0.back().value.clear();
    put32(ifd0.back().value, std::uint32_t(8 + ifd_size(ifd0)));
  }
  write_ifd(tiff, ifd0);
  if (!exif_ifd.empty()) write_ifd(tiff, exif_ifd);

  std::vector<std::uint8_t> app1 = {0xFF, 0xE1, 0, 0, 'E', 'x', 'i', 'f', 0, 0};
  app1.insert(app1.end(), tiff.begin(), tiff.end());
  const std::size_t length = app1.size() - 2;
  app1[2] = std::uint8_t(length >> 8);
  app1[3] = std::uint8_t(length);
  std::vector<std::uint8_t> out(jpeg.begin(), jpeg.begin() + 2);
  out.insert(out.end(), app1.begin(), app1.end());
  out.insert(out.end(), jpeg.begin() + 2, jpeg.end());
  return out;
}

}  // namespace diskref::photo
