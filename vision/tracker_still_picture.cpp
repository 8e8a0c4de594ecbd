// Tracker: a disk at rest whose tag the decoder missed, though the picture of it is the one it was
// measured in.
//
// A tag at the edge of what apriltag decodes (a small counter's, seen from high, softly focused,
// in sensor noise) is read in one frame and missed in the next: the noise differs, the tag does
// not. Each still disk is measured again every few frames (still_refresh_frames), and each time
// such a tag may be missed; gone stale, a counter read a moment ago would be asked about as "not
// seen". But a tag cannot have gone, turned or been covered without the picture around it
// changing. So a disk looked for and missed is seen where it was when the change detector saw no
// change around its tag in any frame since it was last measured, and the picture there now is the
// one it was measured in (within the detector's threshold: nothing crept in slowly either). Both
// at the change detector's shrunk scale, which averages the sensor's noise away.

#include <algorithm>
#include <cmath>

#include <opencv2/core.hpp>

#include "vision/tracker.h"
#include "vision/tracker_geometry.h"

namespace diskref::vision {

std::vector<std::size_t> Tracker::same_picture_as_measured(const ChangeResult& change,
                                                           std::span<const DiskObservation> observations,
                                                           std::span<const std::size_t> unchanged) {
  std::vector<std::size_t> same;
  for (std::size_t i = 0; i < disks_.measured_pictures.size(); ++i) {
    std::optional<tracker_stages::MeasuredPicture>& p = disks_.measured_pictures[i];
    if (!p) continue;
    p->changed_since = p->changed_since || changed_in(change, p->box_px);
    const DiskEstimate& e = disks_.tracker.estimates()[i];
    if (p->changed_since || e.state != model::TrackState::visible || e.motion != model::Motion::settled) continue;
    if (std::find(unchanged.begin(), unchanged.end(), i) != unchanged.end()) continue;  // not looked for
    if (std::any_of(observations.begin(), observations.end(),
                    [&](const DiskObservation& o) { return o.disk_index == i; }))
      continue;  // found
    if (change.small.empty() || (p->box_small & cv::Rect(0, 0, change.small.cols, change.small.rows)) != p->box_small)
      continue;
    cv::Mat diff;
    cv::absdiff(change.small(p->box_small), p->small, diff);
    double largest = 0;
    cv::minMaxLoc(diff, nullptr, &largest);
    if (largest <= options_.change.threshold_levels) same.push_back(i);
  }
  return same;
}

void Tracker::remember_measured_pictures(const ChangeResult& change, std::span<const DiskObservation> observations) {
  if (!view_.pose || !view_.geometry || change.small.empty()) return;
  const double printed = static_cast<double>(search_.tags.cells_across_tag()) / search_.tags.cells_across_corners();
  for (const DiskObservation& o : observations) {
    if (o.disk_index >= disks_.measured_pictures.size()) continue;
    const model::DiskSpec& disk = registry_.disks()[o.disk_index];
    // The printed tag at any turn, where it was measured: one box for the picture kept and for the
    // changes watched.
    const double half = tag_sizes_mm(disk).largest_mm * printed / std::sqrt(2.0);
    tracker_stages::MeasuredPicture p;
    p.box_px = image_box_around(o.table_from_disk.position, half, disk.thickness_mm, view_.geometry->image_size);
    p.box_small = small_box(change, p.box_px);
    if (p.box_small.area() == 0) {
      disks_.measured_pictures[o.disk_index].reset();
      continue;
    }
    p.small = change.small(p.box_small).clone();
    disks_.measured_pictures[o.disk_index] = std::move(p);
  }
}

}  // namespace diskref::vision
