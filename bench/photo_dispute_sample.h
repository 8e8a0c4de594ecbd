#pragma once
// The photos the photo_disputes bench rules on: one table of four ships and a torpedo, laid out
// afresh for every photo so that the questions that matter are close (two ships whose range margin
// is drawn within a few millimetres of 0, two lying a few millimetres apart), and a hand-held phone
// shot drawn over the space issue 40 names (12-48 Mpx, 24-28 mm equivalent, 20-60 degrees from
// vertical, 30-80 cm away, any yaw, a little roll, a hand's shake, sensor noise, JPEG quality
// 85-92, EXIF focal length on three photos in four, orientation 1 or 6), and a messenger's 2 Mpx
// copy among them.

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "simulator/phone_photo.h"

namespace diskref::bench {

// The ranges photos are drawn from; printed with the figures.
struct SampleSpace {
  // 12-48 Mpx as phones take them, and 2 Mpx: the copy a messenger app sends (1632 x 1224), whose
  // small tags show where precision runs out.
  std::vector<double> megapixels{2, 12, 24, 48};
  double focal_35mm_lo = 24, focal_35mm_hi = 28;
  double tilt_lo = 20, tilt_hi = 60;
  double distance_lo = 300, distance_hi = 800;
  // The close pairs: the range margin's size and the separation are drawn log-uniformly from
  // close_lo_mm to close_hi_mm (the margin's sign at random), as many within 0.1 mm of the call
  // as between 1 and 3 mm.
  double close_lo_mm = 0.01, close_hi_mm = 3;
  double shake_lo_px = 0.5,
         shake_hi_px = 2.5;  // at 12 Mpx; the smear scales with the picture's side (x sqrt(Mpx / 12))
  double exif_share = 0.75;
};

struct DisputePhoto {
  simulator::PhoneScene scene;
  simulator::PhoneShot shot;
};

// The registry every photo's table holds: four ships (24 mm tags, 2 and 3 mm thick) and a torpedo
// (9.5 mm tag), as docs/spec.md §4's example.
model::DiskRegistry dispute_registry();

// Photo `index` of a sample drawn from `seed`; megapixels cycle through the space's sizes so that
// each size has its share.
DisputePhoto draw_dispute_photo(const SampleSpace& space, uint64_t seed, int index);

// Every pair's range question and the two close pairs' overlap questions, for the disks whose tag
// is in the picture (the truth's in_view).
nlohmann::json dispute_questions(const simulator::PhoneScene& scene,
                                 const std::vector<simulator::PhotoDiskTruth>& truth);

}  // namespace diskref::bench
