#pragma once
// The photo page's ruler (net/photo_page.h) made of the photo room (spec §14): net takes the
// upload and never reads a photo (the layers: net is below photo); this joins the two for
// `diskref serve` and for the live feed's servers.

#include "engine/model/disk_registry.h"
#include "net/photo_page.h"
#include "photo/photo_decode.h"
#include "photo/photo_ruling.h"

namespace diskref::cli {

// Decodes the upload within `limits` (a decompression bomb refused from its header, EXIF
// orientation honoured), rules on it with `registry` and `options`, and gives the annotated
// picture as a JPEG of at most kAnnotatedLongSide pixels a side (a phone's screen; the answer
// carries it inline). One photo at a time: the machine holds one decoded photo, whatever the
// number of phones. Refusals: 415 not an image, 413 too large or too many pixels, 400 a question
// the registry cannot answer, 422 a photo that cannot be ruled on (too few tags...).
net::PhotoRuler photo_ruler(model::DiskRegistry registry, photo::PhotoOptions options, photo::PhotoLimits limits);

inline constexpr int kAnnotatedLongSide = 1600;

// The limits of a photo uploaded to the page: its bytes as the page takes them, the pixels as
// photo::PhotoLimits has them.
photo::PhotoLimits upload_photo_limits(const net::PhotoPageOptions& page = {});

// The photo page beside the live feed (`referee --serve`, `ui --serve`): the game's registry, the
// phone's lens fitted from the tags (the table camera's calibration is not the phone's).
inline net::PhotoRuler feed_photo_ruler(const model::DiskRegistry& registry) {
  return photo_ruler(registry, photo::PhotoOptions{}, upload_photo_limits());
}

}  // namespace diskref::cli
