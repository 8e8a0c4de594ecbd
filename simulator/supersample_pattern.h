#pragma once
// Where a rendered pixel is sampled (the renderer's box filter), as offsets from the pixel centre
// in (-0.5, 0.5).
//
// A pixel of a real camera integrates the light over its whole area, so an edge's place in the
// picture moves continuously with the edge. A renderer that samples N points only gets N steps
// of coverage, and an edge whose samples fall in few distinct places across it is put in the
// wrong place by up to half a step: a bias of the detected corners that no real camera has, and
// that averaging along the edge removes only where the edge crosses pixels at many phases. An
// edge along the pixel grid, or at 45 degrees or any slope of small numerator and denominator,
// crosses every pixel at the same phase (or a few), so it keeps the bias whole.
//
// So the N = n x n samples are stratified (every sample in its own column and its own row of the
// N x N strata: N distinct places across an edge along the grid), no two share a diagonal (N
// distinct places across a 45 degree edge: the permutation is an N-queens solution), and among
// such permutations each was chosen (a search by simulated annealing, once) for the smallest
// worst gap between neighbouring samples across edges of slopes 0, infinite, ±1, ±2, ±1/2, ±3,
// ±1/3, ±3/2 and ±2/3. The old pattern (rows and columns distinct, diagonals not) placed a 45
// degree edge in steps of 1/(2n-1) instead of 1/N and biased the duel sample's diagonal tags by
// up to 0.14 px.

#include <vector>

#include <opencv2/core.hpp>

namespace diskref::simulator {

// The n x n sample offsets (n in [1, 8]); their mean is exactly the pixel centre.
std::vector<cv::Point2d> supersample_offsets(int n);

// The finest pattern (8 x 8): what the renderer samples again a pixel whose first samples differ
// (an edge runs through it), so that edges are placed as a real pixel's integral places them.
const std::vector<cv::Point2d>& edge_supersample_offsets();

// A pixel whose first samples' luminances (linear) differ by more than this has an edge running
// through it: it is sampled again with the fine pattern. Far above the cloth's texture within a
// pixel, far below a tag's or a disk's edge. (The video's renderer and the still photo's.)
inline constexpr float kEdgeContrast = 0.02f;

// Linear luminance of a BGR colour (Rec. 601 weights).
inline float luminance(const cv::Vec3f& bgr) {
  return 0.114f * bgr[0] + 0.587f * bgr[1] + 0.299f * bgr[2];
}

}  // namespace diskref::simulator
