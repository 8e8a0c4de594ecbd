#include "vision/rim_under.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>
#include <optional>
#include <string_view>

#include <opencv2/calib3d.hpp>

#include "engine/geometry/distance.h"
#include "engine/geometry/outline.h"
#include "vision/foreign_shapes.h"
#include "vision/tracker_geometry.h"

namespace diskref::vision {
namespace {

// Points about a counter's rim to look at, and how few of them, where no known disk hides them,
// say nothing (a counter almost wholly under the upper one shows too little of its rim).
constexpr int kRimSamples = 48;
constexpr int kFewestRimPoints = 8;
// How much of the rim that would show must show. A rendered counter under another shows all of it
// (bench/counter_drops: every one of them still asked about at 100 %); a quarter is left for a
// real camera's dropouts — a blurred or glinting stretch of the rim, a noisy dark table.
constexpr double kRimShownFraction = 0.75;
// Where a counter could lie, searched on a grid this fine (mm; finer for a tiny counter).
constexpr double kGridMm = 1.0;

// A pixel as the table segment its ray crosses between the table plane and a counter's top: a
// pixel of a counter's top, side or shadow lies on that segment.
struct RaySegment {
  geom::Vec2 at_table, at_top;
};

// The pixels' segments, or nothing when a ray misses the table.
std::optional<std::vector<RaySegment>> segments_of(const calib::CameraPose& camera, const std::vector<cv::Point2d>& px,
                                                   double thickness_mm) {
  const std::vector<std::optional<geom::Vec2>> table = calib::table_from_image(camera, px, 0.0);
  const std::vector<std::optional<geom::Vec2>> top = calib::table_from_image(camera, px, thickness_mm);
  std::vector<RaySegment> out;
  out.reserve(px.size());
  for (std::size_t k = 0; k < px.size(); ++k) {
    if (!table[k] || !top[k]) return std::nullopt;
    out.push_back({*table[k], *top[k]});
  }
  return out;
}

// Distance from a placed shape to a segment (0 when they meet).
double distance_to_segment(const geom::PlacedShape& shape, const RaySegment& s) {
  const geom::Vec2 d = s.at_top - s.at_table;
  const double len = geom::length(d);
  if (const auto* circle = std::get_if<geom::Circle>(&shape.shape)) {
    const geom::Vec2 c = shape.pose.position;
    const double u = len > 0 ? std::clamp(geom::dot(c - s.at_table, d) / (len * len), 0.0, 1.0) : 0.0;
    return std::max(0.0, geom::length(c - (s.at_table + u * d)) - circle->diameter_mm / 2);
  }
  // Any other shape: the segment as a hairline rectangle, through the exact distance.
  const geom::Vec2 mid = 0.5 * (s.at_table + s.at_top);
  const double heading = len > 0 ? std::atan2(d.y, d.x) * 180 / std::numbers::pi : 0.0;
  const geom::PlacedShape hairline{geom::Rect{std::max(len, 1e-3), 1e-3},
                                   geom::Pose::from_degrees(mid.x, mid.y, heading)};
  return std::max(0.0, geom::signed_distance(shape, hairline).distance);
}

bool holds(const geom::PlacedShape& counter, const std::vector<RaySegment>& segments, double slack) {
  return std::all_of(segments.begin(), segments.end(),
                     [&](const RaySegment& s) { return distance_to_segment(counter, s) <= slack; });
}

// How far beyond a counter's outline a pixel of it may lie: its shadow, as the footprints allow
// one (foreign_shapes.h), and a pixel and a half of blur and outline simplification.
double slack_mm(double thickness_mm, double px_per_mm) {
  return kForeignFootprintMarginMm + thickness_mm / 2 + 1.5 / px_per_mm;
}

// The camera's picture of the table plane at a counter's top and at the table, over the region
// searched: two homographies fit to the exact projection at a 5 x 5 grid of points. The rim is
// looked at in hundreds of places a search, and a lens's distortion over a few centimetres is
// nearly projective; where it is not (the fit misses a point between the grid's by more than a
// tenth of a pixel: a strong lens near the picture's corner), every point is projected exactly.
class RegionProjection {
 public:
  RegionProjection(const calib::CameraPose& camera, geom::Vec2 lo, geom::Vec2 hi, double top_mm)
      : camera_(camera), heights_{top_mm, 0.0} {
    constexpr int n = 5;
    for (std::size_t plane = 0; plane < 2 && !exact_; ++plane) {
      std::vector<cv::Point2d> table, image;
      std::vector<cv::Point3d> grid, between;
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
          const double u = static_cast<double>(i) / (n - 1), v = static_cast<double>(j) / (n - 1);
          grid.emplace_back(lo.x + u * (hi.x - lo.x), lo.y + v * (hi.y - lo.y), heights_[plane]);
          table.emplace_back(grid.back().x, grid.back().y);
          if (i + 1 < n && j + 1 < n)
            between.emplace_back(lo.x + (i + 0.5) / (n - 1) * (hi.x - lo.x), lo.y + (j + 0.5) / (n - 1) * (hi.y - lo.y),
                                 heights_[plane]);
        }
      image = calib::image_from_table(camera, grid);
      const cv::Mat h = cv::findHomography(table, image, 0);
      if (h.empty()) {
        exact_ = true;
        break;
      }
      h_[plane] = cv::Matx33d(h);
      const std::vector<cv::Point2d> truth = calib::image_from_table(camera, between);
      for (std::size_t k = 0; k < between.size(); ++k)
        if (cv::norm(apply(plane, {between[k].x, between[k].y}) - truth[k]) > 0.1) exact_ = true;
    }
  }
  // A table point at the top's height (plane 0) or on the table (plane 1), in the image.
  cv::Point2d operator()(std::size_t plane, geom::Vec2 p) const {
    return exact_ ? calib::image_from_table(camera_, cv::Point3d(p.x, p.y, heights_[plane])) : apply(plane, p);
  }

