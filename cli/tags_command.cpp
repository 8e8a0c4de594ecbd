// `diskref tags --disks DISKS.json --out FILE.pdf|FILE.png`: print-ready tag sheets at exact scale
// (every disk's tags in cut outlines, corner markers, a calibration board, a 100 mm check bar),
// with warnings for tags too big for their disk or too small for the camera.

#include <cstdio>
#include <memory>
#include <optional>
#include <regex>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "engine/io/atomic_write.h"
#include "engine/io/input_error.h"
#include "engine/model/bounds.h"
#include "engine/model/disk_registry.h"
#include "engine/model/table_spec.h"
#include "print/counter_sheet.h"
#include "print/print_files.h"
#include "print/tag_sheet.h"

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

// A positive decimal number, all of `text` (std::stod would accept "1.2.3" as 1.2).
std::optional<double> parse_number(const std::string& text) {
  static const std::regex number(R"([0-9]+(\.[0-9]*)?|\.[0-9]+)");
  if (!std::regex_match(text, number)) return std::nullopt;
  return std::stod(text);
}

// "a4", "letter", "a3" or "WIDTHxHEIGHT" in millimetres.
void parse_page(const std::string& text, print::SheetOptions& o) {
  if (text == "a4") {
    o.page_width_mm = 210;
    o.page_height_mm = 297;
    return;
  }
  if (text == "a3") {
    o.page_width_mm = 297;
    o.page_height_mm = 420;
    return;
  }
  if (text == "letter") {
    o.page_width_mm = 215.9;
    o.page_height_mm = 279.4;
    return;
  }
  auto x = text.find('x');
  std::optional<double> w, h;
  if (x != std::string::npos) {
    w = parse_number(text.substr(0, x));
    h = parse_number(text.substr(x + 1));
  }
  if (!w || !h)
    throw io::InputError("", "--page", "expected a4, a3, letter or WIDTHxHEIGHT in mm, not \"" + text + "\"");
  if (!(*w >= 100 && *h >= 100 && *w <= 2000 && *h <= 2000))
    throw io::InputError("", "--page", "each side must be between 100 and 2000 mm, not \"" + text + "\"");
  o.page_width_mm = *w;
  o.page_height_mm = *h;
}

// "none", "chessboard:COLSxROWS:SQUARE_MM" (inner corners) or "charuco:COLSxROWS:SQUARE_MM:MARKER_MM" (squares).
std::optional<print::BoardSpec> parse_board(const std::string& text) {
  if (text == "none") return std::nullopt;
  static const std::string kNumber = R"(([0-9]+(?:\.[0-9]*)?))";
  std::smatch m;
  print::BoardSpec b;
  if (std::regex_match(text, m, std::regex("chessboard:([0-9]+)x([0-9]+):" + kNumber))) {
    b = {print::BoardSpec::Type::chessboard, std::stoi(m[1]), std::stoi(m[2]), std::stod(m[3]), 0, 0};
  } else if (std::regex_match(text, m, std::regex("charuco:([0-9]+)x([0-9]+):" + kNumber + ":" + kNumber))) {
    b = {print::BoardSpec::Type::charuco, std::stoi(m[1]), std::stoi(m[2]), std::stod(m[3]), std::stod(m[4]),
         cv::aruco::DICT_5X5_100};
  } else {
    throw io::InputError("", "--board", "expected none, chessboard:9x6:20 or charuco:7x5:30:22, not \"" + text + "\"");
  }
  if (auto problem = print::board_spec_problem(b); !problem.empty())
    throw io::InputError("", "--board", problem + " (\"" + text + "\")");
  return b;
}

std::optional<print::ViewingCamera> parse_camera(const TagsOptions& o) {
  if (o.camera_resolution.empty() && o.camera_fov_deg == 0 && o.camera_height_mm == 0) return std::nullopt;
  std::smatch m;
  if (!std::regex_match(o.camera_resolution, m, std::regex(R"(([1-9][0-9]{0,4})x([1-9][0-9]{0,4}))")) ||
      !(o.camera_fov_deg > 0 && o.camera_fov_deg < 180) ||
      !(o.camera_height_mm > 0 && o.camera_height_mm <= model::bounds::kMaxCameraDistanceMm))
    throw io::InputError(
        "", "--camera-resolution/--camera-fov/--camera-height",
        "the readability check needs all three: a resolution, a field of view between 0 and 180 "
        "degrees and a height above 0 mm (at most 20 m), e.g. --camera-resolution 1920x1080 --camera-fov 70 "
        "--camera-height 1100");
  return print::ViewingCamera{{std::stoi(m[1]), std::stoi(m[2])}, o.camera_fov_deg, o.camera_height_mm};
}

