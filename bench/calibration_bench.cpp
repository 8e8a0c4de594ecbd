// The lens calibration judged by what it predicts (issue 37, docs/design/calibration.md): writes
// every figure to docs/figures/calibration.md (date, commit, machine), from
//   1. OpenCV's sample photographs (tests/data/real-chessboard-photos, left*.jpg);
//   2. ../shared/testdata/real-calibration (one LifeCam, chessboard and ChArUco at 1280x720 and
//      640x480; GPL-3.0: measured here, never committed; skipped when ../shared is absent):
//      chessboard against ChArUco of the same mode, and split halves of each, over the central
//      80 % of the image against the predicted uncertainty, and the views kept;
//   3. renders through a known lens (simulator): the lens found against the truth over the whole
//      image and the central 80 %, and the share of a grid within 2 predicted sigma.
// The RMS is printed for reference; it is not a figure of merit.
//
// Usage: calibration_bench [--out FILE] [--shared DIR] [--render-seeds N]

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>
#include <sys/utsname.h>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "calibration/cross_validation.h"
#include "calibration/lens_calibration.h"
#include "calibration/view_selection.h"
#include "simulator/board_views.h"

namespace {

namespace fs = std::filesystem;
using namespace diskref;

std::string command_output(const std::string& command) {
  std::string out;
  if (FILE* pipe = popen(command.c_str(), "r")) {
    std::array<char, 256> buffer{};
    while (fgets(buffer.data(), static_cast<int>(buffer.size()), pipe)) out += buffer.data();
    pclose(pipe);
  }
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  return out;
}

std::string header() {
  const std::time_t now = std::time(nullptr);
  char date[64];
  std::strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", std::gmtime(&now));
  utsname u{};
  uname(&u);
  const std::string cpu = command_output("grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'");
  const std::string commit =
      command_output("git -C " DISKREF_SOURCE_DIR " rev-parse --short HEAD") +
      (command_output("git -C " DISKREF_SOURCE_DIR " status --porcelain --untracked-files=no").empty()
           ? ""
           : " (with uncommitted changes)");
  return fmt::format("Written by `build/bench/calibration_bench` on {}, commit {}, {} {} ({}, {} threads).\n\n", date,
                     commit, u.sysname, u.machine, cpu, std::thread::hardware_concurrency());
}

struct ViewSet {
  std::string name;
  calib::BoardSpec board;
  std::vector<calib::BoardView> kept;  // after select_views
  int images = 0, found = 0, dropped_by_selection = 0;
  cv::Size image_size;
};

ViewSet load_set(const std::string& name, const fs::path& dir, const calib::BoardSpec& board) {
  ViewSet set{name, board, {}, 0, 0, 0, {}};
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string ext = e.path().extension().string();
    if (ext == ".jpg" || ext == ".png") files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  // The set's camera mode is its most common image size (left.jpg of OpenCV's samples is another).
  std::vector<std::pair<fs::path, cv::Mat>> images;
  std::map<std::pair<int, int>, int> sizes;
  for (const auto& f : files) {
    cv::Mat gray = cv::imread(f.string(), cv::IMREAD_GRAYSCALE);
    if (gray.empty()) continue;
    ++sizes[{gray.cols, gray.rows}];
    images.emplace_back(f, std::move(gray));
  }
  if (sizes.empty()) return set;
  const auto mode =
      std::max_element(sizes.begin(), sizes.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
  set.image_size = cv::Size(mode->first.first, mode->first.second);
  std::vector<calib::ViewCandidate> candidates;
  for (const auto& [f, gray] : images) {
    if (gray.size() != set.image_size) continue;
    ++set.images;
    if (auto c = calib::examine_view(gray, cv::Mat(), board, f.filename().string()))
      candidates.push_back(std::move(*c));
  }
  set.found = static_cast<int>(candidates.size());
  calib::ViewSelection selection = calib::select_views(std::move(candidates), set.image_size);
  set.dropped_by_selection = static_cast<int>(selection.dropped.size());
  set.kept = std::move(selection.kept);
  return set;
}

std::string models_text(const calib::LensCalibration& cal) {
  std::string out;
  for (const auto& m : cal.models)
    out += fmt::format("{}{} {:.4f}", out.empty() ? "" : "; ", calib::lens_model_name(m.model), m.held_out_rms_px);
  return out;
}

std::string comparison_row(const std::string& what, const calib::CalibrationComparison& c) {
  return fmt::format("| {} | {:.3f} | {:.3f} | {:.3f} | {:.3f} | {:.3f} | {:.0f} % |\n", what, c.difference.median,
                     c.difference.p90, c.difference.max, c.predicted.median, c.predicted.p90, 100 * c.within_2_sigma);
}

const char* kComparisonHeader =
    "| compared | apart median px | apart p90 px | apart max px | predicted sigma median px | predicted sigma p90 px | "
    "within 2 sigma |\n|---|---|---|---|---|---|---|\n";

struct SetResult {
  ViewSet set;
  std::optional<calib::LensCalibration> cal;
  std::optional<calib::SplitCrossValidation> halves;
  std::string problem;
};

SetResult measure_set(ViewSet set) {
  SetResult r{std::move(set), std::nullopt, std::nullopt, ""};
  std::fprintf(stderr, "%s: %zu views...\n", r.set.name.c_str(), r.set.kept.size());
  try {
    r.cal = calib::calibrate_lens(r.set.kept, r.set.image_size);
    calib::LensCalibrationOptions halves;
    halves.model = r.cal->model;
    r.halves = calib::cross_validate_halves(r.set.kept, r.set.image_size, halves);
  } catch (const calib::CalibrationRefused& e) {
    r.problem = e.what();
  }
  return r;
}

void write_sets(std::ostream& md, const std::vector<SetResult>& results) {
  md << "| set | images | board found | dropped before the fit | outliers dropped | views kept | lens model (held-out "
        "RMS px by "
        "model) | sigma central 80 % median / p90 / max px | sigma whole image max px | fit RMS px |\n"
        "|---|---|---|---|---|---|---|---|---|---|\n";
  for (const auto& r : results) {
    if (!r.cal) {
      md << fmt::format("| {} | {} | {} | {} | — | — | refused: {} | | | |\n", r.set.name, r.set.images, r.set.found,
                        r.set.dropped_by_selection, r.problem);
      continue;
    }
    const auto& c = *r.cal;
    md << fmt::format("| {} | {} | {} | {} | {} | {} | **{}** ({}) | {:.3f} / {:.3f} / {:.3f} | {:.2f} | {:.3f} |\n",
                      r.set.name, r.set.images, r.set.found, r.set.dropped_by_selection, c.outliers.size(),
                      c.views.size(), calib::lens_model_name(c.model), models_text(c), c.uncertainty_central.median,
                      c.uncertainty_central.p90, c.uncertainty_central.max, c.uncertainty_whole.max, c.rms_px);
  }
  md << "\nSplit halves (even and odd views, each calibrated alone with the set's model), over the central 80 % "
        "of the image:\n\n"
     << kComparisonHeader;
  for (const auto& r : results)
    if (r.halves) md << comparison_row(r.set.name + ": halves", r.halves->comparison);
}

// Renders through a known lens: the found lens against the truth.
void write_renders(std::ostream& md, int seeds) {
  calib::CameraModel truth;
  truth.image_size = {1280, 720};
  truth.camera_matrix = cv::Matx33d(1010.0, 0, 652.3, 0, 1006.0, 355.8, 0, 0, 1);
  truth.dist_coeffs = {-0.21, 0.08, 0.0007, -0.0004, -0.015};
  print::BoardSpec spec;  // chessboard 9x6 inner corners, 25 mm
  spec.cols = 9;
  spec.rows = 6;
  spec.square_mm = 30;
  const calib::BoardSpec board = calib::ChessboardSpec{{9, 6}, 30.0};
  simulator::ImageEffects effects;
  effects.noise_sigma = 2.0;
  effects.blur_sigma_px = 0.6;
  effects.vignetting = 0.25;
  effects.light_gradient = 0.3;
  effects.supersample = 4;
  md << "| seed | views | lens model | error vs truth, whole image median / max px | central 80 % median / max px | "
        "predicted sigma whole image median / max px | within 2 sigma, whole image | within 2 sigma, central 80 % |\n"
        "|---|---|---|---|---|---|---|---|\n";
  const auto whole = calib::grid_nodes(truth.image_size, 32, 18);
  const auto central = calib::central_grid(truth.image_size, 32, 18, 0.8);
  double sum_whole = 0, sum_central = 0;
  int done = 0;
  for (int seed = 1; seed <= seeds; ++seed) {
    std::fprintf(stderr, "render seed %d...\n", seed);
    const auto poses = simulator::calibration_poses(truth, spec, 20, static_cast<uint64_t>(seed));
    std::vector<calib::ViewCandidate> candidates;
    for (std::size_t i = 0; i < poses.size(); ++i) {
      cv::Mat gray;
      cv::cvtColor(simulator::render_board_view(truth, poses[i].first, poses[i].second, spec, effects,
                                                static_cast<uint64_t>(seed * 100) + i),
                   gray, cv::COLOR_BGR2GRAY);
      if (auto c = calib::examine_view(gray, cv::Mat(), board, "view " + std::to_string(i)))
        candidates.push_back(std::move(*c));
    }
    const auto kept = calib::select_views(std::move(candidates), truth.image_size).kept;
    calib::LensCalibration cal;
    try {
      cal = calib::calibrate_lens(kept, truth.image_size);
    } catch (const calib::CalibrationRefused& e) {
      md << fmt::format("| {} | {} | refused: {} | | | | | |\n", seed, kept.size(), e.what());
      continue;
    }
    auto share = [&](const std::vector<cv::Point2d>& grid, calib::Spread& error, calib::Spread& sigma) {
      const auto e = calib::lens_difference_px(cal.camera, truth, grid);
      const auto s = calib::projection_sigma_px(cal.camera, cal.covariance, grid);
      int within = 0;
      for (std::size_t i = 0; i < grid.size(); ++i) within += e[i] <= 2 * s[i];
      error = calib::spread_of(e);
      sigma = calib::spread_of(s);
      return static_cast<double>(within) / static_cast<double>(grid.size());
    };
    calib::Spread ew, sw, ec, sc;
    const double in_whole = share(whole, ew, sw), in_central = share(central, ec, sc);
    sum_whole += in_whole;
    sum_central += in_central;
    ++done;
    md << fmt::format("| {} | {} | {} | {:.3f} / {:.3f} | {:.3f} / {:.3f} | {:.3f} / {:.3f} | {:.0f} % | {:.0f} % |\n",
                      seed, cal.views.size(), calib::lens_model_name(cal.model), ew.median, ew.max, ec.median, ec.max,
                      sw.median, sw.max, 100 * in_whole, 100 * in_central);
  }
  if (done)
    md << fmt::format(
        "\nMean share within 2 predicted sigma over {} renders: whole image {:.0f} %, central 80 % {:.0f} % "
        "(goal 90–99 %).\n",
        done, 100 * sum_whole / done, 100 * sum_central / done);
}

}  // namespace

int main(int argc, char** argv) {
  fs::path out = fs::path(DISKREF_SOURCE_DIR) / "docs" / "figures" / "calibration.md";
  fs::path shared = fs::path(DISKREF_SOURCE_DIR) / ".." / "shared" / "testdata" / "real-calibration";
  int render_seeds = 4;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--out")
      out = argv[i + 1];
    else if (flag == "--shared")
      shared = argv[i + 1];
    else if (flag == "--render-seeds")
      render_seeds = std::stoi(argv[i + 1]);
    else {
      std::fprintf(stderr, "usage: calibration_bench [--out FILE] [--shared DIR] [--render-seeds N]\n");
      return 2;
    }
  }
  std::ostringstream md;
  md << "# Lens calibration figures\n\n" << header();
  md << "A calibration is judged by what it predicts (docs/design/calibration.md): views held out of the fit, "
        "two calibrations of one camera compared against their predicted projection uncertainty, and renders "
        "against the true lens. `sigma` is the projection uncertainty (1 sigma, px, worst direction); `apart` is "
        "how far two lenses map the same pixel after aligning their camera frames. The fit RMS is given for "
        "reference only.\n\n";

