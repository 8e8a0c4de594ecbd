// `diskref calibrate` (spec §7): calibrate a camera's lens from images or videos of a chessboard or
// ChArUco board. Prints the views used and dropped and why, the lens model chosen by held-out
// views, the intrinsics with their standard deviations, the projection uncertainty over the image
// (and, asked, a cross-validation of two halves of the views), and `rms_px=...` as the last line of
// stdout; writes the camera file (with its uncertainty grid) and, asked, the uncertainty map.

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <opencv2/imgcodecs.hpp>

#include "calibration/cross_validation.h"
#include "calibration/lens_calibration.h"
#include "calibration/uncertainty_map.h"
#include "calibration/view_selection.h"
#include "cli/commands.h"
#include "cli/image_input.h"
#include "cli/option_checks.h"
#include "engine/io/atomic_write.h"
#include "engine/io/input_error.h"
#include "engine/model/bounds.h"
#include "vision/frame_source.h"

namespace diskref::cli {
namespace {

struct CalibrateOptions {
  std::string chessboard;  // COLSxROWS inner corners
  std::string charuco;     // COLSxROWS squares
  double square_mm = 0;
  double marker_mm = 0;
  std::string dictionary = "DICT_5X5_100";
  std::string out;
  std::vector<std::string> inputs;
  int max_views = calib::ViewSelectionOptions{}.max_views;
  int video_frames = 200;
  std::string lens_model = "auto";
  std::string uncertainty_map;  // PNG to write
  bool cross_validate = false;
};

// --lens-model: "auto" chooses by held-out views; 4, 5, 8, 12 or 14 forces that many coefficients.
std::optional<calib::LensModel> forced_model(const std::string& text) {
  for (calib::LensModel m : calib::kLensModels)
    if (text == std::to_string(calib::coefficient_count(m))) return m;
  return std::nullopt;
}

// A board has 2 to 100 corners (or squares) a side: a bigger one cannot be printed legibly, and
// 100000x100000 would ask for terabytes of corners.
constexpr int kMaxBoardSide = 100;

std::optional<cv::Size> parse_grid(const std::string& text) {
  int cols = 0, rows = 0;
  char x = 0, extra = 0;
  if (std::sscanf(text.c_str(), "%d%c%d%c", &cols, &x, &rows, &extra) != 3 || (x != 'x' && x != 'X'))
    return std::nullopt;
  if (cols < 2 || rows < 2 || cols > kMaxBoardSide || rows > kMaxBoardSide) return std::nullopt;
  return cv::Size(cols, rows);
}

// The board from the options; throws std::invalid_argument with the problem.
calib::BoardSpec board_from(const CalibrateOptions& o) {
  if (o.chessboard.empty() == o.charuco.empty())
    throw std::invalid_argument("give exactly one of --chessboard COLSxROWS or --charuco COLSxROWS");
  calib::BoardSpec board;
  if (!o.chessboard.empty())
    board = calib::ChessboardSpec{*parse_grid(o.chessboard), o.square_mm};
  else
    board = calib::CharucoSpec{*parse_grid(o.charuco), o.square_mm, o.marker_mm, o.dictionary};
  calib::validate_board(board);
  return board;
}

// Reads every input, finds the board, measures each view. Images without the board are named in
// `not_found`; videos are sampled evenly (at most video_frames frames each) with progress on stderr.
struct Collected {
  std::vector<calib::ViewCandidate> candidates;
  std::vector<std::string> not_found;
  std::vector<std::string> summaries;  // one line per video
  cv::Size image_size;
};

void check_size(Collected& c, cv::Size size, const std::string& input) {
  if (c.image_size.empty()) c.image_size = size;
  if (size != c.image_size)
    throw io::InputError(input, "",
                         "is " + std::to_string(size.width) + "x" + std::to_string(size.height) +
                             " but the first input is " + std::to_string(c.image_size.width) + "x" +
                             std::to_string(c.image_size.height) + " (calibrate one camera resolution at a time)");
}

void collect_video(const std::string& input, const calib::BoardSpec& board, int frame_budget, Collected& c) {
  auto source = vision::open_video_file(input);
  check_size(c, source->frame_size(), input);
  long long total = source->frame_count().value_or(0);
  long long stride = total > frame_budget ? (total + frame_budget - 1) / frame_budget : 1;
  long long examined = 0, found = 0;
  cv::Mat previous;  // the frame just before an examined one: the board's motion
  long long previous_index = -2;
  auto last_report = std::chrono::steady_clock::now();
  while (auto frame = source->next()) {
    if (frame->index % stride != 0 && (frame->index + 1) % stride != 0) continue;
    cv::Mat gray = to_gray(frame->image);
    if (frame->index % stride == 0) {
      ++examined;
      std::string name = std::filesystem::path(input).filename().string() + " frame " + std::to_string(frame->index);
      cv::Mat before = previous_index == frame->index - 1 ? previous : cv::Mat();
      if (auto candidate = calib::examine_view(gray, before, board, name, calib::DetectionEffort::fast)) {
        c.candidates.push_back(std::move(*candidate));
        ++found;
      }
      auto now = std::chrono::steady_clock::now();
      if (now - last_report > std::chrono::seconds(1)) {
        std::fprintf(stderr, "%s: frame %lld%s, board found in %lld of %lld frames examined\n", input.c_str(),
                     frame->index, total ? (" of " + std::to_string(total)).c_str() : "", found, examined);
        last_report = now;
      }
    }
    previous = gray.clone();
    previous_index = frame->index;
  }
  c.summaries.push_back(input + ": " + std::to_string(examined) + " frames examined (every " + std::to_string(stride) +
                        "), board found in " + std::to_string(found) +
                        (source->corrupt_frames_skipped()
                             ? ", " + std::to_string(source->corrupt_frames_skipped()) + " corrupt frames skipped"
                             : std::string()));
}

Collected collect(const CalibrateOptions& o, const calib::BoardSpec& board) {
  Collected c;
  int images = 0;
  for (const auto& input : o.inputs) {
    if (!is_image_file(input)) {
      collect_video(input, board, o.video_frames, c);
      continue;
    }
    ++images;
    cv::Mat gray = read_gray_image(input);
    check_size(c, gray.size(), input);
    std::string name = std::filesystem::path(input).filename().string();
    if (auto candidate = calib::examine_view(gray, cv::Mat(), board, name))
      c.candidates.push_back(std::move(*candidate));
    else
      c.not_found.push_back(input);
  }
  if (images)
    c.summaries.insert(c.summaries.begin(), std::to_string(images) + " image(s), board found in " +
                                                std::to_string(images - static_cast<int>(c.not_found.size())));
  return c;
}

// Dropped views: one line each for images; for video frames, one line per video and reason,
// listing the frames (a video can drop hundreds).
void print_dropped(const std::vector<calib::DroppedView>& dropped) {
  struct Group {
    std::string example;  // the first frame's full reason
    std::vector<std::string> frames;
  };
  std::vector<std::pair<std::string, Group>> groups;  // key: "VIDEO: KIND", in first-seen order
  for (const auto& d : dropped) {
    auto at = d.name.rfind(" frame ");
    if (at == std::string::npos) {
      std::printf("dropped %s: %s\n", d.name.c_str(), d.reason.c_str());
      continue;
    }
    std::string key = d.name.substr(0, at) + ": " + d.kind;
    auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == key; });
    if (it == groups.end()) it = groups.insert(groups.end(), {key, Group{d.name + ": " + d.reason, {}}});
    it->second.frames.push_back(d.name.substr(at + 7));
  }
  for (auto& [key, group] : groups) {
    std::sort(group.frames.begin(), group.frames.end(),
              [](const std::string& a, const std::string& b) { return std::stoll(a) < std::stoll(b); });
    std::string frames;
    for (const auto& f : group.frames) frames += (frames.empty() ? "" : ", ") + f;
    std::printf("dropped %zu frame(s) of %s (e.g. %s): frames %s\n", group.frames.size(), key.c_str(),
                group.example.c_str(), frames.c_str());
  }
}

