#include "simulator/supersample_pattern.h"

#include <array>
#include <stdexcept>
#include <string>

namespace diskref::simulator {
namespace {

// Per N = n x n: the row of the stratum the sample in column k takes (supersample_pattern.h says
// how they were chosen; tests/simulator check the properties).
const std::array<std::vector<int>, 9>& permutations() {
  static const std::array<std::vector<int>, 9> p = {{
      {},
      {0},
      {2, 0, 3, 1},
      {2, 0, 7, 3, 8, 6, 4, 1, 5},
      {13, 5, 2, 9, 15, 3, 11, 8, 1, 12, 6, 0, 14, 7, 4, 10},
      {2, 23, 19, 10, 13, 3, 20, 7, 11, 0, 15, 21, 18, 9, 4, 12, 24, 6, 17, 1, 8, 22, 14, 16, 5},
      {28, 3,  23, 33, 13, 8, 25, 5,  12, 14, 35, 27, 30, 6,  0,  29, 10, 24,
       9,  20, 26, 31, 11, 1, 19, 15, 34, 7,  4,  21, 18, 16, 32, 2,  17, 22},
      {48, 13, 2,  26, 31, 36, 28, 24, 19, 8,  20, 35, 47, 39, 12, 5,  44, 32, 14, 4,  41, 7,  23, 1, 40,
       43, 18, 11, 15, 38, 10, 25, 21, 30, 42, 16, 3,  0,  9,  27, 33, 45, 37, 34, 46, 17, 29, 22, 6},
      {17, 59, 22, 29, 2,  43, 58, 49, 47, 1,  40, 35, 27, 18, 20, 26, 45, 8,  25, 54, 52, 9,
       31, 42, 57, 4,  60, 55, 14, 51, 19, 13, 46, 30, 33, 3,  32, 39, 50, 15, 12, 21, 16, 36,
       48, 63, 5,  37, 23, 10, 44, 24, 53, 61, 41, 38, 34, 0,  11, 28, 6,  56, 62, 7},
  }};
  return p;
}

}  // namespace

std::vector<cv::Point2d> supersample_offsets(int n) {
  if (n < 1 || n > 8) throw std::invalid_argument("supersample_offsets: n must be in [1, 8], not " + std::to_string(n));
  const std::vector<int>& rows = permutations()[static_cast<std::size_t>(n)];
  const auto count = static_cast<double>(rows.size());
  std::vector<cv::Point2d> out;
  out.reserve(rows.size());
  for (std::size_t k = 0; k < rows.size(); ++k)
    out.emplace_back((static_cast<double>(k) + 0.5) / count - 0.5, (rows[k] + 0.5) / count - 0.5);
  return out;
}

const std::vector<cv::Point2d>& edge_supersample_offsets() {
  static const std::vector<cv::Point2d> fine = supersample_offsets(8);
  return fine;
}

}  // namespace diskref::simulator
