#include "simulator/webcam_behaviour.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include <opencv2/calib3d.hpp>
#include <opencv2/imgproc.hpp>

#include "engine/random/splitmix64.h"

namespace diskref::simulator {

std::vector<float> flicker_row_gains(const MainsFlicker& flicker, int rows, double t_s, double frame_interval_s,
                                     double exposure_s) {
  const double omega = 2 * std::numbers::pi * 2 * flicker.mains_hz;  // the light swings at twice the mains
  const double phase = flicker.phase_deg * std::numbers::pi / 180;
  const double readout_s = flicker.readout * frame_interval_s;
  std::vector<float> gains(static_cast<std::size_t>(std::max(rows, 0)));
  for (int v = 0; v < rows; ++v) {
    // The row's exposure is centred this long after the frame's middle row's.
    const double centre = t_s + (rows > 1 ? (static_cast<double>(v) / (rows - 1) - 0.5) * readout_s : 0.0);
    double swing;
    if (exposure_s <= 0) {
      swing = std::cos(omega * centre + phase);
    } else {
      // The mean of cos over the exposure [centre - E/2, centre + E/2].
      const double a = omega * (centre - exposure_s / 2) + phase, b = omega * (centre + exposure_s / 2) + phase;
      swing = (std::sin(b) - std::sin(a)) / (omega * exposure_s);
    }
    gains[static_cast<std::size_t>(v)] = static_cast<float>(1 + flicker.depth * swing);
  }
  return gains;
}

double knock_angle_deg(const BoomKnock& knock, double t_s) {
  const double since = t_s - knock.t;
  if (since <= 0) return 0;
  const double fade = std::exp(-since / knock.decay_s);
  // From rest: the swing starts at 0 and dies away about the offset it leaves.
  return knock.offset_deg * (1 - fade) +
         knock.swing_deg * std::sin(2 * std::numbers::pi * knock.frequency_hz * since) * fade;
}

cv::Mat turned_view(const cv::Mat& image, const calib::CameraModel& camera, double angle_deg, double axis_deg) {
  if (angle_deg == 0) return image;
  // Rays through a coarse grid of the turned camera's pixels, turned back into the camera as it
  // was, and projected through its lens: where each pixel's light comes from. The map is smooth
  // (a turn of a fraction of a degree), so a grid every 8 pixels, enlarged, is exact enough.
  constexpr int kStep = 8;
  const int gw = image.cols / kStep + 2, gh = image.rows / kStep + 2;
  std::vector<cv::Point2f> grid;
  grid.reserve(static_cast<std::size_t>(gw * gh));
  for (int y = 0; y < gh; ++y)
    for (int x = 0; x < gw; ++x) grid.emplace_back(static_cast<float>(x * kStep), static_cast<float>(y * kStep));
  std::vector<cv::Point2f> rays;
  cv::undistortPoints(grid, rays, camera.camera_matrix, camera.dist_coeffs);
  const double a = axis_deg * std::numbers::pi / 180, angle = angle_deg * std::numbers::pi / 180;
  cv::Matx33d turn;
  cv::Rodrigues(cv::Vec3d(std::cos(a), std::sin(a), 0) * angle, turn);
  // x_turned = turn * x_before: the ray a turned pixel sees was turn^T * ray in the camera before.
  std::vector<cv::Point3d> before;
  before.reserve(rays.size());
  for (const cv::Point2f& r : rays) {
    const cv::Vec3d d = turn.t() * cv::Vec3d(static_cast<double>(r.x), static_cast<double>(r.y), 1.0);
    before.emplace_back(d[0] / d[2], d[1] / d[2], 1.0);
  }
  std::vector<cv::Point2d> source;
  cv::projectPoints(before, cv::Vec3d(0, 0, 0), cv::Vec3d(0, 0, 0), camera.camera_matrix, camera.dist_coeffs, source);
  cv::Mat map_x(gh, gw, CV_32F), map_y(gh, gw, CV_32F);
  for (int y = 0; y < gh; ++y)
    for (int x = 0; x < gw; ++x) {
      const cv::Point2d& s = source[static_cast<std::size_t>(y * gw + x)];
      map_x.at<float>(y, x) = static_cast<float>(s.x);
      map_y.at<float>(y, x) = static_cast<float>(s.y);
    }
  // Enlarged by interpolating the grid at each pixel (pixel p lies at grid position p / kStep:
  // a resize would place the grid's nodes half a step off).
  cv::Mat at_x(image.size(), CV_32F), at_y(image.size(), CV_32F);
  for (int y = 0; y < image.rows; ++y)
    for (int x = 0; x < image.cols; ++x) {
      at_x.at<float>(y, x) = static_cast<float>(x) / kStep;
      at_y.at<float>(y, x) = static_cast<float>(y) / kStep;
    }
  cv::Mat full_x, full_y;
  cv::remap(map_x, full_x, at_x, at_y, cv::INTER_LINEAR, cv::BORDER_REPLICATE);
  cv::remap(map_y, full_y, at_x, at_y, cv::INTER_LINEAR, cv::BORDER_REPLICATE);
  cv::Mat out;
  cv::remap(image, out, full_x, full_y, cv::INTER_LINEAR, cv::BORDER_REPLICATE);
  return out;
}

WebcamFrames::WebcamFrames(const WebcamBehaviour& behaviour, int frame_count, uint64_t seed) {
  if (behaviour.repeated_frames <= 0 && behaviour.lost_frames <= 0) return;
  const random::SplitMix64 root(seed);
  shown_.resize(static_cast<std::size_t>(std::max(frame_count, 0)));
  for (int k = 0; k < frame_count; ++k) {
    const std::size_t i = static_cast<std::size_t>(k);
    shown_[i] = k;
    const double u = root.fork(static_cast<uint64_t>(k)).uniform();
    if (k > 0 && u < behaviour.repeated_frames) {
      shown_[i] = shown_[i - 1];  // the picture delivered before, again
    } else if (k + 1 < frame_count && u >= 1 - behaviour.lost_frames) {
      shown_[i] = k + 1;  // moment k never arrives: the next one takes its place
    }
    if (k > 0) shown_[i] = std::max(shown_[i], shown_[i - 1]);  // never back in time
  }
}

std::vector<double> WebcamFrames::exposure_gains(const AutoExposure& ae, const std::vector<bool>& hand_in_view,
                                                 double fps) {
  const int delay = static_cast<int>(std::lround(ae.delay_s * fps));
  const int interval = std::max(1, static_cast<int>(std::lround(ae.step_interval_s * fps)));
  const double increment = ae.step / std::max(1, ae.steps);
  std::vector<double> gains(hand_in_view.size(), 1.0);
  int level = 0, since_step = interval;  // level: steps taken towards the hand's gain
  for (std::size_t k = 0; k < hand_in_view.size(); ++k) {
    const std::ptrdiff_t seen = static_cast<std::ptrdiff_t>(k) - delay;
    const int target = seen >= 0 && hand_in_view[static_cast<std::size_t>(seen)] ? ae.steps : 0;
    if (++since_step >= interval && level != target) {
      level += target > level ? 1 : -1;
      since_step = 0;
    }
    gains[k] = 1 + increment * level;
  }
  return gains;
}

}  // namespace diskref::simulator
