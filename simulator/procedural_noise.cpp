#include "simulator/procedural_noise.h"

#include <algorithm>
#include <cmath>

#include <opencv2/imgproc.hpp>

namespace diskref::simulator {

cv::Mat fractal_noise(cv::Size size, double cells_across, int octaves, double persistence, random::SplitMix64& rng) {
  cv::Mat sum = cv::Mat::zeros(size, CV_32F);
  double amplitude = 1.0, total = 0.0;
  double longer = std::max(size.width, size.height);
  for (int octave = 0; octave < octaves; ++octave) {
    double cells = cells_across * std::pow(2.0, octave);
    int gw = std::max(2, static_cast<int>(std::ceil(cells * size.width / longer)) + 1);
    int gh = std::max(2, static_cast<int>(std::ceil(cells * size.height / longer)) + 1);
    cv::Mat grid(gh, gw, CV_32F);
    for (int r = 0; r < gh; ++r)
      for (int c = 0; c < gw; ++c) grid.at<float>(r, c) = static_cast<float>(rng.uniform(-1.0, 1.0));
    cv::Mat layer;
    cv::resize(grid, layer, size, 0, 0, cv::INTER_CUBIC);
    cv::scaleAdd(layer, amplitude, sum, sum);
    total += amplitude;
    amplitude *= persistence;
  }
  sum /= total;
  return sum;
}

}  // namespace diskref::simulator
