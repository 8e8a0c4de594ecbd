#include "recording/recorded_video.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <set>

#include <fmt/format.h>
#include <opencv2/imgcodecs.hpp>

#include "engine/io/input_error.h"
#include "engine/io/jsonl.h"
#include "engine/model/bounds.h"

namespace diskref::recording {
namespace fs = std::filesystem;

fs::path RecordedVideo::segment_file(int segment) const { return dir_ / fmt::format("segment-{:06d}.mjpeg", segment); }

RecordedVideo RecordedVideo::open(const fs::path& video_dir) {
  RecordedVideo v;
  v.dir_ = video_dir;
  const fs::path index = video_dir / "frames.jsonl";
  if (!fs::exists(index))
    throw io::InputError(video_dir.string(), "", "has no frames.jsonl: it is not a recording's video folder");
  std::vector<RecordedVideoFrame> listed;
  io::read_jsonl_skipping_bad_lines(index, [&](const io::JsonCursor& c) {
    RecordedVideoFrame f;
    f.frame = model::bounds::frame_index(c.at("frame"));
    f.t = model::bounds::time_s(c.at("t"));
    f.segment = c.at("segment").int_in(0, 99999999);
    f.offset = static_cast<long long>(c.at("offset").non_negative_number());
    f.bytes = static_cast<long long>(c.at("bytes").positive_number());
    listed.push_back(f);
  }, v.warnings_);
  // Each frame's bytes must be in its segment: a segment cut short (or gone) loses its tail.
  std::map<int, std::uintmax_t> sizes;
  std::map<int, long long> lost;
  for (const RecordedVideoFrame& f : listed) {
    if (!sizes.count(f.segment)) {
      std::error_code ec;
      const std::uintmax_t size = fs::file_size(v.segment_file(f.segment), ec);
      sizes[f.segment] = ec ? 0 : size;
    }
    if (static_cast<std::uintmax_t>(f.offset + f.bytes) <= sizes[f.segment]) v.frames_.push_back(f);
    else ++lost[f.segment];
  }
  for (const auto& [segment, n] : lost)
    v.warnings_.push_back(fmt::format("{}: {} ({} frame(s) of it lost; the others are shown)", v.segment_file(segment).string(),
                                      sizes[segment] == 0 ? "missing or empty" : "cut short", n));
  return v;
}

cv::Mat RecordedVideo::read(std::size_t i) const {
  const RecordedVideoFrame& f = frames_.at(i);
  const fs::path file = segment_file(f.segment);
  std::ifstream in(file, std::ios::binary);
  std::vector<unsigned char> bytes(static_cast<std::size_t>(f.bytes));
  in.seekg(f.offset);
  in.read(reinterpret_cast<char*>(bytes.data()), f.bytes);
  cv::Mat image;
  if (in) image = cv::imdecode(bytes, cv::IMREAD_COLOR);
  if (image.empty())
    throw io::InputError(file.string(), fmt::format("offset {}", f.offset),
                         fmt::format("frame {} is not a JPEG image (the segment is damaged)", f.frame));
  return image;
}

std::optional<std::size_t> RecordedVideo::at_or_before(double t) const {
  auto it = std::upper_bound(frames_.begin(), frames_.end(), t, [](double x, const RecordedVideoFrame& f) { return x < f.t; });
  if (it == frames_.begin()) return std::nullopt;
  return static_cast<std::size_t>(it - frames_.begin() - 1);
}

double RecordedVideo::duration_s() const { return frames_.empty() ? 0.0 : frames_.back().t - frames_.front().t; }

namespace {

class RecordedVideoSource : public vision::FrameSource {
 public:
  explicit RecordedVideoSource(const fs::path& dir) : video_(RecordedVideo::open(dir)), dir_(dir) {
    if (video_.frames().empty()) throw io::InputError(dir.string(), "", "holds no recorded frame");
    for (std::size_t i = 0; i < video_.frames().size() && size_.area() == 0; ++i) {
      try {
        size_ = video_.read(i).size();
      } catch (const io::InputError&) {
        ++corrupt_;
      }
    }
    if (size_.area() == 0) throw io::InputError(dir.string(), "", "no recorded frame can be decoded");
    const double span = video_.duration_s();
    fps_ = span > 0 ? static_cast<double>(video_.frames().size() - 1) / span : 30.0;
  }
  std::optional<vision::Frame> next() override {
    while (next_ < video_.frames().size()) {
      const std::size_t i = next_++;
      try {
        return vision::Frame{video_.read(i), video_.frames()[i].frame, video_.frames()[i].t};
      } catch (const io::InputError&) {
        ++corrupt_;  // skipped, as a video file's undecodable frame is
      }
    }
    return std::nullopt;
  }
  double frames_per_second() const override { return fps_; }
  std::optional<long long> frame_count() const override {
    // The source's own numbering: the last recorded frame's index + 1 (frames may be missing).
    return video_.frames().back().frame + 1;
  }
  long long corrupt_frames_skipped() const override { return corrupt_; }
  cv::Size frame_size() const override { return size_; }
  std::string description() const override { return "recorded video " + dir_.string(); }
  bool can_seek() const override { return true; }
  void seek(long long index) override {
    // To the first recorded frame at or after that index.
    const auto& f = video_.frames();
    next_ = static_cast<std::size_t>(std::lower_bound(f.begin(), f.end(), index, [](const RecordedVideoFrame& a, long long i) {
                                       return a.frame < i;
                                     }) - f.begin());
  }

 private:
  RecordedVideo video_;
  fs::path dir_;
  cv::Size size_;
  double fps_ = 30;
  std::size_t next_ = 0;
  long long corrupt_ = 0;
};

}  // namespace

std::unique_ptr<vision::FrameSource> open_recorded_video(const fs::path& video_dir) {
  return std::make_unique<RecordedVideoSource>(video_dir);
}

}  // namespace diskref::recording
