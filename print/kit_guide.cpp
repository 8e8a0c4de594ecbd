#include "print/kit_guide.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>
#include <opencv2/imgproc.hpp>

namespace diskref::print {
namespace {

const cv::Scalar kInk(0, 0, 0);
const cv::Scalar kSoft(110, 110, 110);
const cv::Scalar kMarkerFill(40, 40, 40);
const cv::Scalar kPlayArea(225, 235, 245);

// Writes on a page in millimetres (y down) with OpenCV's Hershey font.
class Pen {
 public:
  Pen(cv::Mat& page, double px_per_mm) : page_(page), k_(px_per_mm) {}
  double text_width_mm(const std::string& text, double cap_mm) const {
    int baseline = 0;
    return cv::getTextSize(text, cv::FONT_HERSHEY_SIMPLEX, scale(cap_mm), thickness(cap_mm), &baseline).width / k_;
  }
  void text(const std::string& text, cv::Point2d at_mm, double cap_mm, const cv::Scalar& color = kInk) {
    cv::putText(page_, text, px(at_mm), cv::FONT_HERSHEY_SIMPLEX, scale(cap_mm), color, thickness(cap_mm), cv::LINE_AA);
  }
  // Words wrapped to `width_mm`; returns the y of the line after the last.
  double paragraph(const std::string& text, cv::Point2d at_mm, double width_mm, double cap_mm, double line_mm,
                   const std::string& indent = "", const cv::Scalar& color = kInk) {
    std::string line;
    double y = at_mm.y;
    std::size_t start = 0;
    auto flush = [&] {
      this->text(line, {at_mm.x, y}, cap_mm, color);
      y += line_mm;
      line = indent;
    };
    while (start < text.size()) {
      std::size_t end = text.find(' ', start);
      if (end == std::string::npos) end = text.size();
      const std::string word = text.substr(start, end - start);
      const std::string candidate = line.empty() || line == indent ? line + word : line + " " + word;
      if (text_width_mm(candidate, cap_mm) > width_mm && !line.empty() && line != indent) {
        flush();
        line += word;
      } else {
        line = candidate;
      }
      start = end + 1;
    }
    if (!line.empty() && line != indent) flush();
    return y;
  }
  void rect(cv::Point2d a_mm, cv::Point2d b_mm, const cv::Scalar& color, int thick_px) {
    cv::rectangle(page_, px(a_mm), px(b_mm), color, thick_px, cv::LINE_AA);
  }
  void line(cv::Point2d a_mm, cv::Point2d b_mm, const cv::Scalar& color, double width_mm) {
    cv::line(page_, px(a_mm), px(b_mm), color, std::max(1, static_cast<int>(std::lround(width_mm * k_))), cv::LINE_AA);
  }
  void arrow(cv::Point2d a_mm, cv::Point2d b_mm, const cv::Scalar& color, double width_mm) {
    cv::arrowedLine(page_, px(a_mm), px(b_mm), color, std::max(1, static_cast<int>(std::lround(width_mm * k_))),
                    cv::LINE_AA, 0, 0.2);
  }
  int px_width(double mm) const { return std::max(1, static_cast<int>(std::lround(mm * k_))); }

