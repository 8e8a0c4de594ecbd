#include "render/tag_sheet.h"

#include <cmath>
#include <functional>
#include <sstream>
#include <stdexcept>

#include <opencv2/imgproc.hpp>

#include "engine/geometry/shape.h"
#include "render/disk_appearance.h"
#include "render/table_surface.h"
#include "render/tag_bitmaps.h"

namespace diskref::render {
namespace {

const cv::Scalar kBlack(0, 0, 0);
const cv::Scalar kGrey(110, 110, 110);
constexpr double kLabelMm = 4.5;  // room under an item for its label
constexpr double kGapMm = 5.0;    // between items
constexpr int kSamples = 3;       // per pixel side, for smooth cut lines and tag edges

// Something to print: its size on paper and how to draw one point of it.
struct Item {
  double width_mm = 0, height_mm = 0;
  // Colour (BGR, 0..255) at an item point (mm from the item's top-left, y down), or nullopt for
  // the paper showing through.
  std::function<std::optional<cv::Vec3f>(double x, double y)> color;
  std::string label;
  bool rotated = false;  // drawn turned by 90 degrees to fit the page
};

cv::Vec3f to_print(cv::Vec3f reflectance) { return reflectance * (255.0f / kPaperWhite); }

double text_scale(double px_per_mm, double height_mm) { return height_mm * px_per_mm / 22.0; }

void put_text(cv::Mat& page, const std::string& text, cv::Point2d at_mm, double px_per_mm, double height_mm,
              const cv::Scalar& color = kBlack) {
  cv::putText(page, text, cv::Point(static_cast<int>(at_mm.x * px_per_mm), static_cast<int>(at_mm.y * px_per_mm)),
              cv::FONT_HERSHEY_SIMPLEX, text_scale(px_per_mm, height_mm), color,
              std::max(1, static_cast<int>(0.25 * px_per_mm)), cv::LINE_AA);
}

// Disk face: the outline as a cut line, inside it the face as DiskAppearance draws it (the
// body's colour lightened for paper).
Item disk_item(const DiskAppearance& look, Face face) {
  const DiskSpec& disk = look.spec();
  geom::Vec2 extent{2 * geom::support_local(disk.shape, {1, 0}).x, 2 * geom::support_local(disk.shape, {0, 1}).y};
  Item item;
  const double pad = 1.0;  // room for the cut line
  item.width_mm = extent.x + 2 * pad;
  item.height_mm = extent.y + 2 * pad;
  item.color = [&look, face, extent, pad](double x, double y) -> std::optional<cv::Vec3f> {
    double lx = x - pad - extent.x / 2, ly = extent.y / 2 + pad - y;  // disk-local, y up
    bool inside = look.contains(lx, ly);
    const double line = 0.2;  // cut line half-width, mm
    bool near_edge = inside != look.contains(lx + line, ly) || inside != look.contains(lx - line, ly) ||
                     inside != look.contains(lx, ly + line) || inside != look.contains(lx, ly - line);
    if (near_edge) return cv::Vec3f(0, 0, 0);
    if (!inside) return std::nullopt;
    cv::Vec3f c = look.face_color(face, lx, ly);
    if (c == look.body_color()) c = 0.45f * c + 0.55f * cv::Vec3f(kPaperWhite, kPaperWhite, kPaperWhite);  // save ink
    return to_print(c);
  };
  const TagSpec* tag = look.tag(face);
  std::ostringstream label;
  label << disk.name << " " << to_string(face);
  if (tag) label << ": tag " << tag->id << ", " << tag->size_mm << " mm"; else label << ": no tag";
  item.label = label.str();
  return item;
}

Item marker_item(const CornerMarker& m) {
  double cell = m.size_mm / kTagBorderCells;
  double side = (kTagCells + 2 * kMarkerCardMarginCells) * cell;
  const TagCells* cells = &tag_bitmaps().cells(m.id);
  Item item;
  item.width_mm = item.height_mm = side;
  double size = m.size_mm;
  item.color = [cells, size, side](double x, double y) -> std::optional<cv::Vec3f> {
    const double line = 0.2;
    if (x < line || y < line || x > side - line || y > side - line) return cv::Vec3f(0, 0, 0);  // cut line
    int bit = tag_cell_at(*cells, size, x - side / 2, side / 2 - y);
    return bit == 0 ? cv::Vec3f(0, 0, 0) : cv::Vec3f(255, 255, 255);
  };
  std::ostringstream label;
  label << "corner marker " << m.id << ", " << m.size_mm << " mm: centre at (" << m.center_mm.x << ", " << m.center_mm.y
        << "), page x along table +x";
  item.label = label.str();
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
  std::ostringstream label;
  if (s.type == BoardSpec::Type::chessboard)
    label << "chessboard, " << s.cols << "x" << s.rows << " inner corners, " << s.square_mm
          << " mm squares: diskref calibrate --chessboard " << s.cols << "x" << s.rows << " --square-mm " << s.square_mm;
  else
    label << "ChArUco, " << s.cols << "x" << s.rows << " squares of " << s.square_mm << " mm, markers " << s.marker_mm
          << " mm";
  item.label = label.str();
  return item;
}

void draw_item(cv::Mat& page, const Item& item, cv::Point2d origin_mm, double px_per_mm) {
  double w = item.rotated ? item.height_mm : item.width_mm, h = item.rotated ? item.width_mm : item.height_mm;
  int u0 = static_cast<int>(std::floor(origin_mm.x * px_per_mm)), v0 = static_cast<int>(std::floor(origin_mm.y * px_per_mm));
  int u1 = static_cast<int>(std::ceil((origin_mm.x + w) * px_per_mm)), v1 = static_cast<int>(std::ceil((origin_mm.y + h) * px_per_mm));
  cv::parallel_for_(cv::Range(std::max(v0, 0), std::min(v1, page.rows)), [&](const cv::Range& rows) {
    for (int v = rows.start; v < rows.end; ++v) {
      for (int u = std::max(u0, 0); u < std::min(u1, page.cols); ++u) {
        cv::Vec3f sum(0, 0, 0);
        int inked = 0;
        for (int sy = 0; sy < kSamples; ++sy) {
          for (int sx = 0; sx < kSamples; ++sx) {
            // Page mm of this sample (pixel u covers [u, u + 1) / px_per_mm).
            double px = (u + (sx + 0.5) / kSamples) / px_per_mm - origin_mm.x;
            double py = (v + (sy + 0.5) / kSamples) / px_per_mm - origin_mm.y;
            double ix = item.rotated ? py : px, iy = item.rotated ? w - px : py;
            auto c = item.color(ix, iy);
            sum += c ? *c : cv::Vec3f(255, 255, 255);
            inked += c.has_value();
          }
        }
        if (inked == 0) continue;
        cv::Vec3f mean = sum * (1.0f / (kSamples * kSamples));
        page.at<cv::Vec3b>(v, u) = cv::Vec3b(cv::saturate_cast<uint8_t>(mean[0]), cv::saturate_cast<uint8_t>(mean[1]),
                                             cv::saturate_cast<uint8_t>(mean[2]));
      }
    }
  });
}

// Title, resolution and the 100 mm bar with 10 mm ticks.
double draw_header(cv::Mat& page, const SheetOptions& o, int number, int count, double px_per_mm) {
  double x = o.margin_mm, y = o.margin_mm + 4;
  std::ostringstream title;
  title << "diskref tags" << (o.title.empty() ? "" : ": " + o.title) << "   page " << number << "/" << count;
  put_text(page, title.str(), {x, y}, px_per_mm, 3.5);
  std::ostringstream dpi;
  dpi << "Printed at " << o.dpi << " DPI, 100% scale (no fit-to-page). The bar below must measure exactly 100 mm.";
  put_text(page, dpi.str(), {x, y + 5.5}, px_per_mm, 2.6, kGrey);
  double bar_y = y + 9;
  auto px = [&](double mm) { return static_cast<int>(std::lround(mm * px_per_mm)); };
  cv::rectangle(page, cv::Point(px(x), px(bar_y)), cv::Point(px(x + 100) - 1, px(bar_y + 1.0)), kBlack, cv::FILLED);
  for (int k = 0; k <= 10; ++k)
    cv::rectangle(page, cv::Point(px(x + 10 * k - 0.15), px(bar_y - (k % 5 == 0 ? 2.5 : 1.5))),
                  cv::Point(px(x + 10 * k + 0.15), px(bar_y + 1.0)), kBlack, cv::FILLED);
  put_text(page, "0", {x - 1, bar_y + 5}, px_per_mm, 2.6);
  put_text(page, "100 mm", {x + 96, bar_y + 5}, px_per_mm, 2.6);
  return bar_y + 9;  // where the content starts
}

}  // namespace

std::vector<cv::Mat> tag_sheets(const DiskRegistry& registry, const TableSpec* table, const SheetOptions& o) {
  if (!(o.dpi >= 72 && o.dpi <= 1200)) throw std::invalid_argument("the DPI must be between 72 and 1200");
  if (!(o.page_width_mm >= 100 && o.page_height_mm >= 100 && o.page_width_mm <= 2000 && o.page_height_mm <= 2000))
    throw std::invalid_argument("the page must be between 100 and 2000 mm on each side");
  double px_per_mm = o.dpi / 25.4;
  std::vector<DiskAppearance> looks;
  for (const DiskSpec& d : registry.disks()) looks.emplace_back(d);
  std::optional<BoardPattern> board;
  if (o.board) board.emplace(*o.board);

  std::vector<Item> items;
  if (table)
    for (const CornerMarker& m : table->corner_markers) items.push_back(marker_item(m));
  for (const DiskAppearance& look : looks) {
    items.push_back(disk_item(look, Face::up));
    if (look.tag(Face::down)) items.push_back(disk_item(look, Face::down));
  }
  if (board) items.push_back(board_item(*board));

  // Shelf layout: left to right, row by row, page by page.
  const double usable_w = o.page_width_mm - 2 * o.margin_mm;
  const double top = o.margin_mm + 22;  // below the header
  const double bottom = o.page_height_mm - o.margin_mm;
  struct Placed {
    std::size_t item, page;
    cv::Point2d at;
  };
  std::vector<Placed> placed;
  std::size_t page = 0;
  double x = o.margin_mm, y = top, row_h = 0;
  for (std::size_t i = 0; i < items.size(); ++i) {
    Item& it = items[i];
    if (it.width_mm > usable_w && it.height_mm <= usable_w) it.rotated = true;
    double w = it.rotated ? it.height_mm : it.width_mm, h = (it.rotated ? it.width_mm : it.height_mm) + kLabelMm;
    if (w > usable_w || h > bottom - top)
      throw std::invalid_argument("\"" + it.label + "\" (" + std::to_string(static_cast<int>(it.width_mm)) + " x " +
                                  std::to_string(static_cast<int>(it.height_mm)) + " mm) does not fit on the page");
    if (x + w > o.margin_mm + usable_w + 1e-9) {
      x = o.margin_mm;
      y += row_h + kGapMm;
      row_h = 0;
    }
    if (y + h > bottom) {
      ++page;
      x = o.margin_mm;
      y = top;
      row_h = 0;
    }
    placed.push_back({i, page, {x, y}});
    x += w + kGapMm;
    row_h = std::max(row_h, h);
  }

  cv::Size size(static_cast<int>(std::lround(o.page_width_mm * px_per_mm)), static_cast<int>(std::lround(o.page_height_mm * px_per_mm)));
  std::vector<cv::Mat> pages(page + 1);
  for (std::size_t p = 0; p < pages.size(); ++p) {
    pages[p] = cv::Mat(size, CV_8UC3, cv::Scalar(255, 255, 255));
    draw_header(pages[p], o, static_cast<int>(p + 1), static_cast<int>(pages.size()), px_per_mm);
  }
  for (const Placed& pl : placed) {
    const Item& it = items[pl.item];
    draw_item(pages[pl.page], it, pl.at, px_per_mm);
    double h = it.rotated ? it.width_mm : it.height_mm;
    put_text(pages[pl.page], it.label, {pl.at.x, pl.at.y + h + 3.2}, px_per_mm, 2.2);
  }
  return pages;
}

double pixels_per_cell(const TagSpec& tag, const ViewingCamera& camera) {
  double f = (camera.resolution.width / 2.0) / std::tan(camera.horizontal_fov_deg * std::numbers::pi / 360.0);
  return tag.size_mm / kTagBorderCells * f / camera.height_mm;
}

std::vector<std::string> tag_warnings(const DiskRegistry& registry, const TableSpec* table,
                                      const std::optional<ViewingCamera>& camera) {
  std::vector<std::string> out;
  auto check_readable = [&](const std::string& what, const TagSpec& tag) {
    if (!camera) return;
    double cell = pixels_per_cell(tag, *camera);
    if (cell >= kMinPixelsPerCell) return;
    std::ostringstream w;
    w.precision(2);
    w << std::fixed << what << ": tag " << tag.id << " (" << tag.size_mm << " mm) has " << cell << " px per cell from "
      << camera->height_mm << " mm with a " << camera->resolution.width << "x" << camera->resolution.height << ", "
      << camera->horizontal_fov_deg << " degree camera; it needs " << kMinPixelsPerCell << " (a tag of at least "
      << tag.size_mm * kMinPixelsPerCell / cell << " mm, or a closer or sharper camera)";
    out.push_back(w.str());
  };
  for (const DiskSpec& d : registry.disks()) {
    for (const TagSpec& t : d.tags) {
      std::string what = d.name + " " + std::string(to_string(t.face));
      if (auto problem = tag_fit_problem(d.shape, t); !problem.empty()) out.push_back(what + ": " + problem);
      check_readable(what, t);
    }
  }
  if (table)
    for (const CornerMarker& m : table->corner_markers) {
      TagSpec t;
      t.id = m.id;
      t.size_mm = m.size_mm;
      check_readable("corner marker " + std::to_string(m.id), t);
    }
  return out;
}

}  // namespace diskref::render
