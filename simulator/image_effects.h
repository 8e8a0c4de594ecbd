#pragma once
// What a real camera does to the light after the scene: uneven illumination, vignetting, defocus,
// sensor noise, 8-bit quantization and lossy compression. Shared by board views and table scenes.
//
// Rendering produces linear radiance in [0, 1] (reflectance times light; white paper ~0.86);
// finish_frame turns it into the 8-bit BGR image a camera would deliver (radiance 1.0 -> 255).

#include <cstdint>
#include <vector>

#include <opencv2/core.hpp>

namespace diskref::simulator {

struct ImageEffects {
  double noise_sigma = 0;     // sensor noise: standard deviation in 8-bit grey levels
  double blur_sigma_px = 0;   // defocus: Gaussian sigma in pixels (0 = sharp)
  double vignetting = 0;      // fraction of light lost in the image corners, 0..1 (cos^4-like falloff)
  double light_gradient = 0;  // illumination changes by this fraction across the image (0..1),
                              // in a direction drawn from the seed
  int jpeg_quality = 0;       // 1..100: JPEG-compress the result; 0 = none
  int supersample = 4;        // n x n samples per pixel (box filter); 1 = none
  double exposure = 1.0;      // gain on the light
};

// Why the effects are unusable, or empty.
std::string image_effects_problem(const ImageEffects& effects);

// Light reaching each pixel relative to the brightest (CV_32F, image size): exposure, gradient
// and vignetting. Deterministic for a seed (the gradient's direction).
cv::Mat illumination_map(cv::Size size, const ImageEffects& effects, uint64_t seed);

// The camera after the scene: radiance (CV_32FC3, 0..1) x illumination -> defocus -> sensor
// noise -> 8 bit -> JPEG, for many frames of one size. Buffers are kept between frames, and the
// noise of a frame is a window at a random offset into one large field of Gaussian noise made
// once (white noise, so windows at different offsets are independent): 1080p frames cost tens of
// milliseconds instead of hundreds. Deterministic for the seeds.
class CameraFinish {
 public:
  CameraFinish(cv::Size size, const ImageEffects& effects, uint64_t seed);

  const cv::Mat& illumination() const { return illumination_; }
  // Returns CV_8UC3, valid until the next call. `row_gains` (one a row, or empty): the light of
  // each row relative to the rest, for flicker and auto-exposure (webcam_behaviour.h).
  const cv::Mat& finish(const cv::Mat& radiance, uint64_t frame_seed, const std::vector<float>& row_gains = {});

 private:
  ImageEffects effects_;
  cv::Mat illumination_;  // CV_32F
  cv::Mat noise_;         // CV_16SC3, 1/16 grey level units, larger than the frame by kNoiseMargin
  cv::Mat lit_, out_;     // CV_16UC3 (1/64 grey level units), CV_8UC3
};

// One frame through a fresh CameraFinish (board views, tests).
cv::Mat finish_frame(const cv::Mat& radiance, const ImageEffects& effects, uint64_t seed);

}  // namespace diskref::simulator
