#include "calibration/charuco_corners.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

#include <opencv2/calib3d.hpp>
#include <opencv2/imgproc.hpp>

namespace diskref::calib {
namespace {

// The homography from the board plane to the image fitted to the corners of the markers nearest
// to chessboard corner `id`; nullopt unless two of them were detected.
std::optional<cv::Matx33d> local_homography(const cv::aruco::CharucoBoard& board, std::size_t id,
                                            const std::map<int, std::size_t>& detected,
                                            const std::vector<std::vector<cv::Point2f>>& marker_corners) {
  std::vector<cv::Point2f> board_xy, image;
  for (int board_index : board.nearestMarkerIdx[id]) {
    auto it = detected.find(board.ids[static_cast<std::size_t>(board_index)]);
    if (it == detected.end()) continue;
    for (std::size_t k = 0; k < 4; ++k) {
      const cv::Point3f& p = board.objPoints[static_cast<std::size_t>(board_index)][k];
      board_xy.emplace_back(p.x, p.y);
      image.push_back(marker_corners[it->second][k]);
    }
  }
  if (board_xy.size() < 8) return std::nullopt;
  cv::Mat h = cv::findHomography(board_xy, image, 0);
  if (h.empty()) return std::nullopt;
  return cv::Matx33d(h);
}

cv::Point2d apply(const cv::Matx33d& h, cv::Point2d p) {
  cv::Vec3d q = h * cv::Vec3d(p.x, p.y, 1.0);
  return {q[0] / q[2], q[1] / q[2]};
}

// Förstner's corner estimate from the pixels of the two margin strips along the edges through the
// corner (board coordinates: within `strip` of either edge line and `reach` of the corner).
// `image_from_board` maps the board plane (corner at `corner_mm`) into the image, up to the shift
// `offset` that the previous estimate found. nullopt when the strips hold no usable gradients.
std::optional<cv::Point2d> forstner_in_strips(const cv::Mat& gray, const cv::Matx33d& image_from_board,
                                              cv::Point2d corner_mm, cv::Point2d offset, double strip, double reach) {
  // The pixels to look at: the image of the square of side 2 * reach round the corner.
  double radius = 0;
  cv::Point2d centre = apply(image_from_board, corner_mm) + offset;
  for (double sx : {-1.0, 1.0})
    for (double sy : {-1.0, 1.0})
      radius = std::max(radius,
                        cv::norm(apply(image_from_board, corner_mm + cv::Point2d(sx, sy) * reach) + offset - centre));
  cv::Rect roi(static_cast<int>(std::floor(centre.x - radius)) - 1, static_cast<int>(std::floor(centre.y - radius)) - 1,
               static_cast<int>(2 * radius) + 4, static_cast<int>(2 * radius) + 4);
  roi &= cv::Rect(0, 0, gray.cols, gray.rows);
  if (roi.width < 5 || roi.height < 5) return std::nullopt;
  cv::Mat gx, gy;
  cv::Sobel(gray(roi), gx, CV_64F, 1, 0, 3, 1.0 / 8);
  cv::Sobel(gray(roi), gy, CV_64F, 0, 1, 3, 1.0 / 8);

  std::vector<cv::Point2d> pixels, on_board;
  for (int y = 1; y < roi.height - 1; ++y)
    for (int x = 1; x < roi.width - 1; ++x) pixels.emplace_back(roi.x + x - offset.x, roi.y + y - offset.y);
  cv::perspectiveTransform(pixels, on_board, cv::Mat(image_from_board.inv()));

  cv::Matx22d a = cv::Matx22d::zeros();
  cv::Vec2d b(0, 0);
  std::size_t i = 0;
  for (int y = 1; y < roi.height - 1; ++y)
    for (int x = 1; x < roi.width - 1; ++x, ++i) {
      cv::Point2d d = on_board[i] - corner_mm;
      double near_edge = std::min(std::abs(d.x), std::abs(d.y)), along = std::max(std::abs(d.x), std::abs(d.y));
      if (near_edge > strip || along > reach) continue;
      cv::Vec2d g(gx.at<double>(y, x), gy.at<double>(y, x));
      cv::Matx22d gg = g * g.t();
      a += gg;
      b += gg * cv::Vec2d(roi.x + x, roi.y + y);
    }
  if (cv::determinant(a) <= 1e-9 * (a(0, 0) + a(1, 1)) * (a(0, 0) + a(1, 1))) return std::nullopt;
  cv::Vec2d c = a.inv() * b;
  return cv::Point2d(c[0], c[1]);
}

}  // namespace

void place_charuco_corners(const cv::Mat& gray, const cv::aruco::CharucoBoard& board, double marker_mm,
                           const std::vector<std::vector<cv::Point2f>>& marker_corners,
                           const std::vector<int>& marker_ids, const std::vector<int>& ids,
                           std::vector<cv::Point2f>& corners) {
  std::map<int, std::size_t> detected;  // marker id -> index in marker_corners
  for (std::size_t i = 0; i < marker_ids.size(); ++i) detected[marker_ids[i]] = i;
  double square = static_cast<double>(board.getSquareLength());
  double margin = (square - marker_mm) / 2;
  // The strips stop short of the markers (blur spreads their edges by a pixel or two) and of the
  // neighbouring corners.
  double strip = 0.5 * margin, reach = 0.45 * square;
  for (std::size_t i = 0; i < ids.size(); ++i) {
    std::size_t id = static_cast<std::size_t>(ids[i]);
    auto h = local_homography(board, id, detected, marker_corners);
    if (!h) continue;  // one marker only: keep OpenCV's estimate
    cv::Point2d corner_mm(static_cast<double>(board.chessboardCorners[id].x),
                          static_cast<double>(board.chessboardCorners[id].y));
    cv::Point2d first = apply(*h, corner_mm);
    cv::Point2d estimate = first;
    // Twice: the strips are placed again round the refined corner.
    for (int pass = 0; pass < 2; ++pass) {
      auto refined = forstner_in_strips(gray, *h, corner_mm, estimate - first, strip, reach);
      if (!refined || cv::norm(*refined - first) > 3.0) break;  // lost: keep the last good estimate
      estimate = *refined;
    }
    corners[i] = cv::Point2f(static_cast<float>(estimate.x), static_cast<float>(estimate.y));
  }
}

}  // namespace diskref::calib
