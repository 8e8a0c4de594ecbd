// Frame sources: a video's frames with their numbers and times; a corrupt frame in the middle is
// skipped and counted while the frames after it keep their own numbers; what cannot be read is a
// clear InputError.
#include "vision/frame_source.h"

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>
#include <opencv2/imgproc.hpp>
#include <opencv2/videoio.hpp>

#include "engine/io/input_error.h"

namespace diskref::vision {
namespace {

namespace fs = std::filesystem;

fs::path temp_dir() {
  fs::path dir = fs::temp_directory_path() / ("diskref_frame_source_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return dir;
}

// Frame i is uniformly grey at level 8 * i (so a frame says which it is), MJPG: one JPEG each.
fs::path write_video(const fs::path& file, int frames, double fps) {
  cv::VideoWriter writer(file.string(), cv::CAP_FFMPEG, cv::VideoWriter::fourcc('M', 'J', 'P', 'G'), fps, {160, 120});
  for (int i = 0; i < frames; ++i) writer.write(cv::Mat(120, 160, CV_8UC3, cv::Scalar::all(8.0 * i)));
  return file;
}

long long level_of(const cv::Mat& image) {
  return std::llround(cv::mean(image)[0] / 8.0);
}

TEST(VideoFileSource, GivesEveryFrameWithItsNumberAndTime) {
  const fs::path file = write_video(temp_dir() / "good.avi", 20, 10.0);
  auto source = open_video_file(file);
  EXPECT_DOUBLE_EQ(source->frames_per_second(), 10.0);
  EXPECT_EQ(source->frame_count(), 20);
  EXPECT_EQ(source->frame_size(), cv::Size(160, 120));
  long long expected = 0;
  while (auto frame = source->next()) {
    EXPECT_EQ(frame->index, expected);
    EXPECT_NEAR(frame->t, static_cast<double>(expected) / 10.0, 1e-9);
    EXPECT_EQ(level_of(frame->image), expected);
    ++expected;
  }
  EXPECT_EQ(expected, 20);
  EXPECT_EQ(source->corrupt_frames_skipped(), 0);
}

TEST(VideoFileSource, SeeksToExactlyTheFrameAskedFor) {
  const fs::path file = write_video(temp_dir() / "seek.avi", 20, 10.0);
  auto source = open_video_file(file);
  ASSERT_TRUE(source->can_seek());
  source->next();
  for (long long to : {13LL, 2LL, 0LL, 19LL}) {
    source->seek(to);
    std::optional<Frame> frame = source->next();
    ASSERT_TRUE(frame) << "seek to " << to;
    EXPECT_EQ(frame->index, to);
    EXPECT_NEAR(frame->t, static_cast<double>(to) / 10.0, 1e-9);
    EXPECT_EQ(level_of(frame->image), to) << "the picture of frame " << to;
  }
  EXPECT_FALSE(source->next()) << "frame 19 was the last";
  source->seek(500);
  EXPECT_FALSE(source->next()) << "past the end";
}

TEST(VideoFileSource, SkipsAndCountsACorruptFrameInTheMiddle) {
  const fs::path good = write_video(temp_dir() / "to_corrupt.avi", 20, 10.0);
  std::string data(static_cast<std::size_t>(fs::file_size(good)), '\0');
  std::ifstream(good, std::ios::binary).read(data.data(), static_cast<std::streamsize>(data.size()));
  // Overwrite the start of frame 9's JPEG (its 10th start-of-image marker) with junk.
  std::vector<std::size_t> starts;
  for (std::size_t i = 0; i + 1 < data.size(); ++i)
    if (static_cast<unsigned char>(data[i]) == 0xFF && static_cast<unsigned char>(data[i + 1]) == 0xD8)
      starts.push_back(i);
  ASSERT_EQ(starts.size(), 20u);
  for (std::size_t k = starts[9]; k < starts[9] + 300; ++k) data[k] = 'Z';
  const fs::path bad = temp_dir() / "corrupt.avi";
  std::ofstream(bad, std::ios::binary) << data;

  auto source = open_video_file(bad);
  std::vector<long long> indices;
  while (auto frame = source->next()) {
    EXPECT_EQ(level_of(frame->image), frame->index) << "frame numbers stay the video's own";
    EXPECT_NEAR(frame->t, static_cast<double>(frame->index) / 10.0, 1e-9);
    indices.push_back(frame->index);
  }
  ASSERT_EQ(indices.size(), 19u);
  EXPECT_EQ(std::count(indices.begin(), indices.end(), 9), 0);
  EXPECT_EQ(indices.back(), 19);
  EXPECT_EQ(source->corrupt_frames_skipped(), 1);
}

TEST(VideoFileSource, WhatCannotBeReadIsAnInputErrorNamingTheFile) {
  const fs::path dir = temp_dir();
  EXPECT_THROW(open_video_file(dir / "missing.mp4"), io::InputError);
  const fs::path text = dir / "not_a_video.mp4";
  std::ofstream(text) << "this is not a video\n";
  try {
    open_video_file(text);
    FAIL() << "a text file opened as a video";
  } catch (const io::InputError& e) {
    EXPECT_EQ(e.file(), text.string());
    EXPECT_NE(e.problem().find("video"), std::string::npos);
  }
  EXPECT_THROW(open_video_file(dir), io::InputError);
}

TEST(CameraSource, AMissingDeviceIsAnInputError) {
  CameraOptions options;
  options.device = "/dev/video-diskref-none";
  EXPECT_THROW(open_camera(options), io::InputError);
}

}  // namespace
}  // namespace diskref::vision
