#include "simulator/image_effects.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "engine/random/splitmix64.h"

namespace diskref::simulator {

std::string image_effects_problem(const ImageEffects& e) {
  if (!(std::isfinite(e.noise_sigma) && e.noise_sigma >= 0 && e.noise_sigma <= 64))
    return "noise_sigma must be in [0, 64]";
  if (!(std::isfinite(e.blur_sigma_px) && e.blur_sigma_px >= 0 && e.blur_sigma_px <= 20))
    return "blur_sigma_px must be in [0, 20]";
  if (!(std::isfinite(e.vignetting) && e.vignetting >= 0 && e.vignetting <= 1)) return "vignetting must be in [0, 1]";
  if (!(std::isfinite(e.light_gradient) && e.light_gradient >= 0 && e.light_gradient <= 1))
    return "light_gradient must be in [0, 1]";
  if (e.jpeg_quality < 0 || e.jpeg_quality > 100) return "jpeg_quality must be in [0, 100]";
  if (e.supersample < 1 || e.supersample > 8) return "supersample must be in [1, 8]";
  if (!(std::isfinite(e.exposure) && e.exposure > 0 && e.exposure <= 4)) return "exposure must be in (0, 4]";
  return "";
}

cv::Mat illumination_map(cv::Size size, const ImageEffects& effects, uint64_t seed) {
  random::SplitMix64 rng(seed);
  double angle = rng.uniform(0, 2 * std::numbers::pi);
  double gx = std::cos(angle), gy = std::sin(angle);
  double cx = (size.width - 1) / 2.0, cy = (size.height - 1) / 2.0;
  double half_diagonal = std::hypot(cx, cy);
  cv::Mat map(size, CV_32F);
  for (int v = 0; v < size.height; ++v) {
    auto* row = map.ptr<float>(v);
    for (int u = 0; u < size.width; ++u) {
      double dx = (u - cx) / half_diagonal, dy = (v - cy) / half_diagonal;
      // Gradient: 1 at the bright side, 1 - light_gradient at the dark side.
      double along = 0.5 * (1 + dx * gx + dy * gy);  // 0..1
      double light = 1 - effects.light_gradient * (1 - along);
      // Vignetting: a smooth cos^4-like falloff reaching 1 - vignetting in the corners.
      double r2 = dx * dx + dy * dy;
      double vignette = 1 - effects.vignetting * r2 * (0.6 + 0.4 * r2);
      row[u] = static_cast<float>(effects.exposure * light * vignette);
    }
  }
  return map;
}

namespace {
constexpr int kNoiseMargin = 61;  // odd, so successive offsets rarely line up
constexpr float kNoiseUnit = 16.0f;
}  // namespace

CameraFinish::CameraFinish(cv::Size size, const ImageEffects& effects, uint64_t seed) : effects_(effects) {
  random::SplitMix64 rng(seed);
  illumination_ = illumination_map(size, effects, rng.next_u64());
  if (effects.noise_sigma > 0) {
    cv::Mat noise(size.height + kNoiseMargin, size.width + kNoiseMargin, CV_32FC3);
    cv::RNG fill(rng.next_u64() | 1);  // cv::RNG's fill is deterministic for its state
    fill.fill(noise, cv::RNG::NORMAL, 0.0, effects.noise_sigma * static_cast<double>(kNoiseUnit));
    noise.convertTo(noise_, CV_16SC3);
  }
  lit_.create(size, CV_16UC3);
  out_.create(size, CV_8UC3);
}

const cv::Mat& CameraFinish::finish(const cv::Mat& radiance, uint64_t frame_seed, const std::vector<float>& row_gains) {
  CV_Assert(radiance.type() == CV_32FC3 && radiance.size() == illumination_.size());
  CV_Assert(row_gains.empty() || row_gains.size() == static_cast<std::size_t>(radiance.rows));
  constexpr float kLitUnit = 64.0f;  // 16-bit fixed point: 255 * 64 < 65535
  cv::parallel_for_(cv::Range(0, radiance.rows), [&](const cv::Range& rows) {
    for (int v = rows.start; v < rows.end; ++v) {
      const auto* in = radiance.ptr<cv::Vec3f>(v);
      const auto* gain = illumination_.ptr<float>(v);
      auto* out = lit_.ptr<cv::Vec3w>(v);
      const float row_gain = row_gains.empty() ? 1.0f : row_gains[static_cast<std::size_t>(v)];
      for (int u = 0; u < radiance.cols; ++u) {
        cv::Vec3f value = in[u] * (255.0f * kLitUnit * gain[u] * row_gain);
        out[u] = cv::Vec3w(cv::saturate_cast<uint16_t>(value[0]), cv::saturate_cast<uint16_t>(value[1]),
                           cv::saturate_cast<uint16_t>(value[2]));
      }
    }
  });
  if (effects_.blur_sigma_px > 0) {
    // At least 7 taps: OpenCV 4.6 takes a path 2-3x slower for 16-bit images with 5-tap kernels
    // (sigma < 0.6; measured), and a wider kernel only truncates the Gaussian later.
    int taps = std::max(7, 2 * static_cast<int>(std::ceil(3 * effects_.blur_sigma_px)) + 1);
    cv::GaussianBlur(lit_, lit_, cv::Size(taps, taps), effects_.blur_sigma_px);
  }
  random::SplitMix64 rng(frame_seed);
  int dx = rng.uniform_int(0, kNoiseMargin - 1), dy = rng.uniform_int(0, kNoiseMargin - 1);
  cv::parallel_for_(cv::Range(0, radiance.rows), [&](const cv::Range& rows) {
    constexpr int kRatio = static_cast<int>(kLitUnit / kNoiseUnit);
    for (int v = rows.start; v < rows.end; ++v) {
      const auto* in = lit_.ptr<cv::Vec3w>(v);
      auto* out = out_.ptr<cv::Vec3b>(v);
      const cv::Vec3s* noise = noise_.empty() ? nullptr : noise_.ptr<cv::Vec3s>(v + dy) + dx;
      for (int u = 0; u < radiance.cols; ++u) {
        for (int c = 0; c < 3; ++c) {
          int value = in[u][c] + (noise ? noise[u][c] * kRatio : 0);  // in 1/64 grey levels
          out[u][c] = cv::saturate_cast<uint8_t>((value + 32) >> 6);
        }
      }
    }
  });
  if (effects_.jpeg_quality > 0) {
    std::vector<uint8_t> bytes;
    cv::imencode(".jpg", out_, bytes, {cv::IMWRITE_JPEG_QUALITY, effects_.jpeg_quality});
    out_ = cv::imdecode(bytes, cv::IMREAD_COLOR);
  }
  return out_;
}

cv::Mat finish_frame(const cv::Mat& radiance, const ImageEffects& effects, uint64_t seed) {
  random::SplitMix64 rng(seed);
  CameraFinish camera(radiance.size(), effects, rng.next_u64());
  return camera.finish(radiance, rng.next_u64()).clone();
}

}  // namespace diskref::simulator
