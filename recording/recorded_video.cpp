#include "recording/recorded_video.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <map>
#include <stdexcept>
#include <system_error>

#include <fmt/format.h>
#include <opencv2/imgcodecs.hpp>

#include "engine/io/input_error.h"
#include "engine/io/json_cursor.h"
#include "engine/io/jsonl.h"
#include "engine/io/write_error.h"

namespace diskref::recording {
namespace fs = std::filesystem;

namespace {

// One line of frames.jsonl; throws io::InputError naming the line.
RecordedVideoFrame parse_frame(const io::JsonCursor& c) {
  RecordedVideoFrame f;
  f.frame = c.at("frame").integer();
  f.t = c.at("t").number();
  f.segment = c.at("segment").int_in(0, 999999);
  f.offset = c.at("offset").integer();
  if (f.offset < 0) c.at("offset").fail("must be >= 0");
  f.bytes = c.at("bytes").integer();
  if (f.bytes <= 0) c.at("bytes").fail("must be > 0");
  return f;
}

std::string frame_range(long long first, long long last) {
  return first == last ? fmt::format("frame {}", first) : fmt::format("frames {} to {}", first, last);
}

}  // namespace

fs::path RecordedVideo::segment_path(int segment) const {
  return dir_ / fmt::format("segment-{:06d}.mjpeg", segment);
}

RecordedVideo RecordedVideo::open(const fs::path& video_dir) {
  RecordedVideo video;
  video.dir_ = video_dir;
  const fs::path index = video_dir / "frames.jsonl";
  std::error_code ec;
  if (!fs::exists(index, ec))
    throw io::InputError(video_dir.string(), "",
                         fs::is_directory(video_dir, ec) ? "has no frames.jsonl: it is not a recording's video folder"
                                                         : "does not exist (a recording's video folder was expected)");
  // The lines: a last one cut short is dropped, a bad one elsewhere skipped; neither stops reading.
  std::vector<RecordedVideoFrame> listed;
  io::read_jsonl_skipping_bad_lines(
      index, [&](const io::JsonCursor& c) { listed.push_back(parse_frame(c)); }, video.warnings_);

  // The frames whose bytes are all in their segment; the others dropped, said once per segment.
  std::map<int, std::optional<std::uintmax_t>> sizes;  // segment -> its file's size (nullopt: missing)
  struct Dropped {
    long long count = 0, first = 0, last = 0;
  };
  std::map<int, Dropped> dropped;
  for (const RecordedVideoFrame& f : listed) {
    auto [it, added] = sizes.try_emplace(f.segment);
    if (added) {
      const std::uintmax_t size = fs::file_size(video.segment_path(f.segment), ec);
      if (!ec) it->second = size;
    }
    const auto offset = static_cast<std::uintmax_t>(f.offset), bytes = static_cast<std::uintmax_t>(f.bytes);
    if (it->second && offset <= *it->second && bytes <= *it->second - offset) {
      video.frames_.push_back(f);
      continue;
    }
    Dropped& d = dropped[f.segment];
    if (d.count++ == 0) d.first = f.frame;
    d.last = f.frame;
  }
  for (const auto& [segment, d] : dropped) {
    const std::optional<std::uintmax_t>& size = sizes[segment];
    const std::string name = video.segment_path(segment).string();
    video.warnings_.push_back(
        size ? fmt::format(
                   "{}: cut short at {} bytes (the recording stopped while writing it); {} frame(s) whose bytes are "
                   "not all in it are dropped ({})",
                   name, *size, d.count, frame_range(d.first, d.last))
             : fmt::format("{}: missing; its {} frame(s) are dropped ({})", name, d.count,
                           frame_range(d.first, d.last)));
  }
  video.times_in_order_ =
      std::is_sorted(video.frames_.begin(), video.frames_.end(),
                     [](const RecordedVideoFrame& a, const RecordedVideoFrame& b) { return a.t < b.t; });
  return video;
}

cv::Mat RecordedVideo::read(std::size_t i) const {
  const std::vector<unsigned char> jpeg = read_jpeg(i);
  cv::Mat image = cv::imdecode(jpeg, cv::IMREAD_UNCHANGED);
  if (image.empty()) {
    const RecordedVideoFrame& f = frames_[i];
    throw io::InputError(
        segment_path(f.segment).string(), fmt::format("offset {}", f.offset),
        fmt::format("frame {}: its {} bytes are not a JPEG image that decodes (corrupt)", f.frame, f.bytes));
  }
  return image;
}

std::vector<unsigned char> RecordedVideo::read_jpeg(std::size_t i) const {
  if (i >= frames_.size())
    throw std::out_of_range(fmt::format("RecordedVideo::read: frame {} asked of {} recorded", i, frames_.size()));
  const RecordedVideoFrame& f = frames_[i];
  const fs::path segment = segment_path(f.segment);
  const std::string where = fmt::format("offset {}", f.offset);
  const int fd = ::open(segment.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    const int e = errno;
    throw io::InputError(segment.string(), where,
                         fmt::format("frame {} cannot be read: {}", f.frame, io::system_reason(e)));
  }
  std::vector<unsigned char> jpeg(static_cast<std::size_t>(f.bytes));
  std::size_t done = 0;
  int error = 0;
  while (done < jpeg.size()) {
    const ssize_t n =
        ::pread(fd, jpeg.data() + done, jpeg.size() - done, static_cast<off_t>(f.offset) + static_cast<off_t>(done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      error = n < 0 ? errno : 0;
      break;
    }
    done += static_cast<std::size_t>(n);
  }
  ::close(fd);
  if (done < jpeg.size())
    throw io::InputError(
        segment.string(), where,
        error ? fmt::format("frame {} cannot be read: {}", f.frame, io::system_reason(error))
              : fmt::format("frame {}: the segment ends before its {} bytes (cut short since it was opened)", f.frame,
                            f.bytes));
  // A JPEG starts with SOI (FF D8) and ends with EOI (FF D9): bytes that do not are not the frame.
  const bool framed = jpeg.size() >= 4 && jpeg[0] == 0xFF && jpeg[1] == 0xD8 && jpeg[jpeg.size() - 2] == 0xFF &&
                      jpeg[jpeg.size() - 1] == 0xD9;
  if (!framed)
    throw io::InputError(
        segment.string(), where,
        fmt::format("frame {}: its {} bytes are not a JPEG image that decodes (corrupt)", f.frame, f.bytes));
  return jpeg;
}

std::optional<std::size_t> RecordedVideo::at_or_before(double t) const {
  if (times_in_order_) {
    const auto it = std::upper_bound(frames_.begin(), frames_.end(), t,
                                     [](double value, const RecordedVideoFrame& f) { return value < f.t; });
    if (it == frames_.begin()) return std::nullopt;
    return static_cast<std::size_t>(it - frames_.begin()) - 1;
  }
  // The time went back somewhere (a new source): the latest frame at or before t, the last recorded on a tie.
  std::optional<std::size_t> best;
  for (std::size_t i = 0; i < frames_.size(); ++i)
    if (frames_[i].t <= t && (!best || frames_[i].t >= frames_[*best].t)) best = i;
  return best;
}

double RecordedVideo::duration_s() const {
  if (frames_.size() < 2) return 0;
  const auto [lo, hi] =
      std::minmax_element(frames_.begin(), frames_.end(),
                          [](const RecordedVideoFrame& a, const RecordedVideoFrame& b) { return a.t < b.t; });
  return hi->t - lo->t;
}

}  // namespace diskref::recording
