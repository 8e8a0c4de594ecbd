#pragma once
// Test support: the real photographs in tests/data/real-apriltag-photos (tag36h11, the apriltag
// library's own regression photos) and their reference detections, for the detector's tests and
// the photo dispute's: read the references, and check a detection against them.

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <opencv2/core.hpp>

#include "vision/apriltag_detector.h"

namespace diskref::vision::testing {

inline std::filesystem::path real_photos_dir() {
  return std::filesystem::path(DISKREF_TEST_DATA_DIR) / "real-apriltag-photos";
}

struct Reference {
  int id;
  std::array<cv::Point2d, 4> corners;  // apriltag convention (centres at i + 0.5)
};

inline std::vector<Reference> read_reference(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::vector<Reference> out;
  std::string line;
  while (std::getline(in, line)) {
    Reference r{};
    double p[8];
    if (std::sscanf(line.c_str(), "%d, (%lf %lf), (%lf %lf), (%lf %lf), (%lf %lf)", &r.id, &p[0], &p[1], &p[2], &p[3],
                    &p[4], &p[5], &p[6], &p[7]) != 9)
      continue;
    for (int k = 0; k < 4; ++k) r.corners[static_cast<std::size_t>(k)] = {p[2 * k], p[2 * k + 1]};
    out.push_back(r);
  }
  return out;
}

// Every reference tag found with all corners within 1 px, and nothing extra.
inline void expect_matches_reference(const std::vector<TagDetection>& found, const std::vector<Reference>& reference) {
  std::vector<bool> matched(found.size(), false);
  for (const auto& ref : reference) {
    double best = 1e9;
    std::size_t best_index = found.size();
    for (std::size_t i = 0; i < found.size(); ++i) {
      if (found[i].id != ref.id || matched[i]) continue;
      double worst_corner = 0;
      for (std::size_t k = 0; k < 4; ++k) {
        // Reference corners are in apriltag's convention; ours in OpenCV's.
        cv::Point2d ref_cv = ref.corners[k] - cv::Point2d(0.5, 0.5);
        worst_corner = std::max(worst_corner, cv::norm(found[i].corners[k] - ref_cv));
      }
      if (worst_corner < best) {
        best = worst_corner;
        best_index = i;
      }
    }
    ASSERT_LT(best_index, found.size()) << "reference tag " << ref.id << " not found";
    EXPECT_LT(best, 1.0) << "tag " << ref.id;
    matched[best_index] = true;
  }
  for (std::size_t i = 0; i < found.size(); ++i) EXPECT_TRUE(matched[i]) << "extra detection of id " << found[i].id;
}

// The reference detections were made with the library's defaults for this family (2 corrected
// bits; tag36h11 has a minimum Hamming distance of 11, so that is safe), full resolution and no
// edge refinement.
inline DetectorOptions reference_options() {
  DetectorOptions options;
  options.family = "tag36h11";
  options.quad_decimate = 1.0;
  options.refine_edges = false;
  options.max_hamming = 2;
  return options;
}

}  // namespace diskref::vision::testing
