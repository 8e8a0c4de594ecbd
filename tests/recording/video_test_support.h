#pragma once
// What the video tests share: a scratch folder per test, pictures that differ from frame to frame
// (so that a frame read back in the wrong place is noticed), and how close a JPEG came back.
#include <unistd.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

namespace diskref::recording::testing {

// An empty folder for the running test: build/test-output/recording/<suite>.<test>-<process id>
// (its own, when another copy of the tests runs at the same time).
inline std::filesystem::path scratch_folder() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  const std::filesystem::path dir =
      std::filesystem::path(DISKREF_BINARY_DIR) / "test-output" / "recording" /
      (std::string(info->test_suite_name()) + "." + info->name() + "-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

// A smooth BGR picture (JPEG keeps it well) with a bar whose place and colour tell frame i.
inline cv::Mat test_picture(long long i, cv::Size size = {160, 120}) {
  cv::Mat image(size, CV_8UC3);
  for (int y = 0; y < size.height; ++y)
    for (int x = 0; x < size.width; ++x)
      image.at<cv::Vec3b>(y, x) =
          cv::Vec3b(static_cast<unsigned char>(255 * x / size.width), static_cast<unsigned char>(255 * y / size.height),
                    static_cast<unsigned char>(100));
  const int bar_x = static_cast<int>((i * 7) % (size.width - 16));
  cv::rectangle(image, cv::Rect(bar_x, size.height / 4, 16, size.height / 2),
                cv::Scalar(static_cast<double>((i * 37) % 256), 255, 255), cv::FILLED);
  return image;
}

inline double mean_abs_diff(const cv::Mat& a, const cv::Mat& b) {
  cv::Mat diff;
  cv::absdiff(a, b, diff);
  const cv::Scalar per_channel = cv::mean(diff);
  double sum = 0;
  for (int c = 0; c < a.channels(); ++c) sum += per_channel[c];
  return sum / a.channels();
}

inline std::string slurp(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

inline void write_bytes(const std::filesystem::path& file, const std::string& bytes) {
  std::ofstream(file, std::ios::binary | std::ios::trunc) << bytes;
}

}  // namespace diskref::recording::testing
