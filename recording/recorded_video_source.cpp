// open_recorded_video (recorded_video.h): a recording's video as a vision::FrameSource, so that
// whatever tracks a video file or a camera can track a recording again (`--retrack`).
#include <algorithm>

#include <opencv2/imgcodecs.hpp>

#include "engine/io/input_error.h"
#include "recording/recorded_video.h"

namespace diskref::recording {
namespace {

class RecordedVideoSource final : public vision::FrameSource {
 public:
  explicit RecordedVideoSource(RecordedVideo video) : video_(std::move(video)) {
    const auto& frames = video_.frames();
    indices_in_order_ =
        std::is_sorted(frames.begin(), frames.end(),
                       [](const RecordedVideoFrame& a, const RecordedVideoFrame& b) { return a.frame < b.frame; });
    if (frames.empty()) throw io::InputError(video_.dir().string(), "", "has no recorded frame");
    // The first frame that decodes gives the size (and is the first next() returns).
    pending_ = read_next();
    if (!pending_)
      throw io::InputError(video_.dir().string(), "", "has no recorded frame that decodes (every JPEG is corrupt)");
    size_ = pending_->image.size();
    // The source's rate from its own numbering (frames dropped leave gaps in it, not in time).
    const double span_t = frames.back().t - frames.front().t;
    const auto span_frames = static_cast<double>(frames.back().frame - frames.front().frame);
    if (span_t > 0 && span_frames > 0) fps_ = span_frames / span_t;
  }

  std::optional<vision::Frame> next() override {
    if (pending_) {
      std::optional<vision::Frame> f = std::move(pending_);
      pending_.reset();
      return f;
    }
    return read_next();
  }
  double frames_per_second() const override { return fps_; }
  // As for a video file, one past the last frame's index (seek() and a progress bar count in it).
  std::optional<long long> frame_count() const override { return video_.frames().back().frame + 1; }
  long long corrupt_frames_skipped() const override { return skipped_; }
  cv::Size frame_size() const override { return size_; }
  std::string description() const override { return video_.dir().string(); }
  bool can_seek() const override { return true; }
  void seek(long long index) override {
    const auto& frames = video_.frames();
    auto at_or_after = [&](const RecordedVideoFrame& f) { return f.frame >= index; };
    const auto it = indices_in_order_
                        ? std::partition_point(frames.begin(), frames.end(),
                                               [&](const RecordedVideoFrame& f) { return !at_or_after(f); })
                        : std::find_if(frames.begin(), frames.end(), at_or_after);
    pending_.reset();
    next_ = static_cast<std::size_t>(it - frames.begin());
  }

 private:
  std::optional<vision::Frame> read_next() {
    const auto& frames = video_.frames();
    while (next_ < frames.size()) {
      const std::size_t i = next_++;
      try {
        // The bytes go with the picture: a recording of this source stores them as they are.
        auto jpeg = std::make_shared<const std::vector<unsigned char>>(video_.read_jpeg(i));
        cv::Mat image = cv::imdecode(*jpeg, cv::IMREAD_UNCHANGED);
        if (image.empty()) {
          ++skipped_;
          continue;
        }
        return vision::Frame{std::move(image), frames[i].frame, frames[i].t, std::move(jpeg)};
      } catch (const io::InputError&) {
        ++skipped_;
      }
    }
    return std::nullopt;
  }

  RecordedVideo video_;
  bool indices_in_order_ = true;
  std::size_t next_ = 0;
  std::optional<vision::Frame> pending_;
  long long skipped_ = 0;
  cv::Size size_;
  double fps_ = 0;
};

}  // namespace

std::unique_ptr<vision::FrameSource> open_recorded_video(const std::filesystem::path& video_dir) {
  return std::make_unique<RecordedVideoSource>(RecordedVideo::open(video_dir));
}

}  // namespace diskref::recording
