#pragma once
// Calibration boards (chessboard and ChArUco) as printed cards: what the card looks like at every
// point of its plane, and where the corners a detector reports lie.
//
// Board frame (mm): OpenCV's object-point frame for that board, so a pose estimated by OpenCV
// from these object points is the pose used to render. x along the board's columns, y along its
// rows (down the printed page), z = x cross y, pointing into the board (away from a camera that
// sees the printed side). Origin:
//   chessboard: the first inner corner (object point (0, 0, 0)); inner corner (row i, column j)
//     is (j * square, i * square, 0), the order findChessboardCorners uses for an upright board.
//   ChArUco: the outer corner of the top-left (black) square, as cv::aruco::CharucoBoard::create
//     (OpenCV 4.6): chessboard corner id k is board->chessboardCorners[k].

#include <string>
#include <vector>

#include <opencv2/aruco.hpp>
#include <opencv2/aruco/charuco.hpp>
#include <opencv2/core.hpp>

namespace diskref::print {

struct BoardSpec {
  enum class Type { chessboard, charuco };
  Type type = Type::chessboard;
  int cols = 9;  // chessboard: inner corners along x (e.g. 9 of a 9x6 board); ChArUco: squares along x
  int rows = 6;  // chessboard: inner corners along y; ChArUco: squares along y
  double square_mm = 25;
  double marker_mm = 0;                            // ChArUco only: side of each ArUco marker, < square_mm
  int aruco_dictionary = cv::aruco::DICT_5X5_100;  // ChArUco only (cv::aruco::PREDEFINED_DICTIONARY_NAME)
};

// Why a board spec is unusable, or empty.
std::string board_spec_problem(const BoardSpec& board);

// Reflectance of printed black and white paper (linear, 0..1).
inline constexpr float kPaperWhite = 0.86f;
inline constexpr float kInkBlack = 0.05f;

class BoardPattern {
 public:
  // Throws std::invalid_argument when board_spec_problem() is not empty.
  explicit BoardPattern(const BoardSpec& board);

  const BoardSpec& spec() const { return spec_; }
  // Reflectance of the card at a board-frame point (z = 0), or a negative value outside the card.
  float reflectance(double x_mm, double y_mm) const;
  // The card's outline (pattern plus white margin) in the board frame.
  cv::Rect2d card_mm() const { return card_; }
  // Middle of the pattern, board frame.
  cv::Point2d center_mm() const;
  // The corners the detector reports, board frame (z = 0): chessboard inner corners row by row,
  // or ChArUco chessboard corners by id.
  std::vector<cv::Point3d> corner_points() const;
  // ChArUco only: OpenCV's board object (same geometry), for detection and calibration.
  cv::Ptr<cv::aruco::CharucoBoard> charuco_board() const { return charuco_; }

 private:
  BoardSpec spec_;
  cv::Rect2d card_;
  cv::Ptr<cv::aruco::CharucoBoard> charuco_;
  int marker_cells_ = 0;               // marker side in cells, with its one-cell black border
  std::vector<int> marker_of_square_;  // ChArUco: marker index in a square, or -1
  std::vector<cv::Mat> marker_bits_;   // ChArUco: one byte per cell, 0 or 255
};

}  // namespace diskref::print
