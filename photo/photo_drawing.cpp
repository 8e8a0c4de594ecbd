#include "photo/photo_drawing.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include <opencv2/imgproc.hpp>

namespace diskref::photo {
namespace {

// The outline of a convex shape traced by its support points all round (flats and corners come
// out as they are).
std::vector<cv::Point> outline_in_photo(const TablePlacement& placement, const geom::PlacedShape& placed,
                                        double height) {
  std::vector<cv::Point> points;
  constexpr int kSteps = 144;
  for (int i = 0; i < kSteps; ++i) {
    const double a = 2 * std::numbers::pi * i / kSteps;
    const geom::Vec2 p = geom::support(placed, {std::cos(a), std::sin(a)});
    const cv::Point2d pixel = project_to_photo(placement, {p.x, p.y, height});
    points.emplace_back(cvRound(pixel.x), cvRound(pixel.y));
  }
  return points;
}

}  // namespace

cv::Mat annotate_photo(const cv::Mat& photo, const TablePlacement& placement, const std::vector<DrawnDisk>& disks,
                       const std::vector<DrawnTemplate>& templates, const std::vector<DrawnMargin>& margins) {
  cv::Mat out = photo.channels() == 3 ? photo.clone() : cv::Mat();
  if (out.empty()) cv::cvtColor(photo, out, cv::COLOR_GRAY2BGR);
  // Lines and letters scale with the photo, so that a 48 Mpx photo's are not hairlines.
  const double scale = std::max(1.0, std::max(out.cols, out.rows) / 1500.0);
  const int line = std::max(1, cvRound(2 * scale));
  const double font = 0.6 * scale;
  const cv::Scalar disk_colour(0, 220, 0), template_colour(255, 160, 0), margin_colour(0, 200, 255),
      doubt_colour(0, 0, 255), text_outline(0, 0, 0), landing_colour(255, 0, 255);
  // Labels never cover one another: one that would is moved down until it is clear.
  std::vector<cv::Rect> taken;
  const auto label = [&](const std::string& text, cv::Point at, const cv::Scalar& colour) {
    int baseline = 0;
    const cv::Size size = cv::getTextSize(text, cv::FONT_HERSHEY_SIMPLEX, font, line + 2, &baseline);
    for (int tries = 0; tries < 50; ++tries) {
      const cv::Rect box(at.x, at.y - size.height, size.width, size.height + baseline);
      if (std::none_of(taken.begin(), taken.end(), [&](const cv::Rect& r) { return (r & box).area() > 0; })) {
        taken.push_back(box);
        break;
      }
      at.y += size.height + baseline + line;
    }
    cv::putText(out, text, at, cv::FONT_HERSHEY_SIMPLEX, font, text_outline, line + 2, cv::LINE_AA);
    cv::putText(out, text, at, cv::FONT_HERSHEY_SIMPLEX, font, colour, line, cv::LINE_AA);
  };
  for (const DrawnTemplate& t : templates) {
    const auto points = outline_in_photo(placement, t.placed, 0);
    cv::polylines(out, points, true, template_colour, line, cv::LINE_AA);
  }
  for (const DrawnDisk& disk : disks) {
    if (disk.is_landing) {  // where a move puts the disk: its outline only
      cv::polylines(out, outline_in_photo(placement, disk.placed, disk.height_mm), true, landing_colour,
                    std::max(1, line / 2), cv::LINE_AA);
      continue;
    }
    // The base on the table (thin) and the top where the tag lies (thick): their offset is the
    // parallax of the disk's thickness.
    cv::polylines(out, outline_in_photo(placement, disk.placed, 0), true, disk_colour, std::max(1, line / 2),
                  cv::LINE_AA);
    cv::polylines(out, outline_in_photo(placement, disk.placed, disk.height_mm), true,
                  disk.is_template ? template_colour : disk_colour, line, cv::LINE_AA);
    const geom::Vec2 c = disk.placed.pose.position, h = disk.placed.pose.heading_dir();
    const double r = geom::bounding_radius(disk.placed.shape);
    const cv::Point2d centre = project_to_photo(placement, {c.x, c.y, disk.height_mm});
    const cv::Point2d nose = project_to_photo(placement, {c.x + 0.8 * r * h.x, c.y + 0.8 * r * h.y, disk.height_mm});
    cv::arrowedLine(out, centre, nose, disk_colour, line, cv::LINE_AA, 0, 0.2);
    const cv::Point2d name_at = project_to_photo(placement, {c.x, c.y - 1.1 * r, disk.height_mm});
    label(disk.name, cv::Point(cvRound(name_at.x), cvRound(name_at.y)), disk_colour);
  }
  for (const DrawnMargin& m : margins) {
    const cv::Point2d a = project_to_photo(placement, {m.from.x, m.from.y, 0});
    const cv::Point2d b = project_to_photo(placement, {m.to.x, m.to.y, 0});
    const cv::Scalar colour = m.too_close ? doubt_colour : margin_colour;
    cv::line(out, a, b, colour, line, cv::LINE_AA);
    cv::circle(out, a, 2 * line, colour, cv::FILLED, cv::LINE_AA);
    cv::circle(out, b, 2 * line, colour, cv::FILLED, cv::LINE_AA);
    const cv::Point2d mid = (a + b) * 0.5;
    label(m.label, cv::Point(cvRound(mid.x + 4 * line), cvRound(mid.y)), colour);
  }
  return out;
}

}  // namespace diskref::photo
