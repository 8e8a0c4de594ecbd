#include "calibration/view_quality.h"

#include <algorithm>
#include <cmath>
#include <map>

#include <opencv2/imgproc.hpp>
#include <opencv2/video/tracking.hpp>

namespace diskref::calib {
namespace {

double median(std::vector<double> values) {
  auto mid = values.begin() + static_cast<std::ptrdiff_t>(values.size() / 2);
  std::nth_element(values.begin(), mid, values.end());
  return *mid;
}

// Bilinear sample of an 8-bit image; nullopt outside it.
std::optional<double> sample(const cv::Mat& gray, cv::Point2d p) {
  if (p.x < 0 || p.y < 0 || p.x > gray.cols - 1.001 || p.y > gray.rows - 1.001) return std::nullopt;
  int x = static_cast<int>(p.x), y = static_cast<int>(p.y);
  double fx = p.x - x, fy = p.y - y;
  const uchar* row0 = gray.ptr<uchar>(y);
  const uchar* row1 = gray.ptr<uchar>(y + 1);
  double top = row0[x] * (1 - fx) + row0[x + 1] * fx;
  double bottom = row1[x] * (1 - fx) + row1[x + 1] * fx;
  return top * (1 - fy) + bottom * fy;
}

// Position (in samples) where `profile` crosses `level` walking from `from` by `step` (+1 or -1);
// nullopt when it never does.
std::optional<double> crossing(const std::vector<double>& profile, std::size_t from, int step, double level) {
  for (std::ptrdiff_t i = static_cast<std::ptrdiff_t>(from); i + step >= 0 && i + step < std::ssize(profile);
       i += step) {
    double a = profile[static_cast<std::size_t>(i)], b = profile[static_cast<std::size_t>(i + step)];
    if ((a - level) * (b - level) <= 0 && a != b) return static_cast<double>(i) + step * (level - a) / (b - a);
  }
  return std::nullopt;
}

// The 10-90 % width of the edge crossing the segment a-b at its middle; `reach` is how far from
// the edge (pixels) both sides are known to be flat.
std::optional<double> edge_width_between(const cv::Mat& gray, cv::Point2d a, cv::Point2d b, double reach) {
  constexpr double kStep = 0.25;  // profile sampling, pixels
  constexpr int kBandLines = 5;   // parallel profiles averaged against noise
  cv::Point2d along = b - a;
  double spacing = cv::norm(along);
  along /= spacing;
  cv::Point2d across(-along.y, along.x);
  cv::Point2d middle = (a + b) * 0.5;
  double half = std::min(reach, 12.0);
  if (half < 2.5) return std::nullopt;  // squares too small to see an edge's profile
  double band = 0.15 * spacing;

  int n = static_cast<int>(2 * half / kStep) + 1;
  std::vector<double> profile(static_cast<std::size_t>(n), 0.0);
  for (int k = 0; k < n; ++k) {
    double s = -half + k * kStep;
    for (int line = 0; line < kBandLines; ++line) {
      double t = band * (2.0 * line / (kBandLines - 1) - 1.0);
      auto v = sample(gray, middle + across * s + along * t);
      if (!v) return std::nullopt;
      profile[static_cast<std::size_t>(k)] += *v / kBandLines;
    }
  }
  // Plateau levels from the outer fifth of each side.
  std::size_t tail = std::max<std::size_t>(2, profile.size() / 5);
  double low = 0, high = 0;
  for (std::size_t i = 0; i < tail; ++i) {
    low += profile[i] / static_cast<double>(tail);
    high += profile[profile.size() - 1 - i] / static_cast<double>(tail);
  }
  if (low > high) {
    std::reverse(profile.begin(), profile.end());
    std::swap(low, high);
  }
  if (high - low < 15.0) return std::nullopt;  // no black/white edge here (glare, shadow)
  for (double& v : profile) v = (v - low) / (high - low);
  // Walk out from the middle crossing nearest the centre.
  double centre = static_cast<double>(profile.size() / 2);
  auto left_half = crossing(profile, profile.size() / 2, -1, 0.5);
  auto right_half = crossing(profile, profile.size() / 2, +1, 0.5);
  double mid;
  if (left_half && right_half)
    mid = (centre - *left_half < *right_half - centre) ? *left_half : *right_half;
  else if (left_half || right_half)
    mid = left_half ? *left_half : *right_half;
  else
    return std::nullopt;
  std::size_t mid_index =
      static_cast<std::size_t>(std::clamp(std::lround(mid), 0L, static_cast<long>(profile.size() - 1)));
  auto at10 = crossing(profile, mid_index, -1, 0.1);
  auto at90 = crossing(profile, mid_index, +1, 0.9);
  // An edge wider than the flat reach on either side: report the whole reach (at least this blurred).
  double from = at10 ? *at10 : 0.0;
  double to = at90 ? *at90 : static_cast<double>(profile.size() - 1);
  return (to - from) * kStep;
}

// How far from an edge between neighbouring corners the squares stay flat, as a fraction of the
// corner spacing: half a square on a chessboard; the white margin round the marker on ChArUco.
double flat_fraction(const BoardSpec& board) {
  if (const auto* charuco = std::get_if<CharucoSpec>(&board))
    return 0.8 * (charuco->square_mm - charuco->marker_mm) / (2 * charuco->square_mm);
  return 0.4;
}

}  // namespace

std::optional<double> edge_width_px(const cv::Mat& gray, const BoardView& view, const BoardSpec& board) {
  CV_Assert(gray.type() == CV_8UC1);
  int columns = corner_grid(board).width;
  std::map<int, cv::Point2d> by_id;
  for (std::size_t i = 0; i < view.corner_ids.size(); ++i) by_id[view.corner_ids[i]] = view.image_points[i];
  double fraction = flat_fraction(board);

  std::vector<double> along_rows, along_columns;
  for (const auto& [id, corner] : by_id) {
    const cv::Point2d p = corner;  // a lambda may not capture a structured binding in clang 14
    auto measure = [&](int other_id, std::vector<double>& out) {
      auto it = by_id.find(other_id);
      if (it == by_id.end()) return;
      double spacing = cv::norm(it->second - p);
      if (auto w = edge_width_between(gray, p, it->second, fraction * spacing)) out.push_back(*w);
    };
    if ((id % columns) + 1 < columns) measure(id + 1, along_rows);
    measure(id + columns, along_columns);
  }
  if (along_rows.empty() && along_columns.empty()) return std::nullopt;
  double worst = 0;
  if (!along_rows.empty()) worst = std::max(worst, median(along_rows));
  if (!along_columns.empty()) worst = std::max(worst, median(along_columns));
  return worst;
}

std::optional<double> board_motion_px(const cv::Mat& previous_gray, const cv::Mat& gray, const BoardView& view) {
  if (view.image_points.empty() || previous_gray.size() != gray.size()) return std::nullopt;
  std::vector<cv::Point2f> tracked;
  std::vector<uchar> status;
  std::vector<float> error;
  cv::calcOpticalFlowPyrLK(gray, previous_gray, view.image_points, tracked, status, error, cv::Size(21, 21), 3);
  std::vector<double> moved;
  for (std::size_t i = 0; i < tracked.size(); ++i)
    if (status[i]) moved.push_back(cv::norm(tracked[i] - view.image_points[i]));
  if (moved.empty()) return std::nullopt;
  return median(moved);
}

std::optional<double> view_distance_px(const BoardView& a, const BoardView& b) {
  std::map<int, cv::Point2f> in_a;
  for (std::size_t i = 0; i < a.corner_ids.size(); ++i) in_a[a.corner_ids[i]] = a.image_points[i];
  double sum = 0;
  int shared = 0;
  for (std::size_t i = 0; i < b.corner_ids.size(); ++i) {
    auto it = in_a.find(b.corner_ids[i]);
    if (it == in_a.end()) continue;
    sum += cv::norm(it->second - b.image_points[i]);
    ++shared;
  }
  if (shared < 4) return std::nullopt;
  return sum / shared;
}

double image_coverage(const std::vector<BoardView>& views, cv::Size image_size) {
  // A coarse mask is plenty for a fraction of the image.
  double scale = 256.0 / std::max(image_size.width, image_size.height);
  cv::Mat mask = cv::Mat::zeros(std::max(1, static_cast<int>(image_size.height * scale)),
                                std::max(1, static_cast<int>(image_size.width * scale)), CV_8UC1);
  for (const auto& view : views) {
    if (view.image_points.size() < 3) continue;
    std::vector<cv::Point2f> hull;
    cv::convexHull(view.image_points, hull);
    std::vector<cv::Point> scaled;
    for (const auto& p : hull)
      scaled.emplace_back(cvRound(static_cast<double>(p.x) * scale), cvRound(static_cast<double>(p.y) * scale));
    cv::fillConvexPoly(mask, scaled, cv::Scalar(255));
  }
  return static_cast<double>(cv::countNonZero(mask)) / static_cast<double>(mask.total());
}

double corner_cell_coverage(const std::vector<BoardView>& views, cv::Size image_size, int cells) {
  std::vector<bool> touched(static_cast<std::size_t>(cells * cells), false);
  for (const auto& view : views)
    for (const auto& p : view.image_points) {
      int cx = std::clamp(static_cast<int>(static_cast<double>(p.x) * cells / image_size.width), 0, cells - 1);
      int cy = std::clamp(static_cast<int>(static_cast<double>(p.y) * cells / image_size.height), 0, cells - 1);
      touched[static_cast<std::size_t>(cy * cells + cx)] = true;
    }
  return static_cast<double>(std::count(touched.begin(), touched.end(), true)) / static_cast<double>(touched.size());
}

}  // namespace diskref::calib
