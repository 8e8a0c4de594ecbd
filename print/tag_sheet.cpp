#include "print/tag_sheet.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>
#include <numbers>
#include <sstream>
#include <stdexcept>
#include <tuple>

#include <fmt/format.h>
#include <opencv2/imgproc.hpp>

#include "engine/geometry/shape.h"
#include "print/counter_sheet.h"
#include "print/disk_appearance.h"
#include "print/disk_face_art.h"
#include "print/tag_bitmaps.h"

namespace diskref::print {
namespace {

const cv::Scalar kBlack(0, 0, 0);
const cv::Scalar kGrey(110, 110, 110);
constexpr double kLabelTextMm = 2.2;  // height of a label's capital letters
constexpr double kLabelLineMm = 3.6;  // from one label line to the next
constexpr double kGapMm = 5.0;        // between items (their cut lines stay 5 mm apart)
constexpr double kHeaderMm = 22.0;    // title, resolution line and the 100 mm bar
constexpr int kSamples = 3;           // per pixel side, for smooth cut lines and tag edges
constexpr double kCutLineMm = 0.2;    // half-width of a cut line
constexpr double kFoldLineMm = 0.15;  // half-width of a fold line (dashed)

// Something to print: its size on paper, how to draw one point of it, and the lines of text
// under it.
struct Item {
  double width_mm = 0, height_mm = 0;
  // Colour (BGR, 0..255) at an item point (mm from the item's top-left, y down), or nullopt for
  // the paper showing through.
  std::function<std::optional<cv::Vec3f>(double x, double y)> color;
  std::vector<std::string> label;
  bool rotated = false;        // drawn turned by 90 degrees to fit the page
  bool template_page = false;  // printed with the templates, on pages of their own
  // For SheetPlacement: the labels printed inside the cut line and the fold lines (item mm).
  std::vector<std::pair<std::string, std::array<cv::Point2d, 4>>> inside_labels;
  std::vector<std::pair<cv::Point2d, cv::Point2d>> fold_lines;
};

cv::Vec3f to_print(cv::Vec3f reflectance) {
  return reflectance * (255.0f / kPaperWhite);
}

// Hershey simplex capitals are about 22 px tall at scale 1.
double text_scale(double px_per_mm, double height_mm) {
  return height_mm * px_per_mm / 22.0;
}
int text_thickness(double px_per_mm) {
  return std::max(1, static_cast<int>(0.25 * px_per_mm));
}

double text_width_mm(const std::string& text, double px_per_mm, double height_mm) {
  int baseline = 0;
  cv::Size size = cv::getTextSize(text, cv::FONT_HERSHEY_SIMPLEX, text_scale(px_per_mm, height_mm),
                                  text_thickness(px_per_mm), &baseline);
  return size.width / px_per_mm;
}

void put_text(cv::Mat& page, const std::string& text, cv::Point2d at_mm, double px_per_mm, double height_mm,
              const cv::Scalar& color = kBlack) {
  cv::putText(page, text, cv::Point(static_cast<int>(at_mm.x * px_per_mm), static_cast<int>(at_mm.y * px_per_mm)),
              cv::FONT_HERSHEY_SIMPLEX, text_scale(px_per_mm, height_mm), color, text_thickness(px_per_mm),
              cv::LINE_AA);
}

template <typename T>
std::string to_text(const T& value) {
  std::ostringstream s;
  s << value;
  return s.str();
}

// The labels printed inside a face: the disk's name, and on a disk with two faces which face this
// is, on a counter what it shows (each as large as fits; disk_face_art.h).
std::vector<FaceLabel> face_labels(const DiskAppearance& look, model::Face face, bool say_face) {
  std::vector<FaceLabel> out;
  if (auto name = FaceLabel::fit(look, face, look.spec().name)) out.push_back(*name);
  if (say_face && !out.empty())
    if (auto which =
            FaceLabel::fit(look, face, counter_face_word(look.spec(), face).value_or(std::string(to_string(face))),
                           {out.front().box()}, true))
      out.push_back(*which);
  return out;
}

// A face's colour at a face-local point inside its outline (the body's colour lightened for
// paper), its labels in black.
cv::Vec3f face_ink(const DiskAppearance& look, model::Face face, const std::vector<FaceLabel>& labels, double lx,
                   double ly) {
  for (const FaceLabel& l : labels)
    if (l.ink(lx, ly)) return cv::Vec3f(0, 0, 0);
  cv::Vec3f c = look.face_color(face, lx, ly);
  if (c == look.body_color()) c = 0.45f * c + 0.55f * cv::Vec3f(kPaperWhite, kPaperWhite, kPaperWhite);  // save ink
  return to_print(c);
}

// A face's label boxes in item millimetres (y down), the face's centre at `centre_mm`.
void place_labels(Item& item, const std::vector<FaceLabel>& labels, cv::Point2d centre_mm) {
  for (const FaceLabel& l : labels) {
    std::array<cv::Point2d, 4> box;
    const auto corners = l.box().corners();
    for (std::size_t k = 0; k < 4; ++k) box[k] = {centre_mm.x + corners[k].x, centre_mm.y - corners[k].y};
    item.inside_labels.emplace_back(l.text(), box);
  }
}

// Disk face: the outline as a cut line, inside it the face as DiskAppearance draws it with its
// name.
Item disk_item(const DiskAppearance& look, model::Face face) {
  const model::DiskSpec& disk = look.spec();
  geom::Vec2 extent{2 * geom::support_local(disk.shape, {1, 0}).x, 2 * geom::support_local(disk.shape, {0, 1}).y};
  Item item;
  const double pad = 1.0;  // room for the cut line
  item.width_mm = extent.x + 2 * pad;
  item.height_mm = extent.y + 2 * pad;
  auto labels = std::make_shared<std::vector<FaceLabel>>(face_labels(look, face, false));
  place_labels(item, *labels, {pad + extent.x / 2, pad + extent.y / 2});
  item.color = [&look, face, extent, pad, labels](double x, double y) -> std::optional<cv::Vec3f> {
    double lx = x - pad - extent.x / 2, ly = extent.y / 2 + pad - y;  // disk-local, y up
    bool inside = look.contains(lx, ly);
    const double line = kCutLineMm;
    bool near_edge = inside != look.contains(lx + line, ly) || inside != look.contains(lx - line, ly) ||
                     inside != look.contains(lx, ly + line) || inside != look.contains(lx, ly - line);
    if (near_edge) return cv::Vec3f(0, 0, 0);
    if (!inside) return std::nullopt;
    return face_ink(look, face, *labels, lx, ly);
  };
  item.label.push_back(disk.name + " " + std::string(to_string(face)));
  const model::TagSpec* tag = look.tag(face);
  item.label.push_back(tag ? "tag " + std::to_string(tag->id) + ", " + to_text(tag->size_mm) + " mm" : "no tag");
  if (disk.kind == model::DiskKind::template_) {
    item.template_page = true;
    if (const auto* r = std::get_if<geom::Rect>(&disk.shape))
      item.label.push_back(fmt::format("{:g} x {:g} mm ({:.2f} x {:.2f} in), real size", r->length_mm, r->width_mm,
                                       r->length_mm / 25.4, r->width_mm / 25.4));
  }
  return item;
}

// A disk with a tag on each face: both faces on one piece, joined by a hinge as long as the disk
// is thick (disk_face_art.h). Cut on the solid line, fold on the dashed ones around the disk's
// front edge: the down face then lies under the up face as a flip over the front edge shows it.
Item folding_pair_item(const DiskAppearance& look) {
  const model::DiskSpec& disk = look.spec();
  const FoldPair pair = fold_pair(disk);
  const double back = -geom::support_local(disk.shape, {-1, 0}).x,
               half_across = geom::support_local(disk.shape, {0, 1}).y;
  Item item;
  const double pad = 1.0;
  item.width_mm = 2 * pad + back + pair.down_offset_mm + pair.front_mm;
  item.height_mm = 2 * pad + 2 * half_across;
  const cv::Point2d up_centre(pad + back, pad + half_across);
  auto up_labels = std::make_shared<std::vector<FaceLabel>>(face_labels(look, model::Face::up, true));
  auto down_labels = std::make_shared<std::vector<FaceLabel>>(face_labels(look, model::Face::down, true));
  place_labels(item, *up_labels, up_centre);
  place_labels(item, *down_labels, up_centre + cv::Point2d(pair.down_offset_mm, 0));
  for (double fold_x : {pair.fold_up_x(), pair.fold_down_x()})
    item.fold_lines.emplace_back(up_centre + cv::Point2d(fold_x, -pair.hinge_width_mm / 2),
                                 up_centre + cv::Point2d(fold_x, pair.hinge_width_mm / 2));
  item.color = [&look, pair, up_centre, up_labels, down_labels](double x, double y) -> std::optional<cv::Vec3f> {
    const double px = x - up_centre.x, py = up_centre.y - y;  // pair-local, y up
    const bool inside = pair_contains(look, pair, px, py);
    const double line = kCutLineMm;
    const bool near_edge =
        inside != pair_contains(look, pair, px + line, py) || inside != pair_contains(look, pair, px - line, py) ||
        inside != pair_contains(look, pair, px, py + line) || inside != pair_contains(look, pair, px, py - line);
    if (near_edge) return cv::Vec3f(0, 0, 0);
    if (!inside) return std::nullopt;
    // The fold lines: dashed across the hinge, a dash centred on the heading's line.
    if (std::fabs(py) <= pair.hinge_width_mm / 2 && std::fmod(std::fabs(py) + 0.6, 2.0) < 1.2 &&
        (std::fabs(px - pair.fold_up_x()) <= kFoldLineMm || std::fabs(px - pair.fold_down_x()) <= kFoldLineMm))
      return cv::Vec3f(70, 70, 70);
    if (look.contains(px, py)) return face_ink(look, model::Face::up, *up_labels, px, py);
    if (look.contains(px - pair.down_offset_mm, py))
      return face_ink(look, model::Face::down, *down_labels, px - pair.down_offset_mm, py);
    return cv::Vec3f(255, 255, 255);  // the hinge
  };
  const model::TagSpec* up = look.tag(model::Face::up);
  const model::TagSpec* down = look.tag(model::Face::down);
  item.label.push_back(disk.name + ": up | down");
  item.label.push_back("tags " +
                       (up ? std::to_string(up->id) + " (" + to_text(up->size_mm) + " mm)" : std::string("none")) +
                       " | " + std::to_string(down->id) + " (" + to_text(down->size_mm) + " mm)");
  item.label.push_back("cut the solid line; fold the dashed lines around the front");
  if (auto shows = counter_faces_line(disk)) item.label.push_back(*shows);
  return item;
}

Item marker_item(const model::CornerMarker& m) {
  double cell = m.size_mm / kTagBorderCells;
  double side = (kTagCells + 2 * kMarkerCardMarginCells) * cell;
  const TagCells* cells = &tag_bitmaps().cells(m.id);
  Item item;
  item.width_mm = item.height_mm = side;
  double size = m.size_mm;
  item.color = [cells, size, side](double x, double y) -> std::optional<cv::Vec3f> {
    const double line = kCutLineMm;
    if (x < line || y < line || x > side - line || y > side - line) return cv::Vec3f(0, 0, 0);  // cut line
    int bit = tag_cell_at(*cells, size, x - side / 2, side / 2 - y);
    return bit == 0 ? cv::Vec3f(0, 0, 0) : cv::Vec3f(255, 255, 255);
  };
  item.label.push_back("corner marker " + std::to_string(m.id) + ", " + to_text(m.size_mm) + " mm");
  // Seen from above, the upright bitmap's right faces table +x (TableSpec corners_mm).
  item.label.push_back("centre at (" + to_text(m.center_mm.x) + ", " + to_text(m.center_mm.y) + ") mm on the table,");
  item.label.push_back("this side up, its right edge toward table +x");
  return item;
}

Item board_item(const BoardPattern& board) {
  cv::Rect2d card = board.card_mm();
  Item item;
  item.width_mm = card.width;
  item.height_mm = card.height;
  item.color = [&board, card](double x, double y) -> std::optional<cv::Vec3f> {
    float r = board.reflectance(card.x + x, card.y + y);
    if (r < 0) return std::nullopt;
    float v = r < 0.5f ? 0.0f : 255.0f;
    return cv::Vec3f(v, v, v);
  };
  const BoardSpec& s = board.spec();
  std::string grid = std::to_string(s.cols) + "x" + std::to_string(s.rows);
  if (s.type == BoardSpec::Type::chessboard) {
    item.label.push_back("chessboard, " + grid + " inner corners, " + to_text(s.square_mm) + " mm squares");
    item.label.push_back("diskref calibrate --chessboard " + grid + " --square-mm " + to_text(s.square_mm));
  } else {
    item.label.push_back("ChArUco, " + grid + " squares of " + to_text(s.square_mm) + " mm, markers " +
                         to_text(s.marker_mm) + " mm");
    item.label.push_back("diskref calibrate --charuco " + grid + " --square-mm " + to_text(s.square_mm) +
                         " --marker-mm " + to_text(s.marker_mm));
  }
  return item;
}

// Draws an item with its top-left corner at `origin_mm`. Each pixel is first sampled once at its
// centre; a pixel whose centre differs from a neighbour's (an edge passes near) is averaged over
// kSamples x kSamples samples. Features thinner than a pixel could hide between centres; at the
// lowest resolution (72 DPI) the thinnest, a cut line, is still wider than a pixel.
void draw_item(cv::Mat& page, const Item& item, cv::Point2d origin_mm, double px_per_mm) {
  double w = item.rotated ? item.height_mm : item.width_mm, h = item.rotated ? item.width_mm : item.height_mm;
  int u0 = std::max(static_cast<int>(std::floor(origin_mm.x * px_per_mm)), 0);
  int v0 = std::max(static_cast<int>(std::floor(origin_mm.y * px_per_mm)), 0);
  int u1 = std::min(static_cast<int>(std::ceil((origin_mm.x + w) * px_per_mm)), page.cols);
  int v1 = std::min(static_cast<int>(std::ceil((origin_mm.y + h) * px_per_mm)), page.rows);
  if (u0 >= u1 || v0 >= v1) return;
  // Colour at a sample given in pixels (pixel u covers [u, u + 1)), or nullopt for paper.
  auto sample = [&](double u, double v) {
    double px = u / px_per_mm - origin_mm.x, py = v / px_per_mm - origin_mm.y;
    return item.rotated ? item.color(py, w - px) : item.color(px, py);
  };
  auto to_pixel = [](cv::Vec3f c, bool inked) {
    return cv::Vec4b(cv::saturate_cast<uint8_t>(c[0]), cv::saturate_cast<uint8_t>(c[1]),
                     cv::saturate_cast<uint8_t>(c[2]), inked ? 255 : 0);
  };
  cv::parallel_for_(cv::Range(v0, v1), [&](const cv::Range& rows) {
    // Centre samples of these rows and a one-pixel halo (Vec4b: BGR and 255 when inked).
    const int r0 = std::max(rows.start - 1, v0), r1 = std::min(rows.end + 1, v1);
    cv::Mat centres(r1 - r0, u1 - u0, CV_8UC4);
    for (int v = r0; v < r1; ++v)
      for (int u = u0; u < u1; ++u) {
        auto c = sample(u + 0.5, v + 0.5);
        centres.at<cv::Vec4b>(v - r0, u - u0) = to_pixel(c ? *c : cv::Vec3f(255, 255, 255), c.has_value());
      }
    for (int v = rows.start; v < rows.end; ++v) {
      for (int u = u0; u < u1; ++u) {
        const cv::Vec4b own = centres.at<cv::Vec4b>(v - r0, u - u0);
        bool edge = (u > u0 && centres.at<cv::Vec4b>(v - r0, u - 1 - u0) != own) ||
                    (u + 1 < u1 && centres.at<cv::Vec4b>(v - r0, u + 1 - u0) != own) ||
                    (v > r0 && centres.at<cv::Vec4b>(v - 1 - r0, u - u0) != own) ||
                    (v + 1 < r1 && centres.at<cv::Vec4b>(v + 1 - r0, u - u0) != own);
        cv::Vec4b result = own;
        if (edge) {
          cv::Vec3f sum(0, 0, 0);
          int inked = 0;
          for (int sy = 0; sy < kSamples; ++sy)
            for (int sx = 0; sx < kSamples; ++sx) {
              auto c = sample(u + (sx + 0.5) / kSamples, v + (sy + 0.5) / kSamples);
              sum += c ? *c : cv::Vec3f(255, 255, 255);
              inked += c.has_value();
            }
          result = to_pixel(sum * (1.0f / (kSamples * kSamples)), inked > 0);
        }
        if (result[3] != 0) page.at<cv::Vec3b>(v, u) = cv::Vec3b(result[0], result[1], result[2]);
      }
    }
  });
}

// Title, resolution and the 100 mm bar with 10 mm ticks. The bar and its end ticks span exactly
// [0, 100] mm, so a ruler laid along it reads 100 mm from outer edge to outer edge.
void draw_header(cv::Mat& page, const SheetOptions& o, int number, int count, double px_per_mm,
                 const std::string& heading) {
  double x = o.margin_mm, y = o.margin_mm + 4;
  std::ostringstream title;
  title << "diskref tags" << (o.title.empty() ? "" : ": " + o.title) << (heading.empty() ? "" : " - " + heading)
        << "   page " << number + o.page_offset << "/" << count + o.extra_pages;
  put_text(page, title.str(), {x, y}, px_per_mm, 3.5);
  std::ostringstream dpi;
  dpi << "Made for " << o.dpi
      << " DPI: print at 100% scale (no fit-to-page). The bar below must measure exactly 100 mm.";
  put_text(page, dpi.str(), {x, y + 5.5}, px_per_mm, 2.6, kGrey);
  double bar_y = y + 9;
  auto px = [&](double mm) { return static_cast<int>(std::lround(mm * px_per_mm)); };
  // Filled rectangles cover pixels [px(a), px(b)) in each direction.
  auto fill = [&](double x0, double y0, double x1, double y1) {
    cv::rectangle(page, cv::Point(px(x0), px(y0)), cv::Point(px(x1) - 1, px(y1) - 1), kBlack, cv::FILLED);
  };
  const double tick = 0.3;
  fill(x, bar_y, x + 100, bar_y + 1.0);
  for (int k = 0; k <= 10; ++k) {
    double left = std::clamp(x + 10 * k - tick / 2, x, x + 100 - tick);  // end ticks stay inside [0, 100]
    fill(left, bar_y - (k % 5 == 0 ? 2.5 : 1.5), left + tick, bar_y + 1.0);
  }
  put_text(page, "0", {x - 1, bar_y + 5}, px_per_mm, 2.6);
  put_text(page, "100 mm", {x + 96, bar_y + 5}, px_per_mm, 2.6);
}

// Where an item goes: its page and top-left corner, page millimetres.
struct Placement {
  std::size_t page = 0;
  cv::Point2d at;
};

// Guillotine packing: items, tallest first, each go to the free rectangle nearest the top-left of
// the earliest page that holds them (with the gap on their right and below), which is then cut in
// two: the rest of the item's row to its right, and everything below. So items form rows, and
// smaller ones stack in the room beside a tall one (a board, a corner marker). Faces of one disk
// stay together (stable sort, same height). Returns the placements (by item) and the page count.
std::pair<std::vector<Placement>, std::size_t> pack(const std::vector<cv::Size2d>& footprints, double left,
                                                    double right, double top, double bottom) {
  struct Free {
    std::size_t page;
    double x, y, w, h;  // page mm, including room for the gap on the right and below
  };
  std::vector<std::size_t> order(footprints.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return footprints[a].height > footprints[b].height; });
  std::vector<Free> free;
  std::size_t page_count = 0;
  std::vector<Placement> placed(footprints.size());
  const double eps = 1e-9;
  for (std::size_t i : order) {
    const double w = footprints[i].width + kGapMm, h = footprints[i].height + kGapMm;
    auto best = free.end();
    for (auto f = free.begin(); f != free.end(); ++f) {
      if (w > f->w + eps || h > f->h + eps) continue;
      if (best == free.end() || std::tie(f->page, f->y, f->x) < std::tie(best->page, best->y, best->x)) best = f;
    }
    if (best == free.end()) {
      free.push_back({page_count++, left, top, right - left + kGapMm, bottom - top + kGapMm});
      best = free.end() - 1;
    }
    Free room = *best;
    free.erase(best);
    placed[i] = {room.page, {room.x, room.y}};
    if (room.w - w > eps) free.push_back({room.page, room.x + w, room.y, room.w - w, h});
    if (room.h - h > eps) free.push_back({room.page, room.x, room.y + h, room.w, room.h - h});
  }
  // Pages in the order of the items' first appearance (markers, disks, then the board), not of
  // their heights.
  std::size_t pages = std::max<std::size_t>(page_count, 1);
  std::vector<std::size_t> first_item(pages, footprints.size());
  for (std::size_t i = 0; i < placed.size(); ++i) first_item[placed[i].page] = std::min(first_item[placed[i].page], i);
  std::vector<std::size_t> page_order(pages), new_number(pages);
  for (std::size_t p = 0; p < pages; ++p) page_order[p] = p;
  std::stable_sort(page_order.begin(), page_order.end(),
                   [&](std::size_t a, std::size_t b) { return first_item[a] < first_item[b]; });
  for (std::size_t p = 0; p < pages; ++p) new_number[page_order[p]] = p;
  for (Placement& pl : placed) pl.page = new_number[pl.page];
  return {placed, pages};
}

}  // namespace

