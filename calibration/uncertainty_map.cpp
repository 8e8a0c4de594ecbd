#include "calibration/uncertainty_map.h"

#include <algorithm>
#include <array>
#include <cmath>

#include <fmt/format.h>
#include <opencv2/imgproc.hpp>

namespace diskref::calib {
namespace {

// The colour scale: log10 of the uncertainty from 0.03 px (blue) to 10 px (red).
constexpr double kLowLog = -1.5, kHighLog = 1.0;
constexpr std::array<double, 6> kContoursPx{0.1, 0.2, 0.5, 1, 2, 5};
// The uncertainty is computed every kStepPx pixels and interpolated (it varies smoothly).
constexpr int kStepPx = 8;

}  // namespace

std::string image_region_name(int column, int row, int columns, int rows) {
  const int cx = column * 3 / columns, cy = row * 3 / rows;
  static const char* const kRows[] = {"top", "middle", "bottom"};
  static const char* const kColumns[] = {"left", "middle", "right"};
  if (cx == 1 && cy == 1) return "middle";
  if (cy == 1) return std::string(kColumns[cx]) + " edge";
  if (cx == 1) return std::string(kRows[cy]) + " edge";
  return std::string(kRows[cy]) + "-" + kColumns[cx] + " corner";
}

cv::Mat draw_uncertainty_map(const CameraModel& camera, const LensCovariance& covariance,
                             const std::vector<BoardView>& views) {
  const cv::Size size = camera.image_size;
  const int cols = std::max(2, size.width / kStepPx + 1), rows = std::max(2, size.height / kStepPx + 1);
  const std::vector<double> sigma = projection_sigma_px(camera, covariance, grid_nodes(size, cols, rows));
  cv::Mat coarse(rows, cols, CV_32F);
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) {
      const double v = sigma[static_cast<std::size_t>(r * cols + c)];
      coarse.at<float>(r, c) = static_cast<float>(std::isfinite(v) ? std::min(v, 1000.0) : 1000.0);
    }
  cv::Mat fine;
  cv::resize(coarse, fine, size, 0, 0, cv::INTER_LINEAR);
  cv::Mat logs;
  cv::log(cv::max(fine, 1e-6), logs);
  logs /= std::log(10.0);
  cv::Mat scaled;
  logs.convertTo(scaled, CV_8U, 255.0 / (kHighLog - kLowLog), -kLowLog * 255.0 / (kHighLog - kLowLog));
  cv::Mat picture;
  cv::applyColorMap(scaled, picture, cv::COLORMAP_TURBO);
  for (double level : kContoursPx) {
    cv::Mat above = fine > level;
    std::vector<std::vector<cv::Point>> contours;
    cv::findContours(above, contours, cv::RETR_LIST, cv::CHAIN_APPROX_SIMPLE);
    cv::drawContours(picture, contours, -1, cv::Scalar(255, 255, 255), 1, cv::LINE_AA);
    for (const auto& contour : contours) {
      if (contour.size() < 8) continue;
      const cv::Point at = contour[contour.size() / 2];
      cv::putText(picture, fmt::format("{:g} px", level), at, cv::FONT_HERSHEY_SIMPLEX, 0.4, cv::Scalar(255, 255, 255),
                  1, cv::LINE_AA);
    }
  }
  for (const auto& v : views)
    for (const auto& p : v.image_points) cv::circle(picture, p, 1, cv::Scalar(0, 0, 0), cv::FILLED);
  cv::putText(picture, "projection uncertainty (1 sigma, px): blue 0.03 .. red 10", cv::Point(8, 18),
              cv::FONT_HERSHEY_SIMPLEX, 0.5, cv::Scalar(255, 255, 255), 1, cv::LINE_AA);
  return picture;
}

std::optional<WorstKnownRegion> worst_known_ninth(const CameraModel& camera) {
  if (!camera.uncertainty) return std::nullopt;
  const UncertaintyGrid& g = *camera.uncertainty;
  if (g.cols < 1 || g.rows < 1 ||
      g.sigma_px.size() != static_cast<std::size_t>(g.cols) * static_cast<std::size_t>(g.rows))
    return std::nullopt;
  std::array<double, 9> sum{}, max{};
  std::array<int, 9> count{};
  for (int r = 0; r < g.rows; ++r)
    for (int c = 0; c < g.cols; ++c) {
      const auto cell = static_cast<std::size_t>(std::min(2, r * 3 / g.rows) * 3 + std::min(2, c * 3 / g.cols));
      const double s = g.sigma_px[static_cast<std::size_t>(r * g.cols + c)];
      sum[cell] += s;
      max[cell] = std::max(max[cell], s);
      ++count[cell];
    }
  std::size_t worst = 9;
  for (std::size_t i = 0; i < 9; ++i)
    if (count[i] && (worst == 9 || sum[i] / count[i] > sum[worst] / count[worst])) worst = i;
  if (worst == 9) return std::nullopt;
  const int column = static_cast<int>(worst % 3), row = static_cast<int>(worst / 3);
  WorstKnownRegion out;
  out.name = image_region_name(column, row, 3, 3);
  const double w = camera.image_size.width / 3.0, h = camera.image_size.height / 3.0;
  out.rect_px = cv::Rect2d(column * w, row * h, w, h);
  out.mean_sigma_px = sum[worst] / count[worst];
  out.max_sigma_px = max[worst];
  return out;
}

std::string worst_known_region(const CameraModel& camera) {
  const std::optional<WorstKnownRegion> worst = worst_known_ninth(camera);
  return worst ? worst->name : "";
}

}  // namespace diskref::calib
