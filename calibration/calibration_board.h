#pragma once
// Calibration boards (spec §7) and finding them in an image.
//
// A chessboard is counted by its inner corners (`9x6`), as OpenCV and spec §7 count it. A ChArUco
// board is counted by its squares (`11x8`), as OpenCV's aruco module counts it; its inner corners
// are then (squares.width - 1) x (squares.height - 1).
//
// Every board corner has an id: its index in the grid of inner corners, row by row
// (id = row * corner_columns + column). Corner positions on the board are in millimetres, z = 0.
// Image points are raw (distorted) pixels in OpenCV's convention (pixel centres at integers).

#include <optional>
#include <string>
#include <variant>
#include <vector>

#include <opencv2/core.hpp>

namespace diskref::calib {

struct ChessboardSpec {
  cv::Size inner_corners;  // columns x rows of inner corners
  double square_mm = 0;
};

struct CharucoSpec {
  cv::Size squares;  // columns x rows of squares
  double square_mm = 0;
  double marker_mm = 0;                     // side of each ArUco marker, < square_mm
  std::string dictionary = "DICT_5X5_100";  // a name from charuco_dictionary_names()
};

using BoardSpec = std::variant<ChessboardSpec, CharucoSpec>;

// The names `CharucoSpec::dictionary` accepts (OpenCV's predefined dictionaries).
std::vector<std::string> charuco_dictionary_names();

// Throws std::invalid_argument naming what is wrong (sizes, marker larger than the square,
// unknown dictionary, a dictionary too small for the board).
void validate_board(const BoardSpec& board);

// Columns x rows of the board's inner-corner grid.
cv::Size corner_grid(const BoardSpec& board);
// Side of one square, millimetres.
double square_mm(const BoardSpec& board);
// Board position of every corner, indexed by corner id (mm, z = 0).
std::vector<cv::Point3f> board_corners_mm(const BoardSpec& board);
// "chessboard 9x6 inner corners, 25 mm squares" and the like, for reports.
std::string describe_board(const BoardSpec& board);

// One view of the board: the corners found in one image.
struct BoardView {
  std::string name;  // image file name, or "frame 120" of a video
  cv::Size image_size;
  std::vector<int> corner_ids;             // see the header comment
  std::vector<cv::Point2f> image_points;   // raw pixels
  std::vector<cv::Point3f> object_points;  // board mm, z = 0; same order
};

// How hard to look for a chessboard. `thorough` tries OpenCV's sector-based detector when the
// classic one fails (it finds boards under strong perspective or uneven light, but takes over a
// second on a 1080p frame without a board); `fast` does not (for the many frames of a video).
enum class DetectionEffort { thorough, fast };

// Finds the board in an 8-bit grey image. A chessboard must be seen whole; a ChArUco board may be
// partly hidden (at least 6 corners not all on one line). nullopt when not found.
std::optional<BoardView> detect_board(const cv::Mat& gray, const BoardSpec& board, const std::string& name,
                                      DetectionEffort effort = DetectionEffort::thorough);

}  // namespace diskref::calib
