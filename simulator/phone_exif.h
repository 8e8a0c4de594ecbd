#pragma once
// The EXIF block a phone puts in its JPEG (an APP1 segment right after SOI, where phones write it
// and where readers look first), built with libexif. Only what a dispute's photo is read for
// (photo/photo_decode.h): the lens's focal length, its 35 mm equivalent, the orientation, the
// camera's make and model. A few hundred bytes.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace diskref::simulator {

struct PhoneExif {
  std::optional<double> focal_length_mm;  // FocalLength (the real lens's)
  std::optional<int> focal_length_35mm;   // FocalLengthIn35mmFilm (whole millimetres, as EXIF keeps it)
  int orientation = 1;                    // 1..8
  std::string make = "diskref";
  std::string model = "simulated phone";
};

// The EXIF block ("Exif\0\0" and the TIFF structure), as an APP1 segment carries it.
std::vector<std::uint8_t> exif_block(const PhoneExif& exif);

// `jpeg` (from any encoder) with its APP0 (JFIF) segment, if it starts with one, replaced by the EXIF
// APP1 segment: SOI, APP1, the rest, as phones write it. Throws std::invalid_argument when `jpeg`
// does not start with SOI.
std::vector<std::uint8_t> with_exif(std::span<const std::uint8_t> jpeg, const PhoneExif& exif);

}  // namespace diskref::simulator
