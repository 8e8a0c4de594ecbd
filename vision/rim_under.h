#pragma once
// Whether something unexplained next to a disk could be a counter lying partly under that disk.
//
// A flat counter with an unreadable part against it is asked about because it may lie on that
// part: on the rim of a counter under it (docs/rules.md, r-drop-cocked). But a counter standing on
// its edge a few millimetres away touches it too, in the picture, at about a pixel a millimetre.
// The two differ in shape. A counter partly under another shows all of itself that the upper one
// (and other known disks) does not hide: where the part meets the upper disk it must lie inside
// such a counter, and that counter's rim, wherever it would show, must show. An edge-stander
// meeting the flat counter lies inside a counter beside it only if that counter's rim ran over
// bare table, and the rim does not show there. (Only where it meets: the rim of a counter under
// one disk may run into a counter standing beside it, one part in the picture.)
//
// Pure geometry and masks over one image region; the tracker supplies them (tracker_foreign.cpp).

#include <vector>

#include <opencv2/core.hpp>

#include "calibration/camera_pose.h"
#include "engine/geometry/shape.h"
#include "engine/model/disk_registry.h"

namespace diskref::vision {

// A counter as the registry gives it: what could lie under a disk.
struct CounterBody {
  geom::Shape shape;
  double thickness_mm = 0;
};

// The registry's counters, one of each shape and thickness.
std::vector<CounterBody> counter_bodies(const model::DiskRegistry& registry);

struct RimEvidence {
  cv::Rect roi;    // the image region the masks cover (full-image pixels)
  cv::Mat shown;   // 255 where the picture differs from the bare table, unexplained (CV_8U, roi size)
  cv::Mat hidden;  // 255 where a known disk lies and hides what is under it (CV_8U, roi size)
};

struct UnderQuery {
  std::vector<cv::Point2d> part_px;     // the part's outline, full-image pixels
  std::vector<cv::Point2d> contact_px;  // the part's pixels that meet the upper disk, full-image pixels
  geom::PlacedShape upper;              // the disk it touches, on the table
  double upper_sigma_mm = 0;            // that disk's pose uncertainty (1 sigma)
};

// Whether some counter of `bodies`, lying flat on the table and overlapping (or touching) `upper`,
// holds the part where it meets `upper` — as its top, side or shadow — and shows its rim wherever
// no known disk hides it: on three quarters of the rim that would show, at least, and ending
// there (nothing unexplained just beyond its side and shadow) along half of it. A counter
// showing too little of its rim to tell (one peeking out a millimetre or so) could lie there if
// it holds the whole part. When no one counter holds the part where it meets `upper` (more than
// one meets it), or a pixel meets no table, it could: the safe answer.
bool could_lie_under(const calib::CameraPose& camera, const UnderQuery& query, const std::vector<CounterBody>& bodies,
                     const RimEvidence& evidence);

}  // namespace diskref::vision
