#include "print/board_pattern.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace diskref::print {

std::string board_spec_problem(const BoardSpec& board) {
  if (!(std::isfinite(board.square_mm) && board.square_mm > 0)) return "square size must be > 0 mm";
  if (board.type == BoardSpec::Type::chessboard) {
    if (board.cols < 2 || board.rows < 2) return "a chessboard needs at least 2x2 inner corners";
    return "";
  }
  if (board.cols < 2 || board.rows < 2) return "a ChArUco board needs at least 2x2 squares";
  if (!(std::isfinite(board.marker_mm) && board.marker_mm > 0 && board.marker_mm < board.square_mm))
    return "a ChArUco marker must be > 0 and smaller than the square";
  if (board.aruco_dictionary < 0 || board.aruco_dictionary > cv::aruco::DICT_ARUCO_ORIGINAL)
    return "unknown ArUco dictionary " + std::to_string(board.aruco_dictionary);
  return "";
}

BoardPattern::BoardPattern(const BoardSpec& board) : spec_(board) {
  if (auto problem = board_spec_problem(board); !problem.empty()) throw std::invalid_argument(problem);
  double sq = board.square_mm;
  if (board.type == BoardSpec::Type::chessboard) {
    // (cols + 1) x (rows + 1) squares around the inner corners, then one square of white margin
    // (findChessboardCorners needs a quiet border).
    card_ = cv::Rect2d(-2 * sq, -2 * sq, (board.cols + 3) * sq, (board.rows + 3) * sq);
    return;
  }
  auto dictionary = cv::aruco::getPredefinedDictionary(board.aruco_dictionary);
  charuco_ = cv::aruco::CharucoBoard::create(board.cols, board.rows, static_cast<float>(sq),
                                             static_cast<float>(board.marker_mm), dictionary);
  if (static_cast<int>(charuco_->ids.size()) > dictionary->bytesList.rows)
    throw std::invalid_argument("the ArUco dictionary has too few markers for this ChArUco board");
  marker_cells_ = dictionary->markerSize + 2;
  marker_of_square_.assign(static_cast<std::size_t>(board.cols * board.rows), -1);
  for (std::size_t i = 0; i < charuco_->ids.size(); ++i) {
    const cv::Point3f& top_left = charuco_->objPoints[i][0];
    int sx = static_cast<int>(std::floor(static_cast<double>(top_left.x) / sq));
    int sy = static_cast<int>(std::floor(static_cast<double>(top_left.y) / sq));
    marker_of_square_[static_cast<std::size_t>(sy * board.cols + sx)] = static_cast<int>(i);
    cv::Mat bits;
    dictionary->drawMarker(charuco_->ids[i], marker_cells_, bits, 1);
    marker_bits_.push_back(bits);
  }
  // Half a square of white margin: the outer black squares and markers need a quiet border.
  card_ = cv::Rect2d(-sq / 2, -sq / 2, (board.cols + 1) * sq, (board.rows + 1) * sq);
}

cv::Point2d BoardPattern::center_mm() const {
  double sq = spec_.square_mm;
  if (spec_.type == BoardSpec::Type::chessboard) return {(spec_.cols - 1) * sq / 2, (spec_.rows - 1) * sq / 2};
  return {spec_.cols * sq / 2, spec_.rows * sq / 2};
}

float BoardPattern::reflectance(double x, double y) const {
  if (!(x >= card_.x && y >= card_.y && x < card_.x + card_.width && y < card_.y + card_.height)) return -1.0f;
  double sq = spec_.square_mm;
  if (spec_.type == BoardSpec::Type::chessboard) {
    // Squares (a, b), a in 0..cols, cover x in [(a - 1) sq, a sq); square (0, 0) is black.
    int a = static_cast<int>(std::floor(x / sq)) + 1;
    int b = static_cast<int>(std::floor(y / sq)) + 1;
    if (a < 0 || b < 0 || a > spec_.cols || b > spec_.rows) return kPaperWhite;
    return (a + b) % 2 == 0 ? kInkBlack : kPaperWhite;
  }
  int a = static_cast<int>(std::floor(x / sq));
  int b = static_cast<int>(std::floor(y / sq));
  if (a < 0 || b < 0 || a >= spec_.cols || b >= spec_.rows) return kPaperWhite;
  int marker = marker_of_square_[static_cast<std::size_t>(b * spec_.cols + a)];
  if (marker < 0) return kInkBlack;  // squares without a marker are the black ones
  // Markers are centred in their squares (OpenCV computes the same in float).
  double inset = (sq - spec_.marker_mm) / 2;
  double cell = spec_.marker_mm / marker_cells_;
  double mx = (x - (a * sq + inset)) / cell;
  double my = (y - (b * sq + inset)) / cell;
  if (mx < 0 || my < 0 || mx >= marker_cells_ || my >= marker_cells_) return kPaperWhite;
  const cv::Mat& bits = marker_bits_[static_cast<std::size_t>(marker)];
  return bits.at<uint8_t>(static_cast<int>(my), static_cast<int>(mx)) ? kPaperWhite : kInkBlack;
}

std::vector<cv::Point3d> BoardPattern::corner_points() const {
  std::vector<cv::Point3d> out;
  if (spec_.type == BoardSpec::Type::chessboard) {
    for (int i = 0; i < spec_.rows; ++i)
      for (int j = 0; j < spec_.cols; ++j) out.emplace_back(j * spec_.square_mm, i * spec_.square_mm, 0.0);
    return out;
  }
  // In double precision, in OpenCV's id order (row by row, x fastest; checked by a test against
  // board->chessboardCorners).
  for (int i = 1; i < spec_.rows; ++i)
    for (int j = 1; j < spec_.cols; ++j) out.emplace_back(j * spec_.square_mm, i * spec_.square_mm, 0.0);
  return out;
}

}  // namespace diskref::print