double draw_sheet_header(cv::Mat& page, const SheetOptions& o, int number, int count, const std::string& heading) {
  draw_header(page, o, number, count, o.dpi / 25.4, heading);
  return o.margin_mm + kHeaderMm;
}

std::vector<cv::Mat> tag_sheets(const model::DiskRegistry& registry, const model::TableSpec* table,
                                const SheetOptions& o, std::vector<SheetPlacement>* placements) {
  if (!(o.dpi >= 72 && o.dpi <= 1200)) throw std::invalid_argument("the DPI must be between 72 and 1200");
  if (!(o.page_width_mm >= 100 && o.page_height_mm >= 100 && o.page_width_mm <= 2000 && o.page_height_mm <= 2000))
    throw std::invalid_argument("the page must be between 100 and 2000 mm on each side");
  double px_per_mm = o.dpi / 25.4;
  std::vector<DiskAppearance> looks;
  for (const model::DiskSpec& d : registry.disks()) looks.emplace_back(d);
  std::optional<BoardPattern> board;
  if (o.board) board.emplace(*o.board);

  std::vector<Item> items;
  if (table)
    for (const model::CornerMarker& m : table->corner_markers) items.push_back(marker_item(m));
  for (const DiskAppearance& look : looks)
    items.push_back(look.tag(model::Face::down) ? folding_pair_item(look) : disk_item(look, model::Face::up));
  if (board) items.push_back(board_item(*board));

  // Each item's footprint: the item (turned when only that fits the page's width) with its label
  // lines below, as wide as the wider of the two.
  const double left = o.margin_mm, right = o.page_width_mm - o.margin_mm;
  const double top = o.margin_mm + kHeaderMm, bottom = o.page_height_mm - o.margin_mm;
  std::vector<cv::Size2d> footprints;
  for (Item& it : items) {
    if (it.width_mm > right - left && it.height_mm <= right - left) it.rotated = true;
    double w = it.rotated ? it.height_mm : it.width_mm, h = it.rotated ? it.width_mm : it.height_mm;
    for (const std::string& line : it.label) w = std::max(w, text_width_mm(line, px_per_mm, kLabelTextMm));
    h += 1.0 + kLabelLineMm * static_cast<double>(it.label.size());
    if (w > right - left + 1e-9 || h > bottom - top + 1e-9)
      throw std::invalid_argument("\"" + it.label.front() + "\" (" + std::to_string(std::lround(it.width_mm)) + " x " +
                                  std::to_string(std::lround(it.height_mm)) + " mm) does not fit on a " +
                                  to_text(o.page_width_mm) + " x " + to_text(o.page_height_mm) + " mm page with " +
                                  to_text(o.margin_mm) + " mm margins");
    footprints.emplace_back(w, h);
  }
  // The templates on pages of their own, after the rest: cut out at real size.
  std::vector<Placement> placed(items.size());
  std::size_t page_count = 0;
  std::size_t first_template_page = 0;
  for (bool templates : {false, true}) {
    std::vector<std::size_t> group;
    std::vector<cv::Size2d> group_footprints;
    for (std::size_t i = 0; i < items.size(); ++i)
      if (items[i].template_page == templates) group.push_back(i), group_footprints.push_back(footprints[i]);
    if (group.empty()) continue;
    if (templates) first_template_page = page_count;
    auto [group_placed, group_pages] = pack(group_footprints, left, right, top, bottom);
    for (std::size_t k = 0; k < group.size(); ++k) {
      placed[group[k]] = group_placed[k];
      placed[group[k]].page += page_count;
    }
    page_count += group_pages;
  }
  if (page_count == 0) page_count = 1;
  const bool any_templates = std::any_of(items.begin(), items.end(), [](const Item& it) { return it.template_page; });

  cv::Size size(static_cast<int>(std::lround(o.page_width_mm * px_per_mm)),
                static_cast<int>(std::lround(o.page_height_mm * px_per_mm)));
  std::vector<cv::Mat> pages(page_count);
  for (std::size_t p = 0; p < pages.size(); ++p) {
    pages[p] = cv::Mat(size, CV_8UC3, cv::Scalar(255, 255, 255));
    draw_header(pages[p], o, static_cast<int>(p + 1), static_cast<int>(pages.size()), px_per_mm,
                any_templates && p >= first_template_page ? "templates at real size" : "");
  }
  if (placements) placements->clear();
  for (std::size_t i = 0; i < items.size(); ++i) {
    const Item& it = items[i];
    cv::Mat& page = pages[placed[i].page];
    cv::Point2d at = placed[i].at;
    draw_item(page, it, at, px_per_mm);
    double y = at.y + (it.rotated ? it.width_mm : it.height_mm) + 1.0;
    for (const std::string& line : it.label) put_text(page, line, {at.x, y += kLabelLineMm}, px_per_mm, kLabelTextMm);
    if (!placements) continue;
    // Item millimetres to page millimetres (draw_item: a turned item's point (ix, iy) is drawn at
    // (height - iy, ix) from its corner).
    auto to_page = [&](cv::Point2d p) {
      return it.rotated ? cv::Point2d(at.x + it.height_mm - p.y, at.y + p.x) : cv::Point2d(at.x + p.x, at.y + p.y);
    };
    SheetPlacement sp;
    sp.what = it.label.front();
    sp.page = placed[i].page;
    sp.rect_mm = {at.x, at.y, it.rotated ? it.height_mm : it.width_mm, it.rotated ? it.width_mm : it.height_mm};
    for (const auto& [text, box] : it.inside_labels) {
      std::array<cv::Point2d, 4> on_page;
      for (std::size_t k = 0; k < 4; ++k) on_page[k] = to_page(box[k]);
      sp.inside_labels.push_back({text, on_page});
    }
    for (const auto& [a, b] : it.fold_lines) sp.fold_lines_mm.emplace_back(to_page(a), to_page(b));
    placements->push_back(std::move(sp));
  }
  return pages;
}

