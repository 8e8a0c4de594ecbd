#include "calibration/calibration_board.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <set>
#include <stdexcept>
#include <string_view>

#include <fmt/format.h>
#include <opencv2/aruco/charuco.hpp>
#include <opencv2/calib3d.hpp>
#include <opencv2/imgproc.hpp>

#include "calibration/charuco_corners.h"

namespace diskref::calib {
namespace {

struct DictionaryName {
  std::string_view name;
  cv::aruco::PREDEFINED_DICTIONARY_NAME id;
};

// The one table of dictionary names (used to parse and to list them).
constexpr std::array<DictionaryName, 21> kDictionaries{{
    {"DICT_4X4_50", cv::aruco::DICT_4X4_50},
    {"DICT_4X4_100", cv::aruco::DICT_4X4_100},
    {"DICT_4X4_250", cv::aruco::DICT_4X4_250},
    {"DICT_4X4_1000", cv::aruco::DICT_4X4_1000},
    {"DICT_5X5_50", cv::aruco::DICT_5X5_50},
    {"DICT_5X5_100", cv::aruco::DICT_5X5_100},
    {"DICT_5X5_250", cv::aruco::DICT_5X5_250},
    {"DICT_5X5_1000", cv::aruco::DICT_5X5_1000},
    {"DICT_6X6_50", cv::aruco::DICT_6X6_50},
    {"DICT_6X6_100", cv::aruco::DICT_6X6_100},
    {"DICT_6X6_250", cv::aruco::DICT_6X6_250},
    {"DICT_6X6_1000", cv::aruco::DICT_6X6_1000},
    {"DICT_7X7_50", cv::aruco::DICT_7X7_50},
    {"DICT_7X7_100", cv::aruco::DICT_7X7_100},
    {"DICT_7X7_250", cv::aruco::DICT_7X7_250},
    {"DICT_7X7_1000", cv::aruco::DICT_7X7_1000},
    {"DICT_ARUCO_ORIGINAL", cv::aruco::DICT_ARUCO_ORIGINAL},
    {"DICT_APRILTAG_16h5", cv::aruco::DICT_APRILTAG_16h5},
    {"DICT_APRILTAG_25h9", cv::aruco::DICT_APRILTAG_25h9},
    {"DICT_APRILTAG_36h10", cv::aruco::DICT_APRILTAG_36h10},
    {"DICT_APRILTAG_36h11", cv::aruco::DICT_APRILTAG_36h11},
}};

cv::Ptr<cv::aruco::Dictionary> dictionary_named(const std::string& name) {
  for (const auto& d : kDictionaries)
    if (d.name == name) return cv::aruco::getPredefinedDictionary(d.id);
  throw std::invalid_argument("unknown ArUco dictionary \"" + name + "\" (e.g. DICT_5X5_100; see --help)");
}

cv::Ptr<cv::aruco::CharucoBoard> make_charuco_board(const CharucoSpec& spec) {
  return cv::aruco::CharucoBoard::create(spec.squares.width, spec.squares.height, static_cast<float>(spec.square_mm),
                                         static_cast<float>(spec.marker_mm), dictionary_named(spec.dictionary));
}

// Smallest distance between neighbouring corners in the grid, pixels: the scale of the view.
double min_corner_spacing(const std::vector<cv::Point2f>& points, cv::Size grid) {
  double best = 1e30;
  for (int r = 0; r < grid.height; ++r)
    for (int c = 0; c < grid.width; ++c) {
      const cv::Point2f& p = points[static_cast<std::size_t>(r * grid.width + c)];
      if (c + 1 < grid.width)
        best = std::min(best, cv::norm(p - points[static_cast<std::size_t>(r * grid.width + c + 1)]));
      if (r + 1 < grid.height)
        best = std::min(best, cv::norm(p - points[static_cast<std::size_t>((r + 1) * grid.width + c)]));
    }
  return best;
}

// The board is looked for at most this large (longer side, pixels): on a cluttered 1080p frame
// without a board, findChessboardCorners takes 4-13 s at full size (its fast check passes on the
// clutter) and 10-20 ms at 1280 px; the corners are then refined at full size.
constexpr int kDetectionSidePx = 1280;

std::optional<std::vector<cv::Point2f>> find_chessboard(const cv::Mat& gray, cv::Size grid, DetectionEffort effort) {
  double scale = std::min(1.0, static_cast<double>(kDetectionSidePx) / std::max(gray.cols, gray.rows));
  cv::Mat small = gray;
  if (scale < 1.0) cv::resize(gray, small, cv::Size(), scale, scale, cv::INTER_AREA);
  std::vector<cv::Point2f> corners;
  // The classic detector, then (thorough) the sector-based one, which finds boards the classic one
  // misses (strong perspective, uneven light) but is slow.
  bool found = cv::findChessboardCorners(
      small, grid, corners, cv::CALIB_CB_ADAPTIVE_THRESH | cv::CALIB_CB_NORMALIZE_IMAGE | cv::CALIB_CB_FAST_CHECK);
  if (!found && effort == DetectionEffort::thorough)
    found = cv::findChessboardCornersSB(small, grid, corners, cv::CALIB_CB_NORMALIZE_IMAGE | cv::CALIB_CB_EXHAUSTIVE);
  if (!found) return std::nullopt;
  // Back to full size (pixel centres at integers: u -> (u + 0.5) / scale - 0.5), then refined
  // there with a window that stays inside the corner's own four squares.
  for (auto& p : corners) p = (p + cv::Point2f(0.5f, 0.5f)) / static_cast<float>(scale) - cv::Point2f(0.5f, 0.5f);
  double spacing = min_corner_spacing(corners, grid);
  int half = std::clamp(static_cast<int>(std::floor(spacing * 0.4)), 2, 11);
  cv::cornerSubPix(gray, corners, cv::Size(half, half), cv::Size(-1, -1),
                   cv::TermCriteria(cv::TermCriteria::EPS + cv::TermCriteria::COUNT, 50, 0.001));
  return corners;
}

bool spans_two_lines(const std::vector<int>& ids, int columns) {
  std::set<int> rows, cols;
  for (int id : ids) {
    rows.insert(id / columns);
    cols.insert(id % columns);
  }
  return rows.size() >= 2 && cols.size() >= 2;
}

}  // namespace

std::vector<std::string> charuco_dictionary_names() {
  std::vector<std::string> out;
  for (const auto& d : kDictionaries) out.emplace_back(d.name);
  return out;
}

void validate_board(const BoardSpec& board) {
  if (const auto* chess = std::get_if<ChessboardSpec>(&board)) {
    if (chess->inner_corners.width < 2 || chess->inner_corners.height < 2)
      throw std::invalid_argument("a chessboard needs at least 2x2 inner corners");
    if (!(chess->square_mm > 0)) throw std::invalid_argument("the square size must be > 0 mm");
    return;
  }
  const auto& charuco = std::get<CharucoSpec>(board);
  if (charuco.squares.width < 3 || charuco.squares.height < 3)
    throw std::invalid_argument("a ChArUco board needs at least 3x3 squares");
  if (!(charuco.square_mm > 0)) throw std::invalid_argument("the square size must be > 0 mm");
  if (!(charuco.marker_mm > 0 && charuco.marker_mm < charuco.square_mm))
    throw std::invalid_argument("the marker size must be > 0 and smaller than the square size");
  auto dictionary = dictionary_named(charuco.dictionary);
  int markers = charuco.squares.width * charuco.squares.height / 2;
  if (dictionary->bytesList.rows < markers)
    throw std::invalid_argument("dictionary " + charuco.dictionary + " has " +
                                std::to_string(dictionary->bytesList.rows) + " markers; a " +
                                std::to_string(charuco.squares.width) + "x" + std::to_string(charuco.squares.height) +
                                " board needs " + std::to_string(markers));
}

cv::Size corner_grid(const BoardSpec& board) {
  if (const auto* chess = std::get_if<ChessboardSpec>(&board)) return chess->inner_corners;
  const auto& charuco = std::get<CharucoSpec>(board);
  return {charuco.squares.width - 1, charuco.squares.height - 1};
}

double square_mm(const BoardSpec& board) {
  return std::visit([](const auto& b) { return b.square_mm; }, board);
}

std::vector<cv::Point3f> board_corners_mm(const BoardSpec& board) {
  if (const auto* charuco = std::get_if<CharucoSpec>(&board)) return make_charuco_board(*charuco)->chessboardCorners;
  // OpenCV orders a chessboard's inner corners row by row.
  cv::Size grid = corner_grid(board);
  double s = square_mm(board);
  std::vector<cv::Point3f> out;
  out.reserve(static_cast<std::size_t>(grid.area()));
  for (int r = 0; r < grid.height; ++r)
    for (int c = 0; c < grid.width; ++c) out.emplace_back(static_cast<float>(c * s), static_cast<float>(r * s), 0.0f);
  return out;
}

std::string describe_board(const BoardSpec& board) {
  if (const auto* chess = std::get_if<ChessboardSpec>(&board)) {
    return fmt::format("chessboard {}x{} inner corners, {:g} mm squares", chess->inner_corners.width,
                       chess->inner_corners.height, chess->square_mm);
  }
  const auto& c = std::get<CharucoSpec>(board);
  return fmt::format("ChArUco {}x{} squares, {:g} mm squares, {:g} mm markers, {}", c.squares.width, c.squares.height,
                     c.square_mm, c.marker_mm, c.dictionary);
}

std::optional<BoardView> detect_board(const cv::Mat& gray, const BoardSpec& board, const std::string& name,
                                      DetectionEffort effort) {
  CV_Assert(gray.type() == CV_8UC1);
  cv::Size grid = corner_grid(board);
  std::vector<cv::Point3f> all_corners = board_corners_mm(board);
  BoardView view;
  view.name = name;
  view.image_size = gray.size();

  if (std::holds_alternative<ChessboardSpec>(board)) {
    auto corners = find_chessboard(gray, grid, effort);
    if (!corners) return std::nullopt;
    view.image_points = std::move(*corners);
    for (int id = 0; id < grid.area(); ++id) view.corner_ids.push_back(id);
  } else {
    auto charuco = make_charuco_board(std::get<CharucoSpec>(board));
    auto params = cv::aruco::DetectorParameters::create();
    // Sub-pixel refinement of the markers is not needed: the chessboard corners between them are
    // refined by interpolateCornersCharuco (and CORNER_REFINE_SUBPIX hurts small markers).
    params->cornerRefinementMethod = cv::aruco::CORNER_REFINE_NONE;
    std::vector<std::vector<cv::Point2f>> marker_corners, rejected;
    std::vector<int> marker_ids;
    cv::aruco::detectMarkers(gray, charuco->dictionary, marker_corners, marker_ids, params, rejected);
    if (marker_ids.empty()) return std::nullopt;
    cv::Ptr<cv::aruco::Board> as_board = charuco.staticCast<cv::aruco::Board>();
    cv::aruco::refineDetectedMarkers(gray, as_board, marker_corners, marker_ids, rejected);
    std::vector<cv::Point2f> corners;
    std::vector<int> ids;
    cv::aruco::interpolateCornersCharuco(marker_corners, marker_ids, gray, charuco, corners, ids);
    if (ids.size() < 6 || !spans_two_lines(ids, grid.width)) return std::nullopt;
    place_charuco_corners(gray, *charuco, std::get<CharucoSpec>(board).marker_mm, marker_corners, marker_ids, ids,
                          corners);
    view.image_points = std::move(corners);
    view.corner_ids = std::move(ids);
  }
  for (int id : view.corner_ids) view.object_points.push_back(all_corners[static_cast<std::size_t>(id)]);
  return view;
}

}  // namespace diskref::calib