 private:
  cv::Point px(cv::Point2d mm) const {
    return {static_cast<int>(std::lround(mm.x * k_)), static_cast<int>(std::lround(mm.y * k_))};
  }
  double scale(double cap_mm) const { return cap_mm * k_ / 22.0; }
  int thickness(double cap_mm) const { return std::max(1, static_cast<int>(std::lround(0.09 * cap_mm * k_))); }
  cv::Mat& page_;
  double k_;
};

// The table seen from above in a box: the play area, the corner markers (their printed squares) with
// their ids, the axes, the near edge and the camera over the middle.
void draw_table(Pen& pen, const model::TableSpec& table, const std::optional<std::string>& camera, cv::Point2d box_min,
                cv::Point2d box_size) {
  double lo_x = 0, lo_y = 0, hi_x = table.play_area_mm.x, hi_y = table.play_area_mm.y;
  for (const model::CornerMarker& m : table.corner_markers) {
    const double h = 0.9 * m.size_mm;
    lo_x = std::min(lo_x, m.center_mm.x - h), hi_x = std::max(hi_x, m.center_mm.x + h);
    lo_y = std::min(lo_y, m.center_mm.y - h), hi_y = std::max(hi_y, m.center_mm.y + h);
  }
  const double k = std::min((box_size.x - 16) / (hi_x - lo_x), (box_size.y - 20) / (hi_y - lo_y));
  const cv::Point2d origin(box_min.x + 8 - lo_x * k, box_min.y + 6 + hi_y * k);  // table (0, 0), y up
  auto at = [&](double x, double y) { return cv::Point2d(origin.x + x * k, origin.y - y * k); };
  // The play area, filled, and its size.
  const cv::Point2d a = at(0, table.play_area_mm.y), b = at(table.play_area_mm.x, 0);
  pen.rect(a, b, kPlayArea, -1);
  pen.rect(a, b, kInk, pen.px_width(0.3));
  pen.text(fmt::format("play area {:g} x {:g} mm", table.play_area_mm.x, table.play_area_mm.y),
           at(table.play_area_mm.x * 0.08, table.play_area_mm.y * 0.9), 2.4);
  for (const model::CornerMarker& m : table.corner_markers) {
    const double h = 0.9 * m.size_mm;
    pen.rect(at(m.center_mm.x - h, m.center_mm.y + h), at(m.center_mm.x + h, m.center_mm.y - h), kMarkerFill, -1);
    const std::string id = std::to_string(m.id);
    const cv::Point2d c = at(m.center_mm.x, m.center_mm.y);
    pen.text(id, {c.x - pen.text_width_mm(id, 3.0) / 2, c.y + 1.5}, 3.0, cv::Scalar(255, 255, 255));
  }
  // Axes from marker 0's corner: +x towards marker 1, +y towards marker 3.
  const double axis = 0.18 * std::min(table.play_area_mm.x, table.play_area_mm.y);
  pen.arrow(at(0.03 * table.play_area_mm.x, 0.05 * table.play_area_mm.y),
            at(0.03 * table.play_area_mm.x + axis, 0.05 * table.play_area_mm.y), kInk, 0.35);
  pen.text("+x", at(0.03 * table.play_area_mm.x + axis + 8 / k, 0.05 * table.play_area_mm.y - 4 / k), 2.4);
  pen.arrow(at(0.03 * table.play_area_mm.x, 0.05 * table.play_area_mm.y),
            at(0.03 * table.play_area_mm.x, 0.05 * table.play_area_mm.y + axis), kInk, 0.35);
  pen.text("+y", at(0.03 * table.play_area_mm.x + 3 / k, 0.05 * table.play_area_mm.y + axis + 4 / k), 2.4);
  // The camera over the middle.
  const cv::Point2d mid = at(table.play_area_mm.x / 2, table.play_area_mm.y / 2);
  pen.rect(mid - cv::Point2d(3, 2), mid + cv::Point2d(3, 2), kInk, -1);
  pen.line(mid - cv::Point2d(0, 2), mid - cv::Point2d(0, 6), kInk, 0.5);
  if (camera) pen.text("camera above here", mid + cv::Point2d(5, 1), 2.4);
  // The near edge: where marker 0 and 1 are.
  const std::string near = "near edge (markers 0 and 1)";
  const cv::Point2d n = at(table.play_area_mm.x / 2, lo_y);
  pen.text(near, {n.x - pen.text_width_mm(near, 2.4) / 2, n.y + 7}, 2.4, kSoft);
}

}  // namespace

cv::Mat kit_guide_page(const KitGuide& g, const SheetOptions& sheet, int number, int count) {
  const double k = sheet.dpi / 25.4;
  cv::Mat page(static_cast<int>(std::lround(sheet.page_height_mm * k)),
               static_cast<int>(std::lround(sheet.page_width_mm * k)), CV_8UC3, cv::Scalar(255, 255, 255));
  SheetOptions header = sheet;
  header.page_offset = 0;
  header.extra_pages = 0;
  double y = draw_sheet_header(page, header, number, count, "how to make the kit") + 3;
  Pen pen(page, k);
  const double x = sheet.margin_mm, width = sheet.page_width_mm - 2 * sheet.margin_mm;
  const double cap = 2.5, line = 4.1;
  pen.text("Your kit for " + g.title, {x, y + 4}, 4.0);
  y += 10;

  const std::vector<std::string> steps = {
      "1. Print every page at 100 % scale (no \"fit to page\"). The bar at the top of every page must measure exactly "
      "100 mm: check it with a ruler before you cut anything.",
      "2. Disks: cut along the solid line. A piece with two faces is one disk's up face (left) and down face (right): "
      "crease both dashed lines, glue the up face on top of the disk, its arrow to the disk's front and the first "
      "dashed line along the front edge, then fold the strip down over the front edge and glue the down face under "
      "the disk. The faces' headings then agree after a flip. Each disk's name is printed inside its cut line.",
      "3. Keep every tag flat, clean and unbent; matte paper avoids glare. Templates are on their own page, at real "
      "size.",
      "4. Corner markers: lay them flat just outside the play area's corners as drawn below: seen from above they go "
      "round counter-clockwise 0, 1, 2, 3, marker 0 at the near left corner; each card's text reads upright from the "
      "near edge. Tape them down: a marker that moves moves the whole table.",
      "5. Calibration board (" + g.board + "): glue it flat on stiff card; you will show it to the camera.",
      std::string("6. Camera: ") + (g.camera ? *g.camera : "straight above the middle of the play area") +
          ", looking straight down, the whole play area and the four markers in the picture. Light the table evenly.",
      "7. Then let diskref check it all, step by step: " + g.next_command,
  };
  for (const std::string& s : steps) y = pen.paragraph(s, {x, y}, width, cap, line, "   ") + 1.2;

  // The drawing, and beside it what the planner said.
  const double drawing = std::min(0.52 * width, sheet.page_height_mm - y - sheet.margin_mm - 50);
  if (drawing > 40) {
    draw_table(pen, g.table, g.camera, {x, y}, {drawing, drawing});
    double ny = y + 4;
    for (const std::string& n : g.notes)
      ny = pen.paragraph(n, {x + drawing + 4, ny}, width - drawing - 4, 2.2, 3.5, "  ") + 0.8;
    y += drawing + 2;
  }

  // What the kit holds.
  pen.text("In this kit:", {x, y += 4}, 3.0);
  y += 1.5;
  const double column = width / 2;
  const double rows_room = sheet.page_height_mm - sheet.margin_mm - y;
  const int per_column = std::max(1, static_cast<int>(rows_room / 3.5));
  for (std::size_t i = 0; i < g.pieces.size(); ++i) {
    const int col = static_cast<int>(i) / per_column, row = static_cast<int>(i) % per_column;
    if (col > 1) {
      pen.text(fmt::format("... and {} more (see the sheets)", g.pieces.size() - i), {x + column, y + 3.5 * per_column},
               2.2, kSoft);
      break;
    }
    pen.text(g.pieces[i], {x + col * column, y + 3.5 * (row + 1)}, 2.2);
  }
  return page;
}

}  // namespace diskref::print
