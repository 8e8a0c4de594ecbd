// Tracker: a small foreign part measured again at the camera's full resolution (foreign_shapes.h),
// so that what lies against a counter can be told from what lies a few millimetres from it.

#include <algorithm>
#include <cmath>
#include <numbers>

#include <opencv2/imgproc.hpp>

#include "engine/geometry/shape.h"
#include "vision/foreign_shapes.h"
#include "vision/search_planner.h"
#include "vision/tracker.h"
#include "vision/tracker_geometry.h"

namespace diskref::vision {
namespace {

// The outline polygon with `max_points` vertices at most, dropping those closer than half a pixel
// (more, if need be) to the straight line between their neighbours.
std::vector<cv::Point> simplified(const std::vector<cv::Point>& contour, std::size_t max_points) {
  if (contour.size() < 4) return contour;
  std::vector<cv::Point> out;
  for (double epsilon = 0.5;; epsilon *= 2) {  // ends: a wide enough epsilon leaves two points
    cv::approxPolyDP(contour, out, epsilon, true);
    if (out.size() <= max_points) return out;
  }
}

// A box of image pixels as a box on the table plane (mm): its corners' rays met with the table.
model::ForeignBox foreign_on_table(const calib::CameraPose& pose, const cv::Rect& px) {
  const std::vector<cv::Point2d> corners = {
      {static_cast<double>(px.x), static_cast<double>(px.y)},
      {static_cast<double>(px.x + px.width), static_cast<double>(px.y)},
      {static_cast<double>(px.x + px.width), static_cast<double>(px.y + px.height)},
      {static_cast<double>(px.x), static_cast<double>(px.y + px.height)}};
  model::ForeignBox box{1e300, 1e300, -1e300, -1e300};
  for (const auto& p : calib::table_from_image(pose, corners, 0.0)) {
    if (!p) continue;
    box.x0 = std::min(box.x0, p->x);
    box.y0 = std::min(box.y0, p->y);
    box.x1 = std::max(box.x1, p->x);
    box.y1 = std::max(box.y1, p->y);
  }
  if (box.x0 > box.x1) box = {};  // no corner meets the table: nothing to say where
  return box;
}

// Rectangles merged until none overlaps another.
std::vector<cv::Rect> merged(std::vector<cv::Rect> rects) {
  for (bool again = true; again;) {
    again = false;
    for (std::size_t i = 0; i < rects.size() && !again; ++i)
      for (std::size_t j = i + 1; j < rects.size() && !again; ++j)
        if ((rects[i] & rects[j]).area() > 0) {
          rects[i] |= rects[j];
          rects.erase(rects.begin() + static_cast<std::ptrdiff_t>(j));
          again = true;
        }
  }
  return rects;
}

}  // namespace

cv::Rect Tracker::image_box_around(geom::Vec2 centre, double half_mm, double height_mm, cv::Size size) const {
  if (!view_.pose) return {};
  const cv::Rect2d b = bounding_box(square_in_image(*view_.pose, centre, half_mm, height_mm));
  return cv::Rect(cv::Point(static_cast<int>(std::floor(b.x)), static_cast<int>(std::floor(b.y))),
                  cv::Point(static_cast<int>(std::ceil(b.br().x)) + 1, static_cast<int>(std::ceil(b.br().y)) + 1)) &
         cv::Rect(cv::Point(), size);
}

std::vector<Tracker::FootprintPx> Tracker::footprints_px(const cv::Rect& roi, const model::TrackFrame& track) const {
  std::vector<FootprintPx> out;
  if (!view_.pose) return out;
  // The region on the table, for leaving out the disks far from it.
  const model::ForeignBox area = foreign_on_table(*view_.pose, roi);
  if (area.width() <= 0 && area.height() <= 0) return out;  // no corner of it meets the table
  const double x0 = area.x0, y0 = area.y0, x1 = area.x1, y1 = area.y1;
  auto draw = [&](const model::DiskSpec& disk, const geom::Pose& pose, double sigma_mm, bool seen_now) {
    // The disk's exact outline grown by what blurs it into its surroundings — its pose's
    // uncertainty, its blurred edge pixel, and a shadow half as deep as the disk is thick — at
    // the table and at its top (its side shows between them).
    const double px_per_mm = pixels_per_mm_at(*view_.pose, pose.position, 0.0);
    const double grow =
        kForeignFootprintMarginMm + disk.thickness_mm / 2 + 2 * sigma_mm + 1.0 / std::max(px_per_mm, 1e-6);
    const double reach = geom::bounding_radius(disk.shape) + grow + disk.thickness_mm;
    if (pose.position.x < x0 - reach || pose.position.x > x1 + reach || pose.position.y < y0 - reach ||
        pose.position.y > y1 + reach)
      return;
    const geom::PlacedShape placed{disk.shape, pose};
    constexpr int kDirections = 48;
    std::vector<cv::Point3d> ring;
    for (double h : {0.0, disk.thickness_mm})
      for (int k = 0; k < kDirections; ++k) {
        const double a = 2 * std::numbers::pi * k / kDirections;
        const geom::Vec2 dir{std::cos(a), std::sin(a)};
        const geom::Vec2 s = geom::support(placed, dir);
        ring.emplace_back(s.x + grow * dir.x, s.y + grow * dir.y, h);
      }
    std::vector<cv::Point> points;
    for (const cv::Point2d& p : calib::image_from_table(*view_.pose, ring))
      points.emplace_back(static_cast<int>(std::lround(p.x)) - roi.x, static_cast<int>(std::lround(p.y)) - roi.y);
    std::vector<cv::Point> hull;
    cv::convexHull(points, hull);
    FootprintPx f{disk.name, seen_now, cv::Mat::zeros(roi.size(), CV_8U)};
    cv::fillConvexPoly(f.mask, hull, cv::Scalar(255));
    if (cv::countNonZero(f.mask) > 0) out.push_back(std::move(f));
  };
  for (const model::DiskTrack& d : track.disks) {
    const std::optional<std::size_t> i = registry_.index_of(d.name);
    if (!i) continue;
    // One seen tilted at rest is no longer where it was last seen flat.
    if (d.x && d.y && d.heading && !d.tilted)
      draw(registry_.disks()[*i], geom::Pose::from_degrees(*d.x, *d.y, *d.heading), d.sigma_mm,
           d.state == model::TrackState::visible);
    if (watch_.background_poses[*i]) draw(registry_.disks()[*i], *watch_.background_poses[*i], d.sigma_mm, false);
  }
  return out;
}

std::vector<model::ForeignBox> Tracker::foreign_outlines(const cv::Mat& image, const cv::Rect& region,
                                                         const model::TrackFrame& track, int shift_levels) const {
  std::vector<model::ForeignBox> out;
  if (!view_.pose || watch_.background_grey.size() != image.size()) return out;
  const cv::Rect roi = region & cv::Rect(cv::Point(), image.size());
  if (roi.area() == 0) return out;
  cv::Mat now;
  grey_into(image(roi), now);
  const std::vector<FootprintPx> footprints = footprints_px(roi, track);
  cv::Mat explained = cv::Mat::zeros(roi.size(), CV_8U);
  for (const FootprintPx& f : footprints) explained |= f.mask;
  constexpr std::size_t kMaxOutlinePoints = 48;
  const std::vector<ForeignShape> shapes = foreign_shapes(now, watch_.background_grey(roi), explained, shift_levels);
  // What the picture shows of something that could lie under a disk.
  RimEvidence evidence{roi, cv::Mat(), explained};  // filled when first asked for
  auto evidence_now = [&]() -> const RimEvidence& {
    if (evidence.shown.empty()) {
      evidence.shown = cv::Mat::zeros(roi.size(), CV_8U);
      for (const ForeignShape& shape : shapes) evidence.shown |= shape.pixels;
      cv::dilate(evidence.shown, evidence.shown, cv::Mat());
    }
    return evidence;
  };
  // A part lies against a disk when it meets the disk's footprint along at least half as long a
  // stretch as along the footprint it meets most: the rim of a counter under another follows the
  // upper one's outline all along, and may touch a neighbour's at a point on the way.
  for (const ForeignShape& shape : shapes) {
    std::vector<cv::Point2d> px;
    for (const cv::Point& p : simplified(shape.outline, kMaxOutlinePoints)) px.emplace_back(p.x + roi.x, p.y + roi.y);
    model::ForeignBox box{1e300, 1e300, -1e300, -1e300};
    for (const auto& p : calib::table_from_image(*view_.pose, px, 0.0)) {
      if (!p) continue;
      box.outline.push_back(*p);
      box.x0 = std::min(box.x0, p->x), box.y0 = std::min(box.y0, p->y);
      box.x1 = std::max(box.x1, p->x), box.y1 = std::max(box.y1, p->y);
    }
    if (box.outline.empty()) continue;
    cv::Mat near;
    cv::dilate(shape.pixels, near, cv::Mat());
    std::vector<std::pair<const FootprintPx*, int>> contact;  // footprint pixels next to the part, per disk
    int most = 0;
    for (const FootprintPx& f : footprints) {
      if (!f.seen_now) continue;
      const int n = cv::countNonZero(near & f.mask);
      if (n == 0) continue;
      contact.emplace_back(&f, n);
      most = std::max(most, n);
    }
    for (const auto& [f, n] : contact) {
      if (2 * n < most || std::find(box.against.begin(), box.against.end(), f->disk) != box.against.end()) continue;
      box.against.push_back(f->disk);
      // Whether it could be a counter under that disk: judged where the part meets it.
      const model::DiskTrack* upper = model::find_track(track, f->disk);
      const std::optional<std::size_t> i = registry_.index_of(f->disk);
      bool under = true;
      if (upper != nullptr && i && upper->x && upper->y && upper->heading && !counter_bodies_.empty()) {
        cv::Mat meets, at;
        cv::dilate(f->mask, meets, cv::Mat());
        cv::findNonZero(meets & shape.pixels, at);
        UnderQuery query;
        query.part_px = px;
        for (int k = 0; k < static_cast<int>(at.total()); ++k) {
          const cv::Point p = at.at<cv::Point>(k);
          query.contact_px.emplace_back(p.x + roi.x, p.y + roi.y);
        }
        query.upper = {registry_.disks()[*i].shape, geom::Pose::from_degrees(*upper->x, *upper->y, *upper->heading)};
        query.upper_sigma_mm = upper->sigma_mm;
        under = could_lie_under(*view_.pose, query, counter_bodies_, evidence_now());
      }
      if (under) box.under.push_back(f->disk);
    }
    tilted_in_part(near, roi, track, box);
    out.push_back(std::move(box));
  }
  return out;
}

void Tracker::report_foreign(const cv::Mat& image, TrackerResult& result, int shift_levels) {
  foreign_ = {};
  if (!view_.pose || !view_.geometry) return;
  const cv::Rect frame(cv::Point(), image.size());
  // Where to look at full resolution: each small part the watch found (a hand is far larger),
  // with a shrunk pixel's margin (the coarse mask drew its edges a shrunk pixel inward or
  // outward); and around each counter that came to lie where it lies since the watch's
  // background was taken, as far as a counter under it could reach out from under it — the
  // watch's shrunk pixels blur a rim a few millimetres wide into the counter's own footprint.
  std::vector<cv::Rect> small_parts, looks;
  for (const cv::Rect& part : result.foreign_parts_px) {
    if (part.width > 2 * view_.geometry->max_disk_tag_px || part.height > 2 * view_.geometry->max_disk_tag_px) {
      result.track.foreign.push_back(foreign_on_table(*view_.pose, part));
      foreign_.large_parts_px.push_back(part);
      continue;
    }
    small_parts.push_back(part);
    looks.push_back(grown(part, view_.geometry->mask_scale) & frame);
    // Searched for tags again next frame.
    foreign_.small_parts_px.push_back(grown(part, static_cast<int>(view_.geometry->max_disk_tag_px / 2)) & frame);
  }
  if (watch_.background_grey.size() == image.size())
    for (const model::DiskTrack& d : result.track.disks) {
      const std::optional<std::size_t> i = registry_.index_of(d.name);
      if (!i || d.kind != model::DiskKind::counter || d.state != model::TrackState::visible || !d.x || !d.y ||
          !d.heading)
        continue;
      const geom::Pose pose = geom::Pose::from_degrees(*d.x, *d.y, *d.heading);
      const std::optional<geom::Pose>& then = watch_.background_poses[*i];
      if (then && geom::distance(then->position, pose.position) < 0.5 &&
          std::fabs(geom::angle_difference_deg(then->heading_deg(), pose.heading_deg())) < 2)
        continue;  // as it lay when the table last settled: nothing new about it
      const double reach = 2 * geom::bounding_radius(registry_.disks()[*i].shape) + 2;
      const cv::Rect box = image_box_around(pose.position, reach, 0.0, image.size());
      if (box.area() > 0) looks.push_back(box);
    }
  // Around the tag of each disk seen tilted at rest: the part it makes is measured whole, its tag
  // in it (the watch's part may hold only what its neighbours' coarse footprints leave of it).
  for (const model::DiskTrack& d : result.track.disks) {
    const std::optional<std::size_t> i = registry_.index_of(d.name);
    if (!i || !d.tilted || !disks_.tilted[*i]) continue;
    std::vector<cv::Point2f> corners;
    for (const cv::Point2d& p : disks_.tilted[*i]->corners)
      corners.emplace_back(static_cast<float>(p.x), static_cast<float>(p.y));
    const cv::Rect look =
        grown(cv::boundingRect(corners), static_cast<int>(view_.geometry->max_disk_tag_px / 2)) & frame;
    if (look.area() > 0) looks.push_back(look);
  }
  std::vector<cv::Rect> fine_px;  // the image boxes of what was found at full resolution
  for (const cv::Rect& look : merged(looks))
    for (model::ForeignBox& b : foreign_outlines(image, look, result.track, shift_levels)) {
      fine_px.push_back(look);
      result.track.foreign.push_back(std::move(b));
    }
  // A small part the full resolution found nothing in stands as the watch saw it: the safe side.
  for (const cv::Rect& part : small_parts)
    if (std::none_of(fine_px.begin(), fine_px.end(), [&](const cv::Rect& f) { return (f & part).area() > 0; }))
      result.track.foreign.push_back(foreign_on_table(*view_.pose, part));
}

}  // namespace diskref::vision
