#pragma once
// Command inputs that may be still images or videos (diskref calibrate, diskref table): telling
// them apart and reading them as 8-bit grey frames.

#include <filesystem>

#include <opencv2/core.hpp>

namespace diskref::cli {

// True when OpenCV can decode the file as a still image (by its contents, not its name).
// Throws InputError when the file does not exist or is not a regular file.
bool is_image_file(const std::filesystem::path& file);

// Reads a still image as 8-bit grey. Throws InputError naming the file when it cannot.
cv::Mat read_gray_image(const std::filesystem::path& file);

// 8-bit grey from a decoded frame (grey, BGR or BGRA).
cv::Mat to_gray(const cv::Mat& image);

}  // namespace diskref::cli
