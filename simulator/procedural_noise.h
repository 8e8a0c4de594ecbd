#pragma once
// Smooth random fields for procedural textures (table cloth, wood, starfield nebula, walls):
// sums of random coarse grids upsampled with bicubic interpolation ("value noise"), seeded.

#include <opencv2/core.hpp>

#include "engine/random/splitmix64.h"

namespace diskref::simulator {

// A CV_32F field of `size` with values around 0 (roughly in [-1, 1]): `octaves` layers, the first
// with about `cells_across` random values across the larger side, each next layer twice as fine
// and `persistence` times as strong.
cv::Mat fractal_noise(cv::Size size, double cells_across, int octaves, double persistence, random::SplitMix64& rng);

}  // namespace diskref::simulator