 private:
  cv::Point2d apply(std::size_t plane, geom::Vec2 p) const {
    const cv::Vec3d q = h_[plane] * cv::Vec3d(p.x, p.y, 1.0);
    return {q[0] / q[2], q[1] / q[2]};
  }
  const calib::CameraPose& camera_;
  std::array<double, 2> heights_;
  std::array<cv::Matx33d, 2> h_;
  bool exact_ = false;
};

// A point of a counter's outline and the outward normal there, in the counter's own frame.
struct RimPoint {
  geom::Vec2 at, normal;
};
// kRimSamples points spaced evenly along a shape's outline (so that a corner counts no more than
// the stretch of rim it is).
std::vector<RimPoint> rim_points(const geom::Shape& shape) {
  const std::vector<geom::Vec2> polygon = geom::outline_polygon({shape, geom::Pose{}}, 2.0);  // counter-clockwise
  std::vector<double> along(polygon.size() + 1, 0.0);
  for (std::size_t k = 0; k < polygon.size(); ++k)
    along[k + 1] = along[k] + geom::length(polygon[(k + 1) % polygon.size()] - polygon[k]);
  std::vector<RimPoint> out;
  std::size_t edge = 0;
  for (int k = 0; k < kRimSamples; ++k) {
    const double d = along.back() * k / kRimSamples;
    while (edge + 1 < polygon.size() && along[edge + 1] <= d) ++edge;
    const geom::Vec2 a = polygon[edge], b = polygon[(edge + 1) % polygon.size()];
    const double len = std::max(along[edge + 1] - along[edge], 1e-12);
    const geom::Vec2 dir = (b - a) / len;
    out.push_back({a + (d - along[edge]) * dir, {dir.y, -dir.x}});
  }
  return out;
}

// How much of a counter's rim, were it lying flat here, shows: of its points where no known disk
// hides it (`looked`), those where the picture differs from the bare table (`shown`), and of those
// the ones where the counter ends — just beyond its side and shadow, nothing unexplained (`ends`).
// Each point `inset_mm` inside its outline, at its top; `beyond_mm` outside it, on the table.
struct RimSeen {
  int looked = 0, shown = 0, ends = 0;
};
RimSeen rim_seen(const RegionProjection& project, const std::vector<RimPoint>& rim, const geom::Pose& pose,
                 double inset_mm, double beyond_mm, const RimEvidence& evidence) {
  auto at = [&](const cv::Point2d& q) -> std::optional<cv::Point> {
    const cv::Point px(static_cast<int>(std::lround(q.x)) - evidence.roi.x,
                       static_cast<int>(std::lround(q.y)) - evidence.roi.y);
    if (px.x < 0 || px.y < 0 || px.x >= evidence.roi.width || px.y >= evidence.roi.height) return std::nullopt;
    return px;
  };
  RimSeen seen;
  for (const RimPoint& r : rim) {
    const geom::Vec2 p = geom::to_table(pose, r.at), dir = geom::dir_to_table(pose, r.normal);
    const std::optional<cv::Point> in = at(project(0, p - inset_mm * dir));
    if (!in || evidence.hidden.at<unsigned char>(*in) != 0) continue;
    ++seen.looked;
    if (evidence.shown.at<unsigned char>(*in) == 0) continue;
    ++seen.shown;
    // Beyond the region, or over a known disk: nothing says it goes on.
    const std::optional<cv::Point> out = at(project(1, p + beyond_mm * dir));
    if (!out || evidence.hidden.at<unsigned char>(*out) != 0 || evidence.shown.at<unsigned char>(*out) == 0)
      ++seen.ends;
  }
  return seen;
}

}  // namespace

