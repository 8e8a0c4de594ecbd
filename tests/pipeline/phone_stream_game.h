#pragma once
// Test support for `diskref referee --camera URL` on a sample game served as a phone's stream
// (tests/vision/mjpeg_stream_server.h): the video's frames as the phone's app sends them, and the
// sample's setup as the command takes it.

#include <filesystem>
#include <string>
#include <vector>

#include <opencv2/imgcodecs.hpp>
#include <opencv2/videoio.hpp>

namespace diskref::pipeline::testing {

// The video's first `count` frames (all of them when count < 0), each a JPEG of `quality` (phone
// apps send 80–95).
inline std::vector<std::vector<unsigned char>> video_as_jpegs(const std::filesystem::path& video, long long count,
                                                              int quality) {
  cv::VideoCapture capture(video.string(), cv::CAP_FFMPEG);
  std::vector<std::vector<unsigned char>> out;
  cv::Mat frame;
  while ((count < 0 || static_cast<long long>(out.size()) < count) && capture.read(frame)) {
    out.emplace_back();
    cv::imencode(".jpg", frame, out.back(), {cv::IMWRITE_JPEG_QUALITY, quality});
  }
  return out;
}

// --table, --disks, --calib and --game of the sample in `sample` (its inputs are the test's to give).
inline std::vector<std::string> sample_setup_args(const std::filesystem::path& sample) {
  return {"--table", (sample / "table.json").string(),  "--disks", (sample / "disks.json").string(),
          "--calib", (sample / "camera.json").string(), "--game",  (sample / "game.json").string()};
}

}  // namespace diskref::pipeline::testing
