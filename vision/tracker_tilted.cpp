// A disk seen tilted: turning over or carried when its tag shows somewhere new each time, lying so
// at rest (leaning, on its edge) when it shows where it was first seen, again and again.

#include <algorithm>
#include <cmath>

#include <opencv2/imgproc.hpp>

#include "engine/geometry/shape.h"
#include "vision/tracker.h"
#include "vision/tracker_geometry.h"

namespace diskref::vision {
namespace {

std::vector<cv::Point2d> corner_list(const std::array<cv::Point2d, 4>& corners) {
  return {corners.begin(), corners.end()};
}

}  // namespace

std::vector<std::size_t> Tracker::tilted_anew(const std::vector<DetectionRecord>& records, const ChangeResult& change,
                                              double t) {
  // A tilted tag where the same disk's tilted tag was seen a moment ago, to within a pixel at each
  // corner of where it was first seen there, is a disk at rest leaning or on its edge, whose tag
  // the detector catches now and then; anything turning or carried shows its tag somewhere new
  // each time.
  constexpr double kSamePlacePx = 1.0;
  constexpr double kMomentS = 0.5;
  std::vector<std::size_t> anew;
  std::vector<bool> seen_now(disks_.tilted.size(), false);
  for (const DetectionRecord& d : records) {
    if (!d.disk_index || d.rejected != RejectReason::not_flat || d.enlarged) continue;
    std::optional<tracker_stages::TiltedSighting>& last = disks_.tilted[*d.disk_index];
    const bool same_place = last && t - last->t <= kMomentS && [&] {
      for (std::size_t k = 0; k < 4; ++k)
        if (cv::norm(d.tag.corners[k] - last->corners[k]) > kSamePlacePx) return false;
      return true;
    }();
    seen_now[*d.disk_index] = true;
    if (same_place) {
      last->t = t;  // where it was first seen there stays the mark: creeping a pixel is moving
      ++last->sightings;
      last->changed_since = false;
    } else {
      anew.push_back(*d.disk_index);
      tracker_stages::TiltedSighting s;
      s.corners = d.tag.corners;
      s.first_t = s.t = t;
      if (const std::optional<model::TagRef> ref = registry_.find_tag(d.tag.id); ref && view_.pose) {
        const model::TagSpec& tag = registry_.tag(*ref);
        s.face = tag.face;
        s.pose = tilted_tag_pose(*view_.pose, d.tag.corners, tag.size_mm);
      }
      last = s;
    }
  }
  // Something changed where a tag was seen tilted, and it was not seen there again: what lies
  // there now is not known.
  for (std::size_t i = 0; i < disks_.tilted.size(); ++i)
    if (disks_.tilted[i] && !seen_now[i] && changed_in(change, bounding_box(corner_list(disks_.tilted[i]->corners))))
      disks_.tilted[i]->changed_since = true;
  return anew;
}

void Tracker::report_tilted(model::TrackFrame& track) const {
  for (std::size_t i = 0; i < disks_.tilted.size(); ++i) {
    const std::optional<tracker_stages::TiltedSighting>& s = disks_.tilted[i];
    // Seen at least twice where it lies (once could be a moment of a tumble), nothing changed
    // there since.
    if (!s || s->sightings < 2 || s->changed_since || !s->pose) continue;
    // Lying: its tag no higher than the disk standing on its edge on a ship would hold it. One
    // held still in a hand is higher.
    const model::DiskSpec& spec = registry_.disks()[i];
    if (s->pose->centre_mm.z > 2 * geom::bounding_radius(spec.shape) + spec.thickness_mm + 5) continue;
    auto d = std::find_if(track.disks.begin(), track.disks.end(),
                          [&](const model::DiskTrack& t) { return t.name == spec.name; });
    if (d == track.disks.end()) {
      // Never seen lying flat: a track of its own, lost (no flat place), to say where it stands.
      model::DiskTrack lost;
      lost.name = spec.name;
      lost.kind = spec.kind;
      lost.state = model::TrackState::lost;
      lost.face = s->face;
      track.disks.push_back(std::move(lost));
      d = std::prev(track.disks.end());
    }
    // Seen lying flat now, or last seen flat rather than tilted: that is where it lies. (A tag
    // leaning some 25 degrees is now and then taken for a flat one; seen tilted again, it is.)
    if (d->state == model::TrackState::visible || (d->age_s && s->t <= track.t - *d->age_s)) continue;
    model::TiltedRest rest;
    rest.x = s->pose->centre_mm.x;
    rest.y = s->pose->centre_mm.y;
    rest.z = s->pose->centre_mm.z;
    rest.tilt_deg = s->pose->tilt_deg;
    rest.face = s->face;
    rest.since_t = s->first_t;
    d->tilted = rest;
  }
}

void Tracker::tilted_in_part(const cv::Mat& part, const cv::Rect& roi, const model::TrackFrame& track,
                             model::ForeignBox& box) const {
  // The part holds a tilted disk when at least a quarter of its tag's quad lies in it: the tag's
  // white cells may match the table's picture, its black ones never do.
  for (const model::DiskTrack& d : track.disks) {
    const std::optional<std::size_t> i = registry_.index_of(d.name);
    if (!i || !d.tilted || !disks_.tilted[*i]) continue;
    std::vector<cv::Point> quad;
    for (const cv::Point2d& p : disks_.tilted[*i]->corners)
      quad.emplace_back(static_cast<int>(std::lround(p.x)) - roi.x, static_cast<int>(std::lround(p.y)) - roi.y);
    cv::Mat tag = cv::Mat::zeros(part.size(), CV_8U);
    cv::fillConvexPoly(tag, quad, cv::Scalar(255));
    const int all = cv::countNonZero(tag);
    if (all > 0 && 4 * cv::countNonZero(tag & part) >= all) box.tilted.push_back(d.name);
  }
}

}  // namespace diskref::vision
