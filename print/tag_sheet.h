#pragma once
// Print-ready sheets at exact scale: every disk's tags (both faces) inside cut outlines at the
// disk's real shape, the table's corner markers, a calibration board, and on every page the
// resolution and a 100 mm bar to check the printer's scale.
//
// Page frame: millimetres from the page's top-left corner, x right, y down. A disk is drawn
// as seen from above with its heading pointing right (+x), so its tag appears turned by
// -heading_offset_deg, exactly as it must be glued.

#include <optional>
#include <string>
#include <vector>

#include <opencv2/core.hpp>

#include "engine/model/disk_registry.h"
#include "engine/model/table_spec.h"
#include "print/board_pattern.h"

namespace diskref::print {

struct SheetOptions {
  double page_width_mm = 210;   // A4 portrait
  double page_height_mm = 297;
  double margin_mm = 10;
  double dpi = 300;
  std::string title;            // e.g. the registry's file name
  std::optional<BoardSpec> board = BoardSpec{BoardSpec::Type::chessboard, 9, 6, 20.0, 0, 0};
};

// The pages (BGR, 8 bit, page size at the DPI). Throws std::invalid_argument when something is
// larger than a page or the options are unusable.
std::vector<cv::Mat> tag_sheets(const model::DiskRegistry& registry, const model::TableSpec* table, const SheetOptions& options);

// A camera straight above the table, for the readability check.
struct ViewingCamera {
  cv::Size resolution;
  double horizontal_fov_deg = 0;
  double height_mm = 0;  // of the camera above the table
};

// Pixels per tag cell seen from such a camera (at the image centre: the best case).
double pixels_per_cell(const model::TagSpec& tag, const ViewingCamera& camera);
inline constexpr double kMinPixelsPerCell = 2.5;  // spec §2

// One line per problem, naming the disk (or marker), its face and the tag: a tag too big for its disk (disk_registry.h tag_fit_problem), or with
// fewer than kMinPixelsPerCell pixels per cell from `camera` (when given).
std::vector<std::string> tag_warnings(const model::DiskRegistry& registry, const model::TableSpec* table,
                                      const std::optional<ViewingCamera>& camera);

}  // namespace diskref::print
