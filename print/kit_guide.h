#pragma once
// The first page of a printed kit: how to make it (print, cut, fold and glue, where the corner
// markers go, where the camera goes), a drawing of the table seen from above with the markers in
// their places, and what the kit holds.

#include <optional>
#include <string>
#include <vector>

#include <opencv2/core.hpp>

#include "engine/model/table_spec.h"
#include "print/tag_sheet.h"

namespace diskref::print {

struct KitGuide {
  std::string title;  // "skirmish.json"
  model::TableSpec table;
  std::optional<std::string> camera;  // "1920x1080, 70 degrees, 1000 mm above the middle of the play area"
  std::vector<std::string> notes;     // the camera planner's verdict, what was assumed
  std::string board;                  // "ChArUco 7x5 squares of 30 mm, 22 mm markers"
  std::vector<std::string> pieces;    // "enterprise (ship): tags 10 up, 11 down, 24.5 mm"
  std::string next_command;           // "diskref ui --setup mytable --camera 0"
};

// The page (BGR, the sheets' size and DPI) with the sheets' header as page `number` of `count`.
cv::Mat kit_guide_page(const KitGuide& guide, const SheetOptions& sheet, int number, int count);

}  // namespace diskref::print
