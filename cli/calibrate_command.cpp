// `diskref calibrate` (spec §7): calibrate a camera's lens from images or videos of a chessboard or
// ChArUco board. Prints the views used and dropped, each view's error, the intrinsics with their
// standard deviations, and `rms_px=...` as the last line of stdout; writes the camera file.

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "calibration/lens_calibration.h"
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
};

// A board has 2 to 100 corners (or squares) a side: a bigger one cannot be printed legibly, and
// 100000x100000 would ask for terabytes of corners.
constexpr int kMaxBoardSide = 100;

std::optional<cv::Size> parse_grid(const std::string& text) {
  int cols = 0, rows = 0;
  char x = 0, extra = 0;
  if (std::sscanf(text.c_str(), "%d%c%d%c", &cols, &x, &rows, &extra) != 3 || (x != 'x' && x != 'X')) return std::nullopt;
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
    throw io::InputError(input, "", "is " + std::to_string(size.width) + "x" + std::to_string(size.height) +
                                    " but the first input is " + std::to_string(c.image_size.width) + "x" +
                                    std::to_string(c.image_size.height) +
                                    " (calibrate one camera resolution at a time)");
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
                        (source->corrupt_frames_skipped() ? ", " + std::to_string(source->corrupt_frames_skipped()) +
                                                                " corrupt frames skipped"
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
  if (images) c.summaries.insert(c.summaries.begin(), std::to_string(images) + " image(s), board found in " +
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

void print_calibration(const calib::LensCalibration& cal) {
  std::printf("views used: %zu (boards cover %.0f %% of the image; corners reach %.0f %% of a 4x4 grid)\n",
              cal.views.size(), 100 * cal.area_coverage, 100 * cal.cell_coverage);
  std::printf("view errors (RMS px):\n");
  for (const auto& v : cal.views) std::printf("  %-40s %6.3f  (%d corners)\n", v.name.c_str(), v.rms_px, v.corners);
  print_dropped(cal.outliers);
  const calib::CameraModel& k = cal.camera;
  double values[9] = {k.fx(), k.fy(), k.cx(), k.cy(), k.dist_coeffs[0], k.dist_coeffs[1],
                      k.dist_coeffs[2], k.dist_coeffs[3], k.dist_coeffs[4]};
  std::printf("intrinsics (value +- 1 standard deviation):\n");
  for (std::size_t i = 0; i < 9; ++i) {
    int decimals = i < 4 ? 2 : 5;
    fmt::print("  {} = {:.{}f} +- {:.{}f}{}\n", calib::kIntrinsicNames[i], values[i], decimals, cal.intrinsic_std[i],
               decimals, i < 4 ? " px" : "");
  }
}

int run_calibrate(const CalibrateOptions& o) {
  // The output first: minutes of calibration must not end in "cannot write over a device".
  io::check_output_path(o.out);
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
  calib::ViewSelection selection = calib::select_views(std::move(c.candidates), c.image_size, selection_options);
  print_dropped(selection.dropped);

  calib::LensCalibration cal;
  try {
    cal = calib::calibrate_lens(selection.kept, c.image_size);
  } catch (const calib::CalibrationRefused& e) {
    std::fprintf(stderr, "diskref calibrate: cannot calibrate: %s\n", e.what());
    return kExitFailure;
  }
  print_calibration(cal);
  calib::save_camera_model(cal.camera, o.out);
  std::printf("wrote %s (%dx%d)\n", o.out.c_str(), c.image_size.width, c.image_size.height);
  std::printf("rms_px=%.3f\n", cal.rms_px);
  return kExitOk;
}

}  // namespace

RunFunction setup_calibrate(CLI::App& app) {
  auto o = std::make_shared<CalibrateOptions>();
  CLI::App* sub = app.add_subcommand(
      "calibrate",
      "Calibrate the camera's lens from images or videos of a chessboard or ChArUco board (writes a camera file)");
  sub->footer("Examples:\n  diskref calibrate --charuco 7x5 --square-mm 30 --marker-mm 22 --out camera.json board.mp4\n  diskref calibrate --chessboard 9x6 --square-mm 25 --out camera.json photos/*.jpg\n(a first table: diskref ui --setup DIR calibrates with live feedback)");
  auto grid = CLI::Validator(
      [](std::string& text) {
        return parse_grid(text) ? std::string()
                                : "expected COLSxROWS such as 9x6, each 2.." + std::to_string(kMaxBoardSide) + ", got " + text;
      },
      "COLSxROWS");
  auto* chess = sub->add_option("--chessboard", o->chessboard, "Chessboard: inner corners, e.g. 9x6")->check(grid);
  auto* charuco = sub->add_option("--charuco", o->charuco, "ChArUco board: squares (not corners), e.g. 11x8")->check(grid);
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
  sub->add_option("inputs", o->inputs, "Images and/or videos of the board")->required();
  return [o] { return run_calibrate(*o); };
}

}  // namespace diskref::cli
