// Tracker: a disk out of sight whose last place is seen bare (vacated_place.h). A counter of a drop
// last seen sliding, then gone under another that landed on it, is not where it was last seen; the
// reading of the drop should not take a counter lying flat beside that place to lie on it.

#include <algorithm>
#include <cmath>

#include "engine/geometry/shape.h"
#include "vision/tracker.h"
#include "vision/tracker_geometry.h"
#include "vision/vacated_place.h"

namespace diskref::vision {

void Tracker::report_vacated(const cv::Mat& image, const ChangeResult& change, std::span<const DiskObservation> observations,
                             TrackerResult& result, int shift_levels, double t) {
  model::TrackFrame& track = result.track;
  const cv::Size size = image.size();
  // The watch's parts too large for a disk's: hands (as report_foreign takes them).
  std::vector<cv::Rect> hands;
  for (const cv::Rect& part : result.foreign_parts_px)
    if (geometry_ && (part.width > 2 * geometry_->max_disk_tag_px || part.height > 2 * geometry_->max_disk_tag_px)) hands.push_back(part);
  // Through a view the table's picture was taken in (not while it is to be taken again).
  const bool table_picture = !retake_background_ && background_grey_.size() == size;
  for (const DiskObservation& o : observations) {
    if (o.disk_index >= seen_pictures_.size()) continue;
    const model::DiskSpec& disk = registry_.disks()[o.disk_index];
    // Room for its outline at any turn, its side and its blurred edge.
    const double half = geom::bounding_radius(disk.shape) + disk.thickness_mm + 3;
    SeenPicture p;
    p.box_px = image_box_around(o.table_from_disk.position, half, 0.0, size);
    if (p.box_px.area() == 0) {
      seen_pictures_[o.disk_index].reset();
      continue;
    }
    grey_into(image(p.box_px), p.grey);
    p.shift_levels = shift_levels;
    seen_pictures_[o.disk_index] = std::move(p);
  }
  // Whether disk i, stale at `d`'s pose, is seen to have left it.
  auto seen_bare = [&](std::size_t i, const model::DiskTrack& d) {
    const SeenPicture& then = *seen_pictures_[i];
    const cv::Rect roi = then.box_px;
    if (std::any_of(hands.begin(), hands.end(), [&](const cv::Rect& h) { return (h & roi).area() > 0; })) return false;
    const model::DiskSpec& disk = registry_.disks()[i];
    const geom::Pose last = geom::Pose::from_degrees(*d.x, *d.y, *d.heading);
    const cv::Mat own = footprint_mask(roi, disk, last, 0.0);
    // Whether a disk at `at` can reach into its place (with the widest blur drawn around a disk).
    auto near = [&](const model::DiskSpec& spec, const geom::Pose& at, double sigma_mm) {
      return geom::distance(at.position, last.position) <
             geom::bounding_radius(disk.shape) + geom::bounding_radius(spec.shape) + 2 * (disk.thickness_mm + spec.thickness_mm + sigma_mm) + 10;
    };
    // Hidden: under a disk seen now, or where a disk lay when the table's picture was taken (that
    // picture shows the disk there, not the table).
    cv::Mat hidden = cv::Mat::zeros(roi.size(), CV_8U);
    for (const model::DiskTrack& other : track.disks) {
      const std::optional<std::size_t> j = registry_.index_of(other.name);
      if (!j) continue;
      const model::DiskSpec& spec = registry_.disks()[*j];
      if (*j != i && other.state == model::TrackState::visible && other.x && other.y && other.heading) {
        const geom::Pose at = geom::Pose::from_degrees(*other.x, *other.y, *other.heading);
        if (near(spec, at, other.sigma_mm)) hidden |= footprint_mask(roi, spec, at, footprint_blur_mm(spec, at, other.sigma_mm));
      }
      if (background_poses_[*j] && near(spec, *background_poses_[*j], other.sigma_mm))
        hidden |= footprint_mask(roi, spec, *background_poses_[*j], footprint_blur_mm(spec, *background_poses_[*j], other.sigma_mm));
    }
    cv::Mat now;
    grey_into(image(roi), now);
    return place_vacated(now, then.grey, background_grey_(roi), own, hidden, shift_levels, then.shift_levels).vacated;
  };
  for (model::DiskTrack& d : track.disks) {
    const std::optional<std::size_t> i = registry_.index_of(d.name);
    if (!i) continue;
    std::optional<double>& vacated = vacated_t_[*i];
    if (d.state != model::TrackState::stale || !d.x || !d.y || !d.heading) {
      vacated.reset();  // seen again, or lost: nothing to say of its last place
      continue;
    }
    if (!vacated && !d.tilted && table_picture && seen_pictures_[*i]) {
      SeenPicture& then = *seen_pictures_[*i];
      if (changed_in(change, then.box_px)) then.judged_not_bare = false;
      if (!then.judged_not_bare) {
        if (seen_bare(*i, d))
          vacated = t;
        else
          then.judged_not_bare = true;
      }
    }
    d.vacated_t = vacated;
  }
}

}  // namespace diskref::vision