bool ends_with(const std::string& text, const std::string& suffix) {
  return text.size() > suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

int run_tags(const TagsOptions& options) {
  // The command line first, so that a typo costs no rendering.
  const std::string& out = options.out;
  const bool pdf = ends_with(out, ".pdf");
  if (!pdf && !ends_with(out, ".png")) throw io::InputError(out, "", "the output must end in .pdf or .png");
  io::check_output_path(out);
  print::SheetOptions sheet;
  parse_page(options.page, sheet);
  if (!(options.dpi >= 72 && options.dpi <= 1200))
    throw io::InputError("", "--dpi",
                         "must be between 72 and 1200, not " + (std::ostringstream() << options.dpi).str());
  sheet.dpi = options.dpi;
  sheet.board = parse_board(options.board);
  std::optional<print::ViewingCamera> camera = parse_camera(options);

  model::DiskRegistry registry = model::load_disk_registry(options.disks);
  std::optional<model::TableSpec> table;
  if (!options.table.empty()) table = model::load_table(options.table);
  // A counter the camera cannot read would be asked about in every drop: refused, with the camera
  // that would read it (print/counter_sheet.h).
  if (camera)
    if (const std::vector<std::string> problems = print::counter_read_problems(registry, *camera); !problems.empty()) {
      std::string all;
      for (const std::string& p : problems) all += (all.empty() ? "" : "\n") + p;
      throw io::InputError(options.disks, "", all);
    }
  for (const std::string& w : print::tag_warnings(registry, table ? &*table : nullptr, camera))
    std::fprintf(stderr, "diskref tags: warning: %s\n", w.c_str());
  // The camera planner: with the table, whether this camera straight above sees all of it.
  if (camera && table) {
    const model::PinholeCamera pinhole{camera->resolution.width, camera->resolution.height, camera->horizontal_fov_deg,
                                       camera->height_mm};
    const model::CameraPlan plan =
        model::plan_camera(model::straight_above_play_area(pinhole, *table), *table, &registry);
    for (const model::PlanProblem& p : model::view_problems(plan, *table, &registry, pinhole))
      std::fprintf(stderr, "diskref tags: warning: %s: %s\n", p.problem.c_str(), p.fix.c_str());
  }

  sheet.title = options.disks;
  std::vector<cv::Mat> pages;
  try {
    pages = print::tag_sheets(registry, table ? &*table : nullptr, sheet);
  } catch (const std::invalid_argument& e) {
    throw io::InputError(options.disks, "", e.what());
  }

  std::vector<std::string> written;
  if (pdf) {
    print::write_pdf(pages, sheet.dpi, out);
    written.push_back(out);
  } else {
    // One file per page: FILE.png, FILE-2.png, ...
    for (std::size_t i = 0; i < pages.size(); ++i) {
      written.push_back(i == 0 ? out : out.substr(0, out.size() - 4) + "-" + std::to_string(i + 1) + ".png");
      print::write_png_with_dpi(pages[i], sheet.dpi, written.back());
    }
  }
  std::string files = written.front() + (written.size() > 1 ? " ... " + written.back() : "");
  std::printf("%zu page(s) at %g DPI (%g x %g mm, %dx%d px) written to %s\n", pages.size(), sheet.dpi,
              sheet.page_width_mm, sheet.page_height_mm, pages.front().cols, pages.front().rows, files.c_str());
  return kExitOk;
}

}  // namespace

RunFunction add_tags_command(CLI::App& app) {
  auto options = std::make_shared<TagsOptions>();
  CLI::App* sub = app.add_subcommand("tags", "Print-ready tag sheets at exact scale (PDF or PNG) with cut outlines");
  sub->footer(
      "Examples:\n  diskref tags --disks disks.json --table table.json --out sheets.pdf\n  diskref tags --disks "
      "disks.json --table table.json --out sheets.pdf --camera-resolution 1920x1080 --camera-fov 70 --camera-height "
      "1000\n(a whole kit for a game: diskref setup kit DIR --game GAME.json)");
  sub->add_option("--disks", options->disks, "Disk registry (JSON, spec §4)")->required();
  sub->add_option("--table", options->table, "Table file (JSON, spec §3): also print the corner markers");
  sub->add_option("--out", options->out, "Output file: .pdf (all pages) or .png (FILE.png, FILE-2.png, ...)")
      ->required();
  sub->add_option("--page", options->page, "Page size: a4, a3, letter or WIDTHxHEIGHT in mm")->capture_default_str();
  sub->add_option("--dpi", options->dpi, "Resolution of the sheets, 72 to 1200")->capture_default_str();
  sub->add_option("--board", options->board,
                  "Calibration board to print: none, chessboard:COLSxROWS:SQUARE_MM (inner corners) or "
                  "charuco:COLSxROWS:SQUARE_MM:MARKER_MM (squares, DICT_5X5_100)")
      ->capture_default_str();
  sub->add_option("--camera-resolution", options->camera_resolution,
                  "Readability check: camera resolution, e.g. 1920x1080");
  sub->add_option("--camera-fov", options->camera_fov_deg, "Readability check: horizontal field of view, degrees");
  sub->add_option("--camera-height", options->camera_height_mm, "Readability check: camera height above the table, mm");
  return [options] { return run_tags(*options); };
}

}  // namespace diskref::cli