void print_calibration(const calib::LensCalibration& cal, const std::map<std::string, double>& edge_widths) {
  std::printf("views used: %zu (boards cover %.0f %% of the image; corners reach %.0f %% of a 4x4 grid)\n",
              cal.views.size(), 100 * cal.area_coverage, 100 * cal.cell_coverage);
  std::printf("views kept (RMS px in the final fit, edge width, why):\n");
  for (const auto& v : cal.views) {
    auto edge = edge_widths.find(v.name);
    const std::string width = edge != edge_widths.end() ? fmt::format("edges {:.1f} px", edge->second) : "edges ?";
    std::printf("  %-40s %6.3f  (%d corners, %s) %s\n", v.name.c_str(), v.rms_px, v.corners, width.c_str(),
                v.verdict.c_str());
  }
  print_dropped(cal.outliers);
  std::printf("lens models, k-fold over views (held-out RMS px is the figure of merit; fit RMS for reference):\n");
  for (const auto& m : cal.models)
    std::printf("  %-20s held-out %.4f  fit %.4f%s\n", calib::lens_model_name(m.model).c_str(), m.held_out_rms_px,
                m.fit_rms_px, m.model == cal.model ? "  <- chosen" : "");
  std::printf("lens model: %s\n", calib::lens_model_name(cal.model).c_str());
  const calib::CameraModel& k = cal.camera;
  std::vector<double> values{k.fx(), k.fy(), k.cx(), k.cy()};
  values.insert(values.end(), k.dist_coeffs.begin(), k.dist_coeffs.end());
  const std::vector<std::string> names = calib::intrinsic_names(k);
  std::printf("intrinsics (value +- 1 standard deviation; corner noise %.3f px from the residuals):\n",
              cal.covariance.corner_sigma_px);
  for (std::size_t i = 0; i < values.size() && i < cal.intrinsic_std.size(); ++i) {
    int decimals = i < 4 ? 2 : 5;
    fmt::print("  {} = {:.{}f} +- {:.{}f}{}\n", names[i], values[i], decimals, cal.intrinsic_std[i], decimals,
               i < 4 ? " px" : "");
  }
  std::printf(
      "projection uncertainty (1 sigma, px): central 80 %% of the image median %.3f, 90th percentile %.3f, "
      "max %.3f; whole image median %.3f, max %.3f\n",
      cal.uncertainty_central.median, cal.uncertainty_central.p90, cal.uncertainty_central.max,
      cal.uncertainty_whole.median, cal.uncertainty_whole.max);
  if (const auto& grid = k.uncertainty) {
    std::printf("projection uncertainty over the image (px, %dx%d grid, top row first):\n", grid->cols, grid->rows);
    for (int r = 0; r < grid->rows; ++r) {
      std::string row;
      for (int c = 0; c < grid->cols; ++c)
        row += fmt::format(" {:5.2f}", grid->sigma_px[static_cast<std::size_t>(r * grid->cols + c)]);
      std::printf(" %s\n", row.c_str());
    }
    std::printf("known worst: the image's %s (show the board there to know it better)\n",
                calib::worst_known_region(k).c_str());
  }
}

