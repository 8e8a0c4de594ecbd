// `diskref tags --disks DISKS.json --out FILE.pdf|FILE.png`: print-ready tag sheets at exact scale
// (every disk's tags in cut outlines, corner markers, a calibration board, a 100 mm check bar),
// with warnings for tags too big for their disk or too small for the camera.

#include <cstdio>
#include <memory>
#include <optional>
#include <regex>
#include <string>

#include "cli/commands.h"
#include "engine/io/input_error.h"
#include "engine/model/disk_registry.h"
#include "engine/model/table_spec.h"
#include "render/print_files.h"
#include "render/tag_sheet.h"

namespace diskref::cli {
namespace {

struct TagsOptions {
  std::string disks;
  std::string table;
  std::string out;
  std::string page = "a4";
  double dpi = 300;
  std::string board = "chessboard:9x6:20";
  std::string camera_resolution;  // WxH
  double camera_fov_deg = 0;
  double camera_height_mm = 0;
};

// "a4", "letter", "a3" or "WIDTHxHEIGHT" in millimetres.
void parse_page(const std::string& text, render::SheetOptions& o) {
  if (text == "a4") { o.page_width_mm = 210; o.page_height_mm = 297; return; }
  if (text == "a3") { o.page_width_mm = 297; o.page_height_mm = 420; return; }
  if (text == "letter") { o.page_width_mm = 215.9; o.page_height_mm = 279.4; return; }
  std::smatch m;
  if (std::regex_match(text, m, std::regex(R"(([0-9.]+)x([0-9.]+))"))) {
    o.page_width_mm = std::stod(m[1]);
    o.page_height_mm = std::stod(m[2]);
    return;
  }
  throw InputError("", "--page", "expected a4, a3, letter or WIDTHxHEIGHT in mm, not \"" + text + "\"");
}

// "none", "chessboard:COLSxROWS:SQUARE_MM" (inner corners) or "charuco:COLSxROWS:SQUARE_MM:MARKER_MM" (squares).
std::optional<render::BoardSpec> parse_board(const std::string& text) {
  if (text == "none") return std::nullopt;
  std::smatch m;
  render::BoardSpec b;
  if (std::regex_match(text, m, std::regex(R"(chessboard:([0-9]+)x([0-9]+):([0-9.]+))"))) {
    b = {render::BoardSpec::Type::chessboard, std::stoi(m[1]), std::stoi(m[2]), std::stod(m[3]), 0, 0};
  } else if (std::regex_match(text, m, std::regex(R"(charuco:([0-9]+)x([0-9]+):([0-9.]+):([0-9.]+))"))) {
    b = {render::BoardSpec::Type::charuco, std::stoi(m[1]), std::stoi(m[2]), std::stod(m[3]), std::stod(m[4]),
         cv::aruco::DICT_5X5_100};
  } else {
    throw InputError("", "--board", "expected none, chessboard:9x6:20 or charuco:7x5:30:22, not \"" + text + "\"");
  }
  if (auto problem = render::board_spec_problem(b); !problem.empty()) throw InputError("", "--board", problem);
  return b;
}

int run_tags(const TagsOptions& options) {
  DiskRegistry registry = load_disk_registry(options.disks);
  std::optional<TableSpec> table;
  if (!options.table.empty()) table = load_table(options.table);

  std::optional<render::ViewingCamera> camera;
  if (!options.camera_resolution.empty() || options.camera_fov_deg > 0 || options.camera_height_mm > 0) {
    std::smatch m;
    if (!std::regex_match(options.camera_resolution, m, std::regex(R"(([0-9]+)x([0-9]+))")) ||
        !(options.camera_fov_deg > 0) || !(options.camera_height_mm > 0))
      throw InputError("", "--camera-resolution/--camera-fov/--camera-height",
                       "the readability check needs all three: e.g. --camera-resolution 1920x1080 --camera-fov 70 "
                       "--camera-height 1100");
    camera = render::ViewingCamera{{std::stoi(m[1]), std::stoi(m[2])}, options.camera_fov_deg, options.camera_height_mm};
  }
  for (const std::string& w : render::tag_warnings(registry, table ? &*table : nullptr, camera))
    std::fprintf(stderr, "diskref tags: warning: %s\n", w.c_str());

  render::SheetOptions sheet;
  parse_page(options.page, sheet);
  sheet.dpi = options.dpi;
  sheet.board = parse_board(options.board);
  sheet.title = options.disks;
  std::vector<cv::Mat> pages;
  try {
    pages = render::tag_sheets(registry, table ? &*table : nullptr, sheet);
  } catch (const std::invalid_argument& e) {
    throw InputError(options.disks, "", e.what());
  }

  std::string out = options.out;
  std::string extension = out.size() > 4 ? out.substr(out.size() - 4) : "";
  if (extension == ".pdf") {
    render::write_pdf(pages, sheet.dpi, out);
  } else if (extension == ".png") {
    // One file per page: FILE.png, FILE-2.png, ...
    for (std::size_t i = 0; i < pages.size(); ++i) {
      std::string name = i == 0 ? out : out.substr(0, out.size() - 4) + "-" + std::to_string(i + 1) + ".png";
      render::write_png_with_dpi(pages[i], sheet.dpi, name);
    }
  } else {
    throw InputError(out, "", "the output must end in .pdf or .png");
  }
  std::printf("%zu page(s) at %g DPI (%.0f x %.0f mm) written to %s\n", pages.size(), sheet.dpi, sheet.page_width_mm,
              sheet.page_height_mm, out.c_str());
  return kExitOk;
}

}  // namespace

RunFunction setup_tags(CLI::App& app) {
  auto options = std::make_shared<TagsOptions>();
  CLI::App* sub = app.add_subcommand("tags", "Print-ready tag sheets at exact scale (PDF or PNG) with cut outlines");
  sub->add_option("--disks", options->disks, "Disk registry (JSON, spec §4)")->required();
  sub->add_option("--table", options->table, "Table file (JSON, spec §3): also print the corner markers");
  sub->add_option("--out", options->out, "Output file: .pdf (all pages) or .png (FILE.png, FILE-2.png, ...)")->required();
  sub->add_option("--page", options->page, "Page size: a4, a3, letter or WIDTHxHEIGHT in mm")->capture_default_str();
  sub->add_option("--dpi", options->dpi, "Resolution of the sheets")->check(CLI::Range(72.0, 1200.0))->capture_default_str();
  sub->add_option("--board", options->board,
                  "Calibration board to print: none, chessboard:COLSxROWS:SQUARE_MM (inner corners) or "
                  "charuco:COLSxROWS:SQUARE_MM:MARKER_MM (squares, DICT_5X5_100)")
      ->capture_default_str();
  sub->add_option("--camera-resolution", options->camera_resolution, "Readability check: camera resolution, e.g. 1920x1080");
  sub->add_option("--camera-fov", options->camera_fov_deg, "Readability check: horizontal field of view, degrees");
  sub->add_option("--camera-height", options->camera_height_mm, "Readability check: camera height above the table, mm");
  return [options] { return run_tags(*options); };
}

}  // namespace diskref::cli
