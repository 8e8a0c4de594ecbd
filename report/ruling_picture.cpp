#include "report/ruling_picture.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "engine/geometry/outline.h"
#include "engine/io/write_error.h"

namespace diskref::report {
namespace {

using Role = RulingScene::Placed::Role;

std::optional<geom::Pose> pose_in(const model::TrackFrame& frame, const std::string& name) {
  for (const model::DiskTrack& d : frame.disks)
    if (d.name == name && d.x && d.y && d.heading) return geom::Pose::from_degrees(*d.x, *d.y, *d.heading);
  return std::nullopt;
}

// BGR for the photo, and the same as CSS colour for the diagram.
struct Look {
  cv::Scalar bgr;
  const char* css;
  int thickness;
};
Look look_of(Role role) {
  switch (role) {
    case Role::start:
      return {{200, 200, 200}, "#c8c8c8", 2};
    case Role::ghost:
      return {{255, 255, 0}, "#00ffff", 1};
    case Role::landing:
      return {{0, 220, 255}, "#ffdc00", 2};
    case Role::end:
      return {{80, 220, 80}, "#50dc50", 3};
    case Role::other:
      return {{0, 160, 255}, "#ffa000", 2};
    case Role::other_counted:
      return {{60, 60, 230}, "#e63c3c", 3};
    case Role::counter_read:
      return {{80, 220, 80}, "#50dc50", 2};
    case Role::counter_asked:
      return {{40, 176, 255}, "#ffb028", 2};
  }
  return {{255, 255, 255}, "#ffffff", 1};
}

// What a counter asked about lies on or against: red, as a verdict's disk that counted.
const Look kLiesAgainst{{60, 60, 230}, "#e63c3c", 2};

std::vector<geom::Vec2> outline_of(const RulingScene::Placed& p, const model::DiskRegistry& registry) {
  const model::DiskSpec* spec = registry.find(p.name);
  const geom::Shape shape = spec != nullptr ? spec->shape : geom::Shape{geom::Circle{40.0}};
  return geom::outline_polygon({shape, p.pose}, 6.0);
}

// ASCII: OpenCV's Hershey fonts draw nothing else ("±" would be "??").
std::string margin_text(const referee::Verdict& v) {
  return fmt::format("{} {:+.1f} +/- {:.1f} mm", referee::to_string(v.kind), v.margin_mm, v.sigma_mm);
}

}  // namespace

std::optional<RulingScene> ruling_scene(const referee::Entry& entry, const model::TrackFrame& snapshot) {
  if (!entry.observed) return std::nullopt;
  const referee::Observed& o = *entry.observed;
  RulingScene scene;
  for (std::size_t i = 0; i < o.legal_landings.size(); ++i)
    scene.items.push_back({o.disk, o.legal_landings[i], Role::ghost, ""});
  if (o.start) {
    scene.items.push_back({o.disk, o.start->pose, Role::start, "start"});
    scene.path.push_back(o.start->pose.position);
  }
  for (std::size_t i = 0; i < o.landings.size(); ++i)
    if (o.landings[i]) {
      const bool last = i + 1 == o.landings.size() && !o.end;
      scene.items.push_back({o.disk, o.landings[i]->pose, last ? Role::end : Role::landing, std::to_string(i + 1)});
      scene.path.push_back(o.landings[i]->pose.position);
    }
  if (o.end) {
    scene.items.push_back({o.disk, o.end->pose, Role::end, "end"});
    scene.path.push_back(o.end->pose.position);
  }
  if (o.placed) scene.items.push_back({o.disk, o.placed->pose, Role::end, "placed"});
  if (scene.items.empty()) {
    // An attack's range: the attacker where it lies.
    if (auto p = pose_in(snapshot, o.disk)) scene.items.push_back({o.disk, *p, Role::end, o.disk});
  }
  for (const referee::Verdict& v : o.verdicts) {
    if (v.with == "play_area") continue;
    const auto p = pose_in(snapshot, v.with);
    if (!p) continue;
    scene.items.push_back(
        {v.with, *p, v.call == referee::Call::yes ? Role::other_counted : Role::other, v.with + ": " + margin_text(v)});
  }
  if (scene.items.empty()) return std::nullopt;
  return scene;
}

std::optional<RulingScene> drop_scene(const referee::DropRead& drop) {
  RulingScene scene;
  for (const referee::CounterSeen& c : drop.counters.counters) {
    if (!c.pose) continue;
    // One asked about stays so after the referee's word on it (its label says the word): the
    // picture is the evidence of why it was asked.
    const bool read = c.readable;  // seen, lying flat by itself, and what its face shows is known
    if (!read && !c.why_outline_mm.empty()) scene.lies_against.push_back(c.why_outline_mm);
    // ASCII labels (OpenCV's Hershey fonts draw nothing else).
    scene.items.push_back(
        {c.name, *c.pose, read ? Role::counter_read : Role::counter_asked, referee::counter_label(c)});
  }
  if (scene.items.empty()) return std::nullopt;
  return scene;
}

std::optional<cv::Size> draw_ruling_photo(const cv::Mat& still, const calib::CameraPose& pose, const RulingScene& scene,
                                          const model::DiskRegistry& registry, const std::filesystem::path& out) {
  // Every outline in the picture's pixels, at the height of the disks' tops (2 mm: near enough).
  // The items', then what counters lie against.
  std::vector<std::vector<geom::Vec2>> on_table;
  for (const RulingScene::Placed& p : scene.items) on_table.push_back(outline_of(p, registry));
  on_table.insert(on_table.end(), scene.lies_against.begin(), scene.lies_against.end());
  std::vector<std::vector<cv::Point2d>> outlines;  // in the still's pixels
  cv::Rect box;
  for (const std::vector<geom::Vec2>& o : on_table) {
    std::vector<cv::Point3d> table;
    for (const geom::Vec2& v : o) table.emplace_back(v.x, v.y, 2.0);
    std::vector<cv::Point2d> px = calib::image_from_table(pose, table);
    std::vector<cv::Point> rounded;
    for (const cv::Point2d& q : px) rounded.emplace_back(cvRound(q.x), cvRound(q.y));
    const cv::Rect r = cv::boundingRect(rounded);
    box = box.area() == 0 ? r : (box | r);
    outlines.push_back(std::move(px));
  }
  const int pad = std::max(40, box.width / 6);
  box = cv::Rect(box.x - pad, box.y - pad, box.width + 2 * pad, box.height + 2 * pad);
  // At least 480 px each way, for a disk to be seen as a disk and not a spot.
  if (box.width < 480) box = cv::Rect(box.x - (480 - box.width) / 2, box.y, 480, box.height);
  if (box.height < 480) box = cv::Rect(box.x, box.y - (480 - box.height) / 2, box.width, 480);
  box &= cv::Rect(0, 0, still.cols, still.rows);
  if (box.area() == 0) return std::nullopt;

  cv::Mat picture = still.channels() == 1 ? cv::Mat() : still(box).clone();
  if (still.channels() == 1) cv::cvtColor(still(box), picture, cv::COLOR_GRAY2BGR);
  // Enlarged (up to 3 times) so that the disks concerned fill a picture a person looks at; the
  // outlines are drawn after, sharp.
  const double k = std::clamp(640.0 / std::max(box.width, box.height), 1.0, 3.0);
  if (k > 1.0) cv::resize(picture, picture, cv::Size(), k, k, cv::INTER_CUBIC);
  const auto to_picture = [&](cv::Point2d q) {
    return cv::Point(cvRound((q.x - box.x) * k), cvRound((q.y - box.y) * k));
  };
  std::vector<cv::Point> path_px;
  for (const geom::Vec2& v : scene.path)
    path_px.push_back(to_picture(calib::image_from_table(pose, cv::Point3d(v.x, v.y, 2.0))));
  if (path_px.size() >= 2) cv::polylines(picture, path_px, false, cv::Scalar(255, 255, 255), 2, cv::LINE_AA);
  for (std::size_t i = scene.items.size(); i < outlines.size(); ++i) {
    std::vector<cv::Point> px;
    for (const cv::Point2d& q : outlines[i]) px.push_back(to_picture(q));
    cv::polylines(picture, px, true, kLiesAgainst.bgr, kLiesAgainst.thickness, cv::LINE_AA);
  }
  for (std::size_t i = 0; i < scene.items.size(); ++i) {
    std::vector<cv::Point> px;
    for (const cv::Point2d& q : outlines[i]) px.push_back(to_picture(q));
    const Look look = look_of(scene.items[i].role);
    cv::polylines(picture, px, true, look.bgr, look.thickness, cv::LINE_AA);
    if (!scene.items[i].label.empty() && scene.items[i].role != Role::ghost) {
      const cv::Rect r = cv::boundingRect(px);
      const cv::Point at(r.x + r.width + 4, r.y + r.height / 2);
      cv::putText(picture, scene.items[i].label, at, cv::FONT_HERSHEY_SIMPLEX, 0.55, cv::Scalar(0, 0, 0), 4,
                  cv::LINE_AA);
      cv::putText(picture, scene.items[i].label, at, cv::FONT_HERSHEY_SIMPLEX, 0.55, look.bgr, 1, cv::LINE_AA);
    }
  }
  std::vector<unsigned char> jpeg;
  cv::imencode(".jpg", picture, jpeg, {cv::IMWRITE_JPEG_QUALITY, 88});
  FILE* f = std::fopen(out.c_str(), "wb");
  if (f == nullptr || std::fwrite(jpeg.data(), 1, jpeg.size(), f) != jpeg.size() || std::fclose(f) != 0)
    throw io::WriteError(out.string() + ": cannot be written");
  return picture.size();
}

std::string ruling_diagram_svg(const RulingScene& scene, const model::DiskRegistry& registry, geom::Vec2 play_area_mm,
                               int width_px) {
  double x0 = 1e9, y0 = 1e9, x1 = -1e9, y1 = -1e9;
  std::vector<std::vector<geom::Vec2>> outlines;  // the items', then what counters lie against
  for (const RulingScene::Placed& p : scene.items) outlines.push_back(outline_of(p, registry));
  outlines.insert(outlines.end(), scene.lies_against.begin(), scene.lies_against.end());
  for (const std::vector<geom::Vec2>& o : outlines)
    for (const geom::Vec2& v : o)
      x0 = std::min(x0, v.x), y0 = std::min(y0, v.y), x1 = std::max(x1, v.x), y1 = std::max(y1, v.y);
  const double pad = 30;
  x0 -= pad, y0 -= pad, x1 += pad, y1 += pad;
  const double side = std::max(x1 - x0, y1 - y0);
  const double cx = (x0 + x1) / 2, cy = (y0 + y1) / 2;
  x0 = cx - side / 2, x1 = cx + side / 2, y0 = cy - side / 2, y1 = cy + side / 2;
  // The table's y goes up (spec §1), the page's down: y is mirrored.
  const auto X = [&](double x) { return (x - x0) / side * width_px; };
  const auto Y = [&](double y) { return (y1 - y) / side * width_px; };
  std::string svg = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"diagram\" width=\"{0}\" height=\"{0}\" viewBox=\"0 0 {0} "
      "{0}\">"
      "<rect width=\"{0}\" height=\"{0}\" fill=\"#1b5e20\"/>",
      width_px);
  // The play area's edges that fall in view.
  svg += fmt::format(
      "<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" fill=\"none\" stroke=\"#ffffff\" "
      "stroke-dasharray=\"6 4\"/>",
      X(0), Y(play_area_mm.y), X(play_area_mm.x) - X(0), Y(0) - Y(play_area_mm.y));
  const double mm_per_px = side / width_px;
  // A 50 mm scale bar.
  svg += fmt::format(
      "<line x1=\"8\" y1=\"{0:.1f}\" x2=\"{1:.1f}\" y2=\"{0:.1f}\" stroke=\"#fff\" stroke-width=\"3\"/>"
      "<text x=\"8\" y=\"{2:.1f}\" fill=\"#fff\" font-size=\"11\">50 mm</text>",
      width_px - 10.0, 8 + 50 / mm_per_px, width_px - 16.0);
  if (scene.path.size() >= 2) {
    std::string points;
    for (const geom::Vec2& v : scene.path) points += fmt::format("{:.1f},{:.1f} ", X(v.x), Y(v.y));
    svg += "<polyline points=\"" + points + "\" fill=\"none\" stroke=\"#ffffff\" stroke-width=\"1.5\"/>";
  }
  for (std::size_t i = scene.items.size(); i < outlines.size(); ++i) {
    std::string points;
    for (const geom::Vec2& v : outlines[i]) points += fmt::format("{:.1f},{:.1f} ", X(v.x), Y(v.y));
    svg += fmt::format("<polygon points=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"{}\"/>", points,
                       kLiesAgainst.css, kLiesAgainst.thickness);
  }
  for (std::size_t i = 0; i < scene.items.size(); ++i) {
    const Look look = look_of(scene.items[i].role);
    std::string points;
    for (const geom::Vec2& v : outlines[i]) points += fmt::format("{:.1f},{:.1f} ", X(v.x), Y(v.y));
    svg += fmt::format("<polygon points=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"{}\"{}/>", points, look.css,
                       look.thickness, scene.items[i].role == Role::ghost ? " stroke-dasharray=\"4 3\"" : "");
    // The heading: a tick from the centre towards the front.
    const geom::Pose& p = scene.items[i].pose;
    if (scene.items[i].role != Role::ghost) {
      const geom::Vec2 tip{p.position.x + 12 * p.rotation.c, p.position.y + 12 * p.rotation.s};
      svg += fmt::format(
          "<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"{}\" stroke-width=\"2\"/>",
          X(p.position.x), Y(p.position.y), X(tip.x), Y(tip.y), look.css);
    }
  }
  svg += "</svg>";
  return svg;
}

}  // namespace diskref::report