// A PNG written whole or not at all.
void write_image(const std::string& file, const cv::Mat& picture) {
  std::vector<uchar> png;
  if (!cv::imencode(".png", picture, png)) throw std::runtime_error(file + ": cannot encode the picture as PNG");
  io::write_file_atomically(file, std::string(png.begin(), png.end()));
}

void print_cross_validation(const calib::SplitCrossValidation& cv) {
  const calib::CalibrationComparison& c = cv.comparison;
  std::printf(
      "cross-validation: two halves (%zu and %zu views) calibrated apart, compared over the central 80 %% of "
      "the image:\n",
      cv.first.views.size(), cv.second.views.size());
  std::printf("  difference (px): median %.3f, 90th percentile %.3f, max %.3f\n", c.difference.median, c.difference.p90,
              c.difference.max);
  std::printf("  predicted 1 sigma of the difference (px): median %.3f, 90th percentile %.3f, max %.3f\n",
              c.predicted.median, c.predicted.p90, c.predicted.max);
  std::printf("  within 2 predicted sigma: %.0f %% of the points%s\n", 100 * c.within_2_sigma,
              c.within_2_sigma >= 0.9 ? " (the uncertainty is honest)"
                                      : " (the halves disagree beyond their uncertainty: a lens model too simple, "
                                        "views that disagree, or too few views in one half)");
}

int run_calibrate(const CalibrateOptions& o) {
  // The output first: minutes of calibration must not end in "cannot write over a device".
  io::check_output_path(o.out);
  if (!o.uncertainty_map.empty()) io::check_output_path(o.uncertainty_map);
  calib::BoardSpec board;
  try {
    board = board_from(o);
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "diskref calibrate: %s\n", e.what());
    return kExitBadInput;
  }
  std::printf("board: %s\n", calib::describe_board(board).c_str());
  Collected c = collect(o, board);
  for (const auto& s : c.summaries) std::printf("%s\n", s.c_str());
  for (const auto& name : c.not_found) std::printf("board not found in %s (skipped)\n", name.c_str());

  calib::ViewSelectionOptions selection_options;
  selection_options.max_views = o.max_views;
  std::map<std::string, double> edge_widths;  // reported with each view: soft views are kept
  for (const auto& candidate : c.candidates)
    if (candidate.edge_width_px) edge_widths[candidate.view.name] = *candidate.edge_width_px;
  calib::ViewSelection selection = calib::select_views(std::move(c.candidates), c.image_size, selection_options);
  print_dropped(selection.dropped);

  calib::LensCalibrationOptions lens_options;
  lens_options.model = forced_model(o.lens_model);
  calib::LensCalibration cal;
  try {
    cal = calib::calibrate_lens(selection.kept, c.image_size, lens_options);
  } catch (const calib::CalibrationRefused& e) {
    std::fprintf(stderr, "diskref calibrate: cannot calibrate: %s\n", e.what());
    return kExitFailure;
  }
  print_calibration(cal, edge_widths);
  calib::save_camera_model(cal.camera, o.out);
  std::printf("wrote %s (%dx%d)\n", o.out.c_str(), c.image_size.width, c.image_size.height);
  if (!o.uncertainty_map.empty()) {
    std::vector<calib::BoardView> kept;
    for (const auto& v : selection.kept)
      if (std::any_of(cal.views.begin(), cal.views.end(), [&](const calib::ViewError& e) { return e.name == v.name; }))
        kept.push_back(v);
    write_image(o.uncertainty_map, calib::draw_uncertainty_map(cal.camera, cal.covariance, kept));
    std::printf("wrote %s (projection uncertainty map)\n", o.uncertainty_map.c_str());
  }
  if (o.cross_validate) {
    calib::LensCalibrationOptions halves = lens_options;
    halves.model = cal.model;  // both halves measure the model chosen for the whole set
    try {
      print_cross_validation(calib::cross_validate_halves(selection.kept, c.image_size, halves));
    } catch (const calib::CalibrationRefused& e) {
      std::printf("cross-validation: not possible: a half cannot be calibrated alone: %s\n", e.what());
    }
  }
  std::printf("rms_px=%.3f\n", cal.rms_px);
  return kExitOk;
}

}  // namespace