double pixels_per_cell(const model::TagSpec& tag, const ViewingCamera& camera) {
  const double f = model::PinholeCamera{camera.resolution.width, camera.resolution.height, camera.horizontal_fov_deg,
                                        camera.height_mm}
                       .focal_px();
  return tag.size_mm / kTagBorderCells * f / camera.height_mm;
}
std::vector<std::string> tag_warnings(const model::DiskRegistry& registry, const model::TableSpec* table,
                                      const std::optional<ViewingCamera>& camera) {
  std::vector<std::string> out;
  // `shape`: the disk the tag is glued on (nullptr for a corner marker, whose card can grow).
  auto check_readable = [&](const std::string& what, const model::TagSpec& tag, const geom::Shape* shape) {
    if (!camera) return;
    double cell = pixels_per_cell(tag, *camera);
    if (cell >= kMinPixelsPerCell) return;
    double needed = std::ceil(10 * tag.size_mm * kMinPixelsPerCell / cell) / 10;
    std::string remedy;
    if (shape &&
        !model::tag_fit_problem(*shape, model::TagSpec{tag.id, tag.face, needed, tag.heading_offset_deg}).empty())
      remedy = fmt::format(
          "a tag of at least {:.1f} mm, larger than fits this disk ({:.1f} mm): a closer or sharper "
          "camera",
          needed, std::floor(10 * model::largest_fitting_tag_mm(*shape, tag)) / 10);
    else
      remedy = fmt::format("a tag of at least {:.1f} mm, or a closer or sharper camera", needed);
    // The planner's figure: how high this camera may be for the tag as it is.
    remedy += fmt::format(" (this camera reads it from at most {:.0f} mm)",
                          std::floor(camera->height_mm * cell / kMinPixelsPerCell));
    out.push_back(
        fmt::format("{}: tag {} ({:g} mm) has {:.2f} px per cell seen from {:g} mm by a {}x{} camera with a "
                    "{:g} degree field of view; it needs {:g}: {}",
                    what, tag.id, tag.size_mm, cell, camera->height_mm, camera->resolution.width,
                    camera->resolution.height, camera->horizontal_fov_deg, kMinPixelsPerCell, remedy));
  };
  for (const model::DiskSpec& d : registry.disks()) {
    for (const model::TagSpec& t : d.tags) {
      std::string what = d.name + " " + std::string(to_string(t.face));
      if (auto problem = model::tag_fit_problem_and_remedy(d.shape, t); !problem.empty())
        out.push_back(what + ": tag " + std::to_string(t.id) + ": " + problem);
      check_readable(what, t, &d.shape);
    }
    // Ships and torpedoes flip: a face without a tag is unseen after every other flip.
    const bool flips = d.kind == model::DiskKind::ship || d.kind == model::DiskKind::torpedo;
    if (flips && d.tags.size() < 2)
      out.push_back(d.name + ": a " + std::string(to_string(d.kind)) + " flips, but it has a tag on its " +
                    std::string(to_string(d.tags.front().face)) +
                    " face only: after an odd number of flips it is not seen; give "
                    "its other face a tag of its own (diskref setup kit makes both)");
  }
  if (table)
    for (const model::CornerMarker& m : table->corner_markers) {
      model::TagSpec t;
      t.id = m.id;
      t.size_mm = m.size_mm;
      check_readable("corner marker " + std::to_string(m.id), t, nullptr);
    }
  return out;
}

}  // namespace diskref::print
