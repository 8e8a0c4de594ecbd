// A photo as a phone uploads it to the photo page (spec §14): the size its header claims (JPEG
// SOF, PNG IHDR, WebP), its EXIF (libexif), and its decoding within limits, as `diskref serve`
// takes it. The limits are a fuzzing run's (1 Mpx, 1 MiB) so that each input decodes in
// milliseconds; a refusal (PhotoRefused) is the answer to a bad photo, anything else a finding.
#include <span>

#include "fuzz/fuzz_files.h"
#include "fuzz/fuzz_target.h"
#include "photo/photo_decode.h"

DISKREF_FUZZ_TARGET(photo) {
  using namespace diskref;
  const std::span<const std::uint8_t> bytes(reinterpret_cast<const std::uint8_t*>(input.data()), input.size());
  (void)photo::claimed_image_size(bytes);
  (void)photo::read_exif(bytes);
  photo::PhotoLimits limits;
  limits.max_bytes = 1u << 20;
  limits.max_pixels = 1 << 20;
  limits.max_side = 4096;
  try {
    const photo::Photo decoded = photo::decode_photo(bytes, "upload from fuzz", limits);
    // What a ruling relies on: an upright 8-bit BGR image, within the limits it was let through by.
    if (decoded.image.type() != CV_8UC3 || decoded.image.total() > static_cast<std::size_t>(limits.max_pixels))
      __builtin_trap();
  } catch (const photo::PhotoRefused&) {
  }
}
