#include "simulator/phone_exif.h"

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <stdexcept>

#include <libexif/exif-data.h>

namespace diskref::simulator {
namespace {

constexpr ExifByteOrder kOrder = EXIF_BYTE_ORDER_INTEL;  // as most phones write it

// A new entry of `components` values of `format` in `ifd`, its data zeroed; owned by `data`.
ExifEntry* add_entry(ExifData* data, ExifIfd ifd, ExifTag tag, ExifFormat format, unsigned long components) {
  ExifMem* mem = exif_mem_new_default();
  ExifEntry* entry = exif_entry_new_mem(mem);
  const unsigned int size = exif_format_get_size(format) * static_cast<unsigned int>(components);
  entry->data = static_cast<unsigned char*>(exif_mem_alloc(mem, size));
  std::memset(entry->data, 0, size);
  entry->size = size;
  entry->tag = tag;
  entry->format = format;
  entry->components = components;
  exif_content_add_entry(data->ifd[ifd], entry);
  exif_entry_unref(entry);
  exif_mem_unref(mem);
  return entry;
}

void add_text(ExifData* data, ExifTag tag, const std::string& text) {
  ExifEntry* e = add_entry(data, EXIF_IFD_0, tag, EXIF_FORMAT_ASCII, text.size() + 1);
  std::memcpy(e->data, text.c_str(), text.size() + 1);
}

void add_short(ExifData* data, ExifIfd ifd, ExifTag tag, int value) {
  exif_set_short(add_entry(data, ifd, tag, EXIF_FORMAT_SHORT, 1)->data, kOrder, static_cast<ExifShort>(value));
}

}  // namespace

std::vector<std::uint8_t> exif_block(const PhoneExif& exif) {
  std::unique_ptr<ExifData, decltype(&exif_data_unref)> data(exif_data_new(), &exif_data_unref);
  exif_data_set_byte_order(data.get(), kOrder);
  exif_data_set_data_type(data.get(), EXIF_DATA_TYPE_COMPRESSED);
  add_text(data.get(), EXIF_TAG_MAKE, exif.make);
  add_text(data.get(), EXIF_TAG_MODEL, exif.model);
  add_short(data.get(), EXIF_IFD_0, EXIF_TAG_ORIENTATION, exif.orientation);
  if (exif.focal_length_mm) {
    // Hundredths of a millimetre, as phones write it (e.g. 6.86 mm = 686/100).
    const ExifRational r{static_cast<ExifLong>(std::lround(*exif.focal_length_mm * 100)), 100};
    exif_set_rational(add_entry(data.get(), EXIF_IFD_EXIF, EXIF_TAG_FOCAL_LENGTH, EXIF_FORMAT_RATIONAL, 1)->data,
                      kOrder, r);
  }
  if (exif.focal_length_35mm)
    add_short(data.get(), EXIF_IFD_EXIF, EXIF_TAG_FOCAL_LENGTH_IN_35MM_FILM, *exif.focal_length_35mm);
  unsigned char* bytes = nullptr;
  unsigned int size = 0;
  exif_data_save_data(data.get(), &bytes, &size);
  if (!bytes) throw std::runtime_error("libexif could not write the EXIF block");
  std::vector<std::uint8_t> out(bytes, bytes + size);
  std::free(bytes);
  return out;
}

std::vector<std::uint8_t> with_exif(std::span<const std::uint8_t> jpeg, const PhoneExif& exif) {
  if (jpeg.size() < 4 || jpeg[0] != 0xFF || jpeg[1] != 0xD8)
    throw std::invalid_argument("with_exif: not a JPEG (no SOI)");
  std::size_t rest = 2;
  // Skip an APP0 (JFIF) segment: a phone's file carries EXIF in its place.
  if (jpeg[2] == 0xFF && jpeg[3] == 0xE0 && jpeg.size() >= 6)
    rest = 4 + (static_cast<std::size_t>(jpeg[4]) << 8 | jpeg[5]);
  const std::vector<std::uint8_t> block = exif_block(exif);
  const std::size_t length = block.size() + 2;  // the segment's length counts its own two bytes
  if (length > 0xFFFF) throw std::runtime_error("EXIF block larger than one APP1 segment");
  std::vector<std::uint8_t> out;
  out.reserve(6 + block.size() + jpeg.size() - rest);
  for (std::uint8_t byte : {std::uint8_t{0xFF}, std::uint8_t{0xD8}, std::uint8_t{0xFF}, std::uint8_t{0xE1},
                            static_cast<std::uint8_t>(length >> 8), static_cast<std::uint8_t>(length & 0xFF)})
    out.push_back(byte);
  out.insert(out.end(), block.begin(), block.end());
  out.insert(out.end(), jpeg.begin() + static_cast<std::ptrdiff_t>(rest), jpeg.end());
  return out;
}

}  // namespace diskref::simulator
