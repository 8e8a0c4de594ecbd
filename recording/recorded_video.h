#pragma once
// A recording's pictures read back (spec §11's DIR/video, written by VideoRecorder): the index
// frames.jsonl, and each frame decoded from its segment when asked. Read as a crash leaves it: a
// last index line cut short is dropped, a garbage line skipped, and a frame whose bytes are not in
// its segment (the segment cut short or gone) dropped; each said once, the rest kept.

#include <cstddef>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <opencv2/core.hpp>

#include "vision/frame_source.h"

namespace diskref::recording {

struct RecordedVideoFrame {
  long long frame = 0;
  double t = 0;
  int segment = 0;
  long long offset = 0;
  long long bytes = 0;
};

class RecordedVideo {
 public:
  // Throws io::InputError naming the folder only when there is no frames.jsonl at all.
  static RecordedVideo open(const std::filesystem::path& video_dir);

  const std::vector<RecordedVideoFrame>& frames() const { return frames_; }
  const std::vector<std::string>& warnings() const { return warnings_; }
  // Decodes frame i (an index into frames()). Throws io::InputError naming the segment and
  // offset when its bytes are not a JPEG image.
  cv::Mat read(std::size_t i) const;
  // The last frame at or before `t`.
  std::optional<std::size_t> at_or_before(double t) const;
  double duration_s() const;
  std::filesystem::path segment_file(int segment) const;

 private:
  std::filesystem::path dir_;
  std::vector<RecordedVideoFrame> frames_;
  std::vector<std::string> warnings_;
};

// The recorded frames as a frame source (their own index and time; seeking works; a frame that
// does not decode is skipped and counted, as a video file's is).
std::unique_ptr<vision::FrameSource> open_recorded_video(const std::filesystem::path& video_dir);

}  // namespace diskref::recording
