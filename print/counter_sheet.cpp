#include "print/counter_sheet.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <numbers>

#include <fmt/format.h>
#include <opencv2/imgproc.hpp>

#include "engine/geometry/shape.h"
#include "print/tag_bitmaps.h"

namespace diskref::print {
namespace {

constexpr double kFoldPiecePadMm = 1.0;         // room for the cut line
constexpr double kFoldPieceCutMm = 0.2;     // half-width, as the sheet's other cut lines
constexpr double kWordPxPerMm = 25.0;  // the resolution the words are drawn at before sampling

// The short word a face shows, printed below its tag: "HIT!", the critical type, nothing for blank.
std::string word_for(const model::CounterFace& face) {
  switch (face.shows) {
    case model::CounterFace::Shows::hit: return "HIT!";
    case model::CounterFace::Shows::critical: return face.crit;
    case model::CounterFace::Shows::blank: return "";
  }
  return "";
}

// A word drawn once, black on white, centred on a disk-local point (mm, y up).
struct Word {
  cv::Mat mask;  // 255 where ink, at kWordPxPerMm
  cv::Point2d centre;
  bool ink_at(double x, double y) const {
    if (mask.empty()) return false;
    const int u = static_cast<int>(std::floor((x - centre.x) * kWordPxPerMm + mask.cols / 2.0));
    const int v = static_cast<int>(std::floor((centre.y - y) * kWordPxPerMm + mask.rows / 2.0));
    return u >= 0 && v >= 0 && u < mask.cols && v < mask.rows && mask.at<uint8_t>(v, u) > 127;
  }
};

// The word in the band between the tag's white square and the rim, below the tag, as large as
// fits (at most 2 mm capitals).
Word word_below_tag(const model::DiskSpec& disk, const model::TagSpec* tag, const std::string& text) {
  Word w;
  if (text.empty() || tag == nullptr) return w;
  const double cell = tag->size_mm / kTagBorderCells;
  const double half_white = (kTagCells / 2.0 + kTagQuietCells) * cell;
  const double o = tag->heading_offset_deg * std::numbers::pi / 180;
  const double tag_low = half_white * (std::fabs(std::cos(o)) + std::fabs(std::sin(o)));
  const double rim = geom::support_local(disk.shape, {0, -1}).y;  // negative: the rim below the centre
  const double band = -rim - tag_low;
  if (band < 1.2) return w;
  for (double h = std::min(2.0, 0.6 * band); h >= 0.8; h -= 0.1) {
    const double scale = h * kWordPxPerMm / 22.0;
    const int thickness = std::max(1, static_cast<int>(std::lround(0.13 * h * kWordPxPerMm)));
    int baseline = 0;
    const cv::Size size = cv::getTextSize(text, cv::FONT_HERSHEY_SIMPLEX, scale, thickness, &baseline);
    const double width_mm = size.width / kWordPxPerMm;
    // Its lower corners must stay inside the outline.
    const double low = tag_low + band / 2 + h / 2;
    if (!geom::contains({disk.shape, {}}, {width_mm / 2 + 0.3, -low - 0.3})) continue;
    w.mask = cv::Mat::zeros(size.height + 2 * thickness, size.width + 2 * thickness, CV_8U);
    cv::putText(w.mask, text, cv::Point(thickness, size.height + thickness), cv::FONT_HERSHEY_SIMPLEX, scale, cv::Scalar(255),
                thickness, cv::LINE_AA);
    w.centre = {0, -(tag_low + band / 2)};
    return w;
  }
  return w;
}

}  // namespace

CounterArt counter_art(const DiskAppearance& look) {
  const model::DiskSpec& disk = look.spec();
  const double hx = geom::support_local(disk.shape, {1, 0}).x, hy = geom::support_local(disk.shape, {0, 1}).y;
  const double fold = std::max(disk.thickness_mm, 0.5);  // the tab spans the counter's rim
  CounterArt art;
  art.width_mm = 4 * hx + fold + 2 * kFoldPiecePadMm;
  art.height_mm = 2 * hy + 2 * kFoldPiecePadMm;
  art.up_centre = {kFoldPiecePadMm + hx, kFoldPiecePadMm + hy};
  art.down_centre = {kFoldPiecePadMm + 3 * hx + fold, kFoldPiecePadMm + hy};
  art.fold_x0 = art.up_centre.x + hx;
  art.fold_x1 = art.down_centre.x - hx;
  const double tab_half = std::min(6.0, 0.4 * hy);

  auto words = std::make_shared<std::pair<Word, Word>>();
  if (disk.faces) {
    words->first = word_below_tag(disk, look.tag(model::Face::up), word_for(disk.faces->up));
    words->second = word_below_tag(disk, look.tag(model::Face::down), word_for(disk.faces->down));
  }
  const cv::Point2d a = art.up_centre, b = art.down_centre;
  const double f0 = art.fold_x0, f1 = art.fold_x1;
  // Inside the piece to cut out: either face, or the tab between them.
  auto inside = [&look, a, b, tab_half](double x, double y) {
    if (look.contains(x - a.x, a.y - y) || look.contains(x - b.x, b.y - y)) return true;
    return x > a.x && x < b.x && std::fabs(y - a.y) <= tab_half;
  };
  art.color = [&look, inside, words, a, b, f0, f1, tab_half](double x, double y) -> std::optional<cv::Vec3f> {
    const bool in = inside(x, y);
    const double line = kFoldPieceCutMm;
    if (in != inside(x + line, y) || in != inside(x - line, y) || in != inside(x, y + line) || in != inside(x, y - line))
      return cv::Vec3f(0, 0, 0);
    if (!in) return std::nullopt;
    // The fold lines, dashed across the tab: 1 mm dashes, grey.
    if (std::fabs(y - a.y) <= tab_half && (std::fabs(x - f0) < 0.12 || std::fabs(x - f1) < 0.12) &&
        static_cast<int>(std::floor((y - a.y + tab_half) / 1.0)) % 2 == 0)
      return cv::Vec3f(90, 90, 90);
    const bool on_up = look.contains(x - a.x, a.y - y);
    const bool on_down = !on_up && look.contains(x - b.x, b.y - y);
    if (!on_up && !on_down) return cv::Vec3f(235, 235, 235);  // the tab: plain, it wraps the rim
    const cv::Point2d c = on_up ? a : b;
    const double lx = x - c.x, ly = c.y - y;  // disk-local, y up
    if ((on_up ? words->first : words->second).ink_at(lx, ly)) return cv::Vec3f(0, 0, 0);
    cv::Vec3f colour = look.face_color(on_up ? model::Face::up : model::Face::down, lx, ly);
    if (colour == look.body_color()) colour = 0.45f * colour + 0.55f * cv::Vec3f(kPaperWhite, kPaperWhite, kPaperWhite);
    return colour * (255.0f / kPaperWhite);
  };

  std::string faces;
  for (model::Face face : {model::Face::up, model::Face::down}) {
    const model::TagSpec* tag = look.tag(face);
    const model::CounterFace* shows = model::counter_face(disk, face);
    faces += fmt::format("{}{} {}{}", faces.empty() ? "" : ", ", model::to_string(face), shows ? model::describe(*shows) : "?",
                         tag ? fmt::format(" (tag {}, {:g} mm)", tag->id, tag->size_mm) : "");
  }
  art.label.push_back(disk.name + ": " + faces);
  art.label.push_back(fmt::format("cut out; lay a {:g} mm card disk {:g} mm thick on the left face,", 2 * hx, disk.thickness_mm));
  art.label.push_back("fold at the dashes over its rim, glue the right face on its back");
  return art;
}

std::vector<std::string> counter_read_problems(const model::DiskRegistry& registry, const ViewingCamera& camera) {
  // One line per tag size (a set of counters is usually all alike), naming the counters.
  std::vector<std::pair<double, std::vector<std::string>>> by_size;
  for (const model::DiskSpec& d : registry.disks()) {
    if (d.kind != model::DiskKind::counter) continue;
    for (const model::TagSpec& t : d.tags) {
      if (pixels_per_cell(t, camera) >= kMinPixelsPerCell) continue;
      auto it = std::find_if(by_size.begin(), by_size.end(), [&](const auto& e) { return e.first == t.size_mm; });
      if (it == by_size.end()) it = by_size.insert(by_size.end(), {t.size_mm, {}});
      const std::string what = fmt::format("{} {} (tag {})", d.name, model::to_string(t.face), t.id);
      it->second.push_back(what);
    }
  }
  std::vector<std::string> out;
  for (const auto& [size, faces] : by_size) {
    model::TagSpec tag;
    tag.size_mm = size;
    const double cell = pixels_per_cell(tag, camera);
    const double highest = camera.height_mm * cell / kMinPixelsPerCell;
    const int width = static_cast<int>(std::ceil(camera.resolution.width * kMinPixelsPerCell / cell));
    const int height = static_cast<int>(std::ceil(camera.resolution.height * kMinPixelsPerCell / cell));
    out.push_back(fmt::format(
        "counter tags of {:g} mm ({}) have {:.2f} px per cell seen from {:g} mm by a {}x{} camera with a {:g} degree field "
        "of view; a drop is read only from counters with {:g} or more: hang this camera at most {:.0f} mm above the table, "
        "or use one of at least {}x{} at {:g} mm, or counters with larger tags",
        size, fmt::join(faces, ", "), cell, camera.height_mm, camera.resolution.width, camera.resolution.height,
        camera.horizontal_fov_deg, kMinPixelsPerCell, std::floor(highest), width, height, camera.height_mm));
  }
  return out;
}

}  // namespace diskref::print