  md << "## OpenCV's sample photographs (tests/data/real-chessboard-photos, 640x480)\n\n";
  std::vector<SetResult> samples;
  samples.push_back(
      measure_set(load_set("left*.jpg, chessboard 9x6", fs::path(DISKREF_TEST_DATA_DIR) / "real-chessboard-photos",
                           calib::ChessboardSpec{{9, 6}, 25.0})));
  write_sets(md, samples);

  md << "\n## One LifeCam HD-3000, chessboard and ChArUco (../shared/testdata/real-calibration)\n\n";
  if (!fs::exists(shared)) {
    md << "Skipped: " << shared.string()
       << " is absent (GPL-3.0 photographs, measured from ../shared, never committed).\n";
  } else {
    md << "GPL-3.0 photographs from the PhotonVision project, read from ../shared when measuring and never committed. "
          "No published lens: the chessboard and the ChArUco calibrations of each mode, and the halves of each set, "
          "should agree within their predicted uncertainty.\n\n";
    const calib::BoardSpec chess = calib::ChessboardSpec{{10, 10}, 25.4};
    const calib::BoardSpec charuco = calib::CharucoSpec{{8, 8}, 25.4, 19.05, "DICT_4X4_1000"};
    std::vector<SetResult> sets;
    for (const char* mode : {"1280x720", "640x480"}) {
      sets.push_back(measure_set(
          load_set(std::string("chessboard ") + mode, shared / (std::string("chessboard_") + mode), chess)));
      sets.push_back(
          measure_set(load_set(std::string("ChArUco ") + mode, shared / (std::string("charuco_") + mode), charuco)));
    }
    write_sets(md, sets);
    md << "\nChessboard against ChArUco of the same mode (each with its own model), over the central 80 %:\n\n"
       << kComparisonHeader;
    for (std::size_t i = 0; i + 1 < sets.size(); i += 2)
      if (sets[i].cal && sets[i + 1].cal)
        md << comparison_row(sets[i].set.name + " vs " + sets[i + 1].set.name,
                             calib::compare_calibrations(*sets[i].cal, *sets[i + 1].cal));
  }

  md << "\n## Renders through a known lens (simulator, 1280x720, chessboard 9x6, 20 poses each)\n\n";
  write_renders(md, render_seeds);

  fs::create_directories(out.parent_path());
  std::ofstream(out) << md.str();
  std::printf("%s", md.str().c_str());
  std::fprintf(stderr, "wrote %s\n", out.string().c_str());
  return 0;
}