RunFunction add_calibrate_command(CLI::App& app) {
  auto o = std::make_shared<CalibrateOptions>();
  CLI::App* sub = app.add_subcommand(
      "calibrate",
      "Calibrate the camera's lens from images or videos of a chessboard or ChArUco board (writes a camera file)");
  sub->footer(
      "Examples:\n  diskref calibrate --charuco 7x5 --square-mm 30 --marker-mm 22 --out camera.json board.mp4\n  "
      "diskref calibrate --chessboard 9x6 --square-mm 25 --out camera.json photos/*.jpg\n(a first table: diskref ui "
      "--setup DIR calibrates with live feedback)");
  auto grid = CLI::Validator(
      [](std::string& text) {
        return parse_grid(text)
                   ? std::string()
                   : "expected COLSxROWS such as 9x6, each 2.." + std::to_string(kMaxBoardSide) + ", got " + text;
      },
      "COLSxROWS");
  auto* chess = sub->add_option("--chessboard", o->chessboard, "Chessboard: inner corners, e.g. 9x6")->check(grid);
  auto* charuco =
      sub->add_option("--charuco", o->charuco, "ChArUco board: squares (not corners), e.g. 11x8")->check(grid);
  chess->excludes(charuco);
  sub->add_option("--square-mm", o->square_mm, "Side of one square, mm")
      ->required()
      ->check(finite_between(model::bounds::kMinSizeMm, model::bounds::kMaxSizeMm));
  sub->add_option("--marker-mm", o->marker_mm, "ChArUco: side of one ArUco marker, mm")
      ->check(finite_between(model::bounds::kMinSizeMm, model::bounds::kMaxSizeMm));
  std::string dictionaries;
  for (const auto& name : calib::charuco_dictionary_names()) dictionaries += (dictionaries.empty() ? "" : ", ") + name;
  sub->add_option("--dictionary", o->dictionary, "ChArUco: ArUco dictionary (" + dictionaries + ")")
      ->capture_default_str();
  sub->add_option("--out", o->out, "Camera file to write (JSON, spec §7)")->required();
  sub->add_option("--max-views", o->max_views, "Use at most this many views (the most varied)")
      ->capture_default_str()
      ->check(CLI::Range(3, 1000));
  sub->add_option("--video-frames", o->video_frames, "Examine at most this many frames of each video (evenly spaced)")
      ->capture_default_str()
      ->check(CLI::Range(3, 100000));
  sub->add_option("--lens-model", o->lens_model,
                  "Distortion model: auto (the one that best predicts held-out views), or 4, 5, 8, 12 or 14 "
                  "coefficients (OpenCV's k1 k2 p1 p2, + k3, rational, thin prism, tilted sensor)")
      ->capture_default_str()
      ->check(CLI::IsMember({"auto", "4", "5", "8", "12", "14"}));
  sub->add_option("--uncertainty-map", o->uncertainty_map,
                  "Also write the projection uncertainty over the image (PNG)");
  sub->add_flag("--cross-validate", o->cross_validate,
                "Also calibrate two halves of the views apart and compare them against their predicted uncertainty");
  sub->add_option("inputs", o->inputs, "Images and/or videos of the board")->required();
  return [o] { return run_calibrate(*o); };
}

}  // namespace diskref::cli
