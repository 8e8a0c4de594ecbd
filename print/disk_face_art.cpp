#include "print/disk_face_art.h"

#include <algorithm>
#include <cmath>

#include <opencv2/imgproc.hpp>

#include "engine/geometry/shape.h"
#include "print/tag_bitmaps.h"

namespace diskref::print {
namespace {

// The label's text is drawn once into a mask this fine, then looked up.
constexpr double kLabelMaskPxPerMm = 24;
// Hershey simplex capitals are about 22 px tall at scale 1.
constexpr double kHersheyCapPx = 22;
// Steps of the search for a place.
constexpr double kSearchStepMm = 0.2;
constexpr double kLateralStepMm = 0.5;

double font_scale(double cap_mm) {
  return cap_mm * kLabelMaskPxPerMm / kHersheyCapPx;
}
int font_thickness(double cap_mm) {
  return std::max(1, static_cast<int>(std::lround(0.13 * cap_mm * kLabelMaskPxPerMm)));
}

// The text's box at a cap height: width, and the height including descenders (mm).
geom::Vec2 text_size_mm(const std::string& text, double cap_mm) {
  int baseline = 0;
  const int thick = font_thickness(cap_mm);
  cv::Size s = cv::getTextSize(text, cv::FONT_HERSHEY_SIMPLEX, font_scale(cap_mm), thick, &baseline);
  return {(s.width + thick) / kLabelMaskPxPerMm, (s.height + baseline + thick) / kLabelMaskPxPerMm};
}

// A convex polygon (counter-clockwise) and a box overlap unless an axis separates them.
bool overlaps(const std::array<geom::Vec2, 4>& poly, const FaceBox& box) {
  const std::array<geom::Vec2, 4> b = box.corners();
  auto separated_along = [&](geom::Vec2 axis) {
    double p0 = 1e300, p1 = -1e300, q0 = 1e300, q1 = -1e300;
    for (geom::Vec2 p : poly) p0 = std::min(p0, geom::dot(p, axis)), p1 = std::max(p1, geom::dot(p, axis));
    for (geom::Vec2 q : b) q0 = std::min(q0, geom::dot(q, axis)), q1 = std::max(q1, geom::dot(q, axis));
    return p1 < q0 || q1 < p0;
  };
  if (separated_along({1, 0}) || separated_along({0, 1})) return false;
  for (int i = 0; i < 4; ++i)
    if (separated_along(geom::perp(poly[static_cast<std::size_t>((i + 1) % 4)] - poly[static_cast<std::size_t>(i)])))
      return false;
  return true;
}

FaceBox grown(const FaceBox& b, double by) {
  return {b.min - geom::Vec2{by, by}, b.max + geom::Vec2{by, by}};
}

std::array<geom::Vec2, 4> as_polygon(const FaceBox& b) {
  return b.corners();
}

// Everything a label must keep clear of on this face, as convex polygons.
std::vector<std::array<geom::Vec2, 4>> keep_clear(const DiskAppearance& look, model::Face face) {
  std::vector<std::array<geom::Vec2, 4>> out;
  const model::DiskSpec& disk = look.spec();
  if (const model::TagSpec* tag = look.tag(face)) {
    // The tag's printed square and half a cell of its white margin (the detector needs no more
    // white than that beyond the 9 x 9 cells), turned: its +x is the heading turned by -offset
    // (disk_appearance.h).
    const double cell = tag->size_mm / kTagBorderCells;
    const double half = (kTagCells / 2.0 + kLabelTagClearanceCells) * cell;
    const geom::Rot r = geom::Rot::from_degrees(-tag->heading_offset_deg);
    out.push_back({geom::rotate(r, {-half, -half}), geom::rotate(r, {half, -half}), geom::rotate(r, {half, half}),
                   geom::rotate(r, {-half, half})});
  }
  const double radius = geom::bounding_radius(disk.shape);
  if (disk.kind == model::DiskKind::ship)  // the arrow at the front (DiskAppearance::face_color)
    out.push_back(as_polygon({{0.72 * radius - 0.5, -0.14 * radius - 0.5}, {radius, 0.14 * radius + 0.5}}));
  if (disk.kind == model::DiskKind::template_) {  // the ruler ticks along both long edges
    const double inner = 0.25 * radius - 0.3;
    out.push_back(as_polygon({{-radius, inner}, {radius, radius}}));
    out.push_back(as_polygon({{-radius, -radius}, {radius, -inner}}));
  }
  return out;
}

// Whether a box lies inside the outline with the clearance: every shape is convex, so the grown
// box's corners inside it are enough.
bool inside_outline(const DiskAppearance& look, const FaceBox& box) {
  for (geom::Vec2 c : grown(box, kLabelOutlineClearanceMm).corners())
    if (!look.contains(c.x, c.y)) return false;
  return true;
}

}  // namespace

std::optional<FaceLabel> FaceLabel::fit(const DiskAppearance& look, model::Face face, const std::string& text,
                                        const std::vector<FaceBox>& taken, bool above_first) {
  if (text.empty()) return std::nullopt;
  std::vector<std::array<geom::Vec2, 4>> clear = keep_clear(look, face);
  for (const FaceBox& t : taken) clear.push_back(as_polygon(grown(t, 0.4)));
  const double radius = geom::bounding_radius(look.spec().shape);
  auto free = [&](const FaceBox& box) {
    if (!inside_outline(look, box)) return false;
    for (const auto& poly : clear)
      if (overlaps(poly, box)) return false;
    return true;
  };
  for (int tenth = static_cast<int>(std::lround(kMaxFaceLabelMm * 10));
       tenth >= static_cast<int>(std::lround(kMinFaceLabelMm * 10)); --tenth) {
    const double cap = tenth / 10.0;
    const geom::Vec2 size = text_size_mm(text, cap);
    // Below the tag, above it, left of it, right of it: centred on the axis if that is free, else
    // shifted along the side as little as needed (a tag turned 45 degrees leaves room only beside
    // its corners); from the tag outwards, the first place that is free.
    std::optional<FaceBox> found;
    for (int order = 0; order < 4 && !found; ++order) {
      const int side = above_first && order < 2 ? 1 - order : order;
      for (int k = 0; k <= static_cast<int>(2 * radius / kLateralStepMm) && !found; ++k) {
        const double shift = (k % 2 == 0 ? 1 : -1) * kLateralStepMm * ((k + 1) / 2);
        for (double d = 0; d <= radius && !found; d += kSearchStepMm) {
          FaceBox b;
          switch (side) {
            case 0:
              b = {{shift - size.x / 2, -d - size.y}, {shift + size.x / 2, -d}};
              break;
            case 1:
              b = {{shift - size.x / 2, d}, {shift + size.x / 2, d + size.y}};
              break;
            case 2:
              b = {{-d - size.x, shift - size.y / 2}, {-d, shift + size.y / 2}};
              break;
            default:
              b = {{d, shift - size.y / 2}, {d + size.x, shift + size.y / 2}};
              break;
          }
          if (free(b)) found = b;
        }
      }
    }
    if (!found) continue;
    FaceLabel label;
    label.text_ = text;
    label.cap_height_mm_ = cap;
    label.box_ = *found;
    const int w = static_cast<int>(std::ceil((found->max.x - found->min.x) * kLabelMaskPxPerMm));
    const int h = static_cast<int>(std::ceil((found->max.y - found->min.y) * kLabelMaskPxPerMm));
    label.mask_ = cv::Mat::zeros(h, w, CV_8UC1);
    int baseline = 0;
    const int thick = font_thickness(cap);
    cv::getTextSize(text, cv::FONT_HERSHEY_SIMPLEX, font_scale(cap), thick, &baseline);
    cv::putText(label.mask_, text, cv::Point(thick / 2, h - baseline - thick / 2), cv::FONT_HERSHEY_SIMPLEX,
                font_scale(cap), cv::Scalar(255), thick, cv::LINE_8);
    return label;
  }
  return std::nullopt;
}

bool FaceLabel::ink(double x, double y) const {
  if (x < box_.min.x || y < box_.min.y || x >= box_.max.x || y >= box_.max.y) return false;
  const int col = static_cast<int>((x - box_.min.x) * kLabelMaskPxPerMm);
  const int row = static_cast<int>((box_.max.y - y) * kLabelMaskPxPerMm);
  if (row < 0 || col < 0 || row >= mask_.rows || col >= mask_.cols) return false;
  return mask_.at<uint8_t>(row, col) > 127;
}

FoldPair fold_pair(const model::DiskSpec& disk) {
  FoldPair pair;
  pair.front_mm = geom::support_local(disk.shape, {1, 0}).x;
  pair.hinge_mm = std::max(0.5, disk.thickness_mm);
  pair.down_offset_mm = 2 * pair.front_mm + pair.hinge_mm;
  // The outline's width half a millimetre behind its front: a flat's length, or a sliver of a circle.
  const double across = 2 * geom::support_local(disk.shape, {0, 1}).y;
  const geom::PlacedShape placed{disk.shape, geom::Pose{}};
  double front_width = 0;
  for (double y = 0; y <= across / 2; y += 0.05)
    if (geom::contains(placed, geom::Vec2{pair.front_mm - 0.5, y})) front_width = 2 * y;
  pair.hinge_width_mm = std::min(across, std::max(front_width, 0.4 * across));
  return pair;
}

bool pair_contains(const DiskAppearance& look, const FoldPair& pair, double x, double y) {
  if (look.contains(x, y) || look.contains(x - pair.down_offset_mm, y)) return true;
  // The hinge: from where the up face's outline is at the hinge's sides to where the down face's is.
  return std::fabs(y) <= pair.hinge_width_mm / 2 && x >= 0 && x <= pair.down_offset_mm;
}

}  // namespace diskref::print