std::vector<CounterBody> counter_bodies(const model::DiskRegistry& registry) {
  std::vector<CounterBody> out;
  // A shape's kind, its size and its flip length fix it.
  auto same = [](const CounterBody& b, const model::DiskSpec& d) {
    return std::string_view(geom::shape_type_name(b.shape)) == geom::shape_type_name(d.shape) &&
           geom::bounding_radius(b.shape) == geom::bounding_radius(d.shape) &&
           geom::flip_length(b.shape) == geom::flip_length(d.shape) && b.thickness_mm == d.thickness_mm;
  };
  for (const model::DiskSpec& d : registry.disks())
    if (d.kind == model::DiskKind::counter &&
        std::none_of(out.begin(), out.end(), [&](const CounterBody& b) { return same(b, d); }))
      out.push_back({d.shape, d.thickness_mm});
  return out;
}

bool could_lie_under(const calib::CameraPose& camera, const UnderQuery& query, const std::vector<CounterBody>& bodies,
                     const RimEvidence& evidence) {
  if (query.contact_px.empty() || bodies.empty()) return true;
  const double px_per_mm = std::max(pixels_per_mm_at(camera, query.upper.pose.position, 0.0), 1e-6);
  bool any_holds = false;  // some counter touching the upper disk holds the part where it meets it
  for (const CounterBody& body : bodies) {
    const std::optional<std::vector<RaySegment>> contact = segments_of(camera, query.contact_px, body.thickness_mm);
    const std::optional<std::vector<RaySegment>> whole = segments_of(camera, query.part_px, body.thickness_mm);
    if (!contact || !whole) return true;
    geom::Vec2 lo{1e300, 1e300}, hi{-1e300, -1e300};
    for (const RaySegment& s : *contact)
      for (const geom::Vec2& p : {s.at_table, s.at_top}) {
        lo = {std::min(lo.x, p.x), std::min(lo.y, p.y)};
        hi = {std::max(hi.x, p.x), std::max(hi.y, p.y)};
      }
    const double slack = slack_mm(body.thickness_mm, px_per_mm);
    // Touching the upper disk, within its pose's uncertainty, counts as under it.
    const double touch = 0.5 + 2 * query.upper_sigma_mm;
    const double r = geom::bounding_radius(body.shape);
    const double step = std::min(kGridMm, r / 8);
    const int headings =
        std::holds_alternative<geom::Circle>(body.shape) ? 1 : 12;  // every 15 degrees (half-turn symmetric)
    // A pixel inside the rim's outer edge, so that a blurred edge pixel still counts; and beyond
    // it, past its side and shadow, two pixels more.
    const double inset = 1.0 / px_per_mm, beyond = slack + 2.0 / px_per_mm;
    // Every centre that holds the contact lies within reach of each of its pixels.
    const double reach = r + slack;
    const std::vector<RimPoint> rim = rim_points(body.shape);
    const geom::Vec2 from{hi.x - reach, hi.y - reach}, to{lo.x + reach, lo.y + reach};
    if (from.x > to.x || from.y > to.y) continue;  // wider than a counter: none holds it
    const RegionProjection project(camera, {from.x - r - beyond, from.y - r - beyond},
                                   {to.x + r + beyond, to.y + r + beyond}, body.thickness_mm);
    for (double x = from.x; x <= to.x; x += step)
      for (double y = from.y; y <= to.y; y += step)
        for (int h = 0; h < headings; ++h) {
          const geom::PlacedShape counter{body.shape, geom::Pose::from_degrees(x, y, 15.0 * h)};
          if (!holds(counter, *contact, slack) || geom::signed_distance(counter, query.upper).distance > touch)
            continue;
          any_holds = true;
          const RimSeen seen = rim_seen(project, rim, counter.pose, inset, beyond, evidence);
          // Enough of its rim would show to tell: it could lie there if that rim shows, and the
          // counter ends there along half of it at least (a part going on beyond most of the rim
          // is something larger, a counter on its edge seen from the side, say; a counter under
          // this one may have another thing lying against it along a stretch of its rim). Too little:
          // it peeks out by a millimetre or so, and could lie there only if that peek is the whole
          // part (an edge-stander's tip touching the disk looks the same where it touches; the
          // rest of it, beyond the peek, says it is no counter under the disk).
          if (seen.looked >= kFewestRimPoints
                  ? seen.shown >= kRimShownFraction * seen.looked && 2 * seen.ends >= seen.looked
                  : holds(counter, *whole, slack))
            return true;
        }
  }
  // None holds it: more than one counter's worth meets the disk (two under it, say). It could.
  return !any_holds;
}

}  // namespace diskref::vision
