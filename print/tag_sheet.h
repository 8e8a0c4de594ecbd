#pragma once
// Print-ready sheets at exact scale: every disk's tags (both faces) inside cut outlines at the
// disk's real shape, the table's corner markers, a calibration board, and on every page the
// resolution and a 100 mm bar to check the printer's scale.
//
// Page frame: millimetres from the page's top-left corner, x right, y down. A disk is drawn
// as seen from above with its heading pointing right (+x), so its tag appears turned by
// -heading_offset_deg, exactly as it must be glued.

#include <array>
#include <optional>
#include <string>
#include <vector>

#include <opencv2/core.hpp>

#include "engine/model/camera_plan.h"
#include "engine/model/disk_registry.h"
#include "engine/model/table_spec.h"
#include "print/board_pattern.h"

namespace diskref::print {

struct SheetOptions {
  double page_width_mm = 210;  // A4 portrait
  double page_height_mm = 297;
  double margin_mm = 10;
  double dpi = 300;
  std::string title;  // e.g. the registry's file name
  std::optional<BoardSpec> board = BoardSpec{BoardSpec::Type::chessboard, 9, 6, 20.0, 0, 0};
  // Page numbers when the sheets are part of a longer document (a kit's instructions come first).
  int page_offset = 0;  // added to each sheet's number
  int extra_pages = 0;  // added to the page count
};

// Every sheet's header at the top of `page`: the title (and `heading`), the page number, the DPI
// and the 100 mm bar to check the printer's scale. Returns where the header ends (page mm from the
// top).
double draw_sheet_header(cv::Mat& page, const SheetOptions& options, int number, int count, const std::string& heading);

// Where tag_sheets put something, for checks and tools (page millimetres, y down).
struct SheetPlacement {
  std::string what;      // its first label line ("enterprise: up | down", "corner marker 0, 40 mm")
  std::size_t page = 0;  // from 0
  cv::Rect2d rect_mm;    // the item, without the label lines under it
  struct InsideLabel {
    std::string text;
    std::array<cv::Point2d, 4> box_mm;
  };
  std::vector<InsideLabel> inside_labels;  // printed inside the cut line (a disk's name, its face)
  std::vector<std::pair<cv::Point2d, cv::Point2d>> fold_lines_mm;
};

// The pages (BGR, 8 bit, page size at the DPI). A disk with a tag on each face is printed as one
// piece, both faces joined by a hinge to fold around its front edge (disk_face_art.h); every disk
// carries its name inside its cut line; templates come on pages of their own at real size.
// `placements` (may be null) receives where each item went. Throws std::invalid_argument when
// something is larger than a page or the options are unusable.
std::vector<cv::Mat> tag_sheets(const model::DiskRegistry& registry, const model::TableSpec* table,
                                const SheetOptions& options, std::vector<SheetPlacement>* placements = nullptr);

// A camera straight above the table, for the readability check.
struct ViewingCamera {
  cv::Size resolution;
  double horizontal_fov_deg = 0;
  double height_mm = 0;  // of the camera above the table
};

// Pixels per tag cell seen from such a camera (at the image centre: the best case).
double pixels_per_cell(const model::TagSpec& tag, const ViewingCamera& camera);
using model::kMinPixelsPerCell;  // spec §2 (the camera planner's, engine/model/camera_plan.h)

// One line per problem, naming the disk (or marker), its face and the tag: a tag too big for its disk (disk_registry.h
// tag_fit_problem), or with fewer than kMinPixelsPerCell pixels per cell from `camera` (when given).
std::vector<std::string> tag_warnings(const model::DiskRegistry& registry, const model::TableSpec* table,
                                      const std::optional<ViewingCamera>& camera);

}  // namespace diskref::print
