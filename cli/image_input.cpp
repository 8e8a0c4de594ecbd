#include "cli/image_input.h"

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "engine/io/input_error.h"

namespace diskref::cli {

bool is_image_file(const std::filesystem::path& file) {
  if (!std::filesystem::exists(file)) throw io::InputError(file.string(), "", "does not exist");
  if (!std::filesystem::is_regular_file(file)) throw io::InputError(file.string(), "", "is not a file");
  return cv::haveImageReader(file.string());
}

cv::Mat read_gray_image(const std::filesystem::path& file) {
  cv::Mat gray = cv::imread(file.string(), cv::IMREAD_GRAYSCALE);
  if (gray.empty()) throw io::InputError(file.string(), "", "cannot be read as an image (corrupt or truncated?)");
  return gray;
}

cv::Mat to_gray(const cv::Mat& image) {
  if (image.channels() == 1) return image;
  cv::Mat gray;
  cv::cvtColor(image, gray, image.channels() == 4 ? cv::COLOR_BGRA2GRAY : cv::COLOR_BGR2GRAY);
  return gray;
}

}  // namespace diskref::cli
