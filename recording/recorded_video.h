#pragma once
// A recording's video read back (spec §11, DIR/video, as VideoRecorder writes it): the frames
// frames.jsonl lists, each a JPEG image at an offset in a segment-NNNNNN.mjpeg file.
//
// A recording may have been cut short by a kill or a power cut, and it is evidence: reading it
// keeps everything that is there and says what is not. A last line cut short is dropped, a
// garbage line elsewhere is skipped, a frame whose bytes are not all in its segment (the segment
// cut short, or missing) is dropped; each with a warning naming the file. Only a folder without
// frames.jsonl at all is refused.
//
// Thread-safe once opened: read() opens the segment for each call and keeps no state.

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
  long long frame = 0;   // the frame's index in its source (gaps where frames were dropped)
  double t = 0;          // its time (s)
  int segment = 0;       // segment-NNNNNN.mjpeg
  long long offset = 0;  // where its JPEG starts in the segment
  long long bytes = 0;   // its JPEG's size
};

class RecordedVideo {
 public:
  // Reads video_dir/frames.jsonl (see above). Throws io::InputError naming the folder only when
  // there is no frames.jsonl in it (or it cannot be read at all).
  static RecordedVideo open(const std::filesystem::path& video_dir);

  const std::filesystem::path& dir() const { return dir_; }
  // In the order recorded.
  const std::vector<RecordedVideoFrame>& frames() const { return frames_; }
  // What was dropped or skipped, and why ("video/frames.jsonl: line 12: ... skipped").
  const std::vector<std::string>& warnings() const { return warnings_; }

  // Decodes frame i (an index into frames()), as recorded: 8-bit BGR, or grey. Throws
  // io::InputError naming the segment and the offset when its bytes are not a JPEG image or
  // cannot be read; std::out_of_range for an i past the end.
  cv::Mat read(std::size_t i) const;
  // Frame i's JPEG bytes as recorded (checked to be framed as a JPEG, not decoded); throws as read().
  std::vector<unsigned char> read_jpeg(std::size_t i) const;
  // The last frame recorded at or before time t (nullopt if none).
  std::optional<std::size_t> at_or_before(double t) const;
  // The latest frame's t minus the earliest's (0 with fewer than two frames).
  double duration_s() const;

  std::filesystem::path segment_path(int segment) const;

 private:
  std::filesystem::path dir_;
  std::vector<RecordedVideoFrame> frames_;
  std::vector<std::string> warnings_;
  bool times_in_order_ = true;  // t never goes back: at_or_before() can search by halves
};

// A vision::FrameSource over a recording's video: its frames in order with their own recorded
// index and t; it can seek (to the first frame recorded at or after an index); a frame whose JPEG
// is corrupt is skipped and counted as a video file's bad frame. Throws io::InputError naming the
// folder when there is no frames.jsonl or no frame that decodes.
std::unique_ptr<vision::FrameSource> open_recorded_video(const std::filesystem::path& video_dir);

}  // namespace diskref::recording
