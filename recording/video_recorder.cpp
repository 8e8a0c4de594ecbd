#include "recording/video_recorder.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <system_error>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <opencv2/imgcodecs.hpp>

#include "engine/io/atomic_write.h"
#include "engine/io/input_error.h"
#include "engine/io/write_error.h"

namespace diskref::recording {
namespace fs = std::filesystem;

VideoRecorder::VideoRecorder(fs::path video_dir, VideoRecorderOptions options)
    : dir_(std::move(video_dir)), options_(options) {
  std::error_code ec;
  fs::create_directories(dir_, ec);
  if (ec) throw io::InputError(dir_.string(), "", "cannot be created: " + ec.message());
  index_ = std::make_unique<io::LineFile>(dir_ / "frames.jsonl", io::LineFile::Mode::append);
  worker_ = std::thread([this] { run(); });
}

VideoRecorder::~VideoRecorder() { finish(); }

void VideoRecorder::add(const cv::Mat& image, long long frame, double t) {
  std::unique_lock lock(mutex_);
  if (stopping_) return;
  if (!failure_.empty()) {
    ++dropped_;
    return;
  }
  if (frames_queued_ >= options_.max_queued) {
    if (!options_.wait_when_full) {
      ++dropped_;
      return;
    }
    room_.wait(lock, [&] { return frames_queued_ < options_.max_queued || stopping_ || !failure_.empty(); });
    if (stopping_) return;
    if (!failure_.empty()) {
      ++dropped_;
      return;
    }
  }
  queue_.push_back({image.clone(), frame, t, std::nullopt});
  ++frames_queued_;
  wake_.notify_one();
}

void VideoRecorder::still(const cv::Mat& image, fs::path path) {
  std::lock_guard lock(mutex_);
  if (stopping_) return;
  queue_.push_back({image.clone(), 0, 0, std::move(path)});
  wake_.notify_one();
}

void VideoRecorder::finish() {
  {
    std::lock_guard lock(mutex_);
    if (stopping_ && !worker_.joinable()) return;
    stopping_ = true;
  }
  wake_.notify_all();
  room_.notify_all();
  if (worker_.joinable()) worker_.join();
}

void VideoRecorder::run() {
  for (;;) {
    Job job;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) break;  // stopping, all written
      job = std::move(queue_.front());
      queue_.pop_front();
      if (!job.still) --frames_queued_;
    }
    room_.notify_one();
    if (job.still) write_still(job);
    else write_frame(job);
  }
  close_segment();
}

void VideoRecorder::fail(std::string what) {
  std::lock_guard lock(mutex_);
  if (failure_.empty()) failure_ = std::move(what);
  // What waits is lost with the rest: counted, so that the failure says how much.
  for (const Job& j : queue_)
    if (!j.still) ++dropped_;
  std::erase_if(queue_, [](const Job& j) { return !j.still; });
  frames_queued_ = 0;
  room_.notify_all();
}

void VideoRecorder::close_segment() {
  if (segment_fd_ < 0) return;
  // Flushed to the disk before the next segment begins: a power cut loses at most the open one.
  ::fdatasync(segment_fd_);
  ::close(segment_fd_);
  segment_fd_ = -1;
}

void VideoRecorder::write_frame(const Job& job) {
  {
    std::lock_guard lock(mutex_);
    if (!failure_.empty()) return;
  }
  std::vector<unsigned char> jpeg;
  if (!cv::imencode(".jpg", job.image, jpeg, {cv::IMWRITE_JPEG_QUALITY, options_.jpeg_quality})) {
    fail(fmt::format("{}: frame {} could not be encoded as JPEG", dir_.string(), job.frame));
    return;
  }
  if (segment_fd_ < 0 || job.t - segment_start_t_ >= options_.segment_s || job.t < segment_start_t_) {
    close_segment();
    ++segment_;
    const fs::path file = dir_ / fmt::format("segment-{:06d}.mjpeg", segment_);
    segment_fd_ = ::open(file.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (segment_fd_ < 0) {
      fail(fmt::format("{}: cannot be created: {}", file.string(), std::strerror(errno)));
      return;
    }
    segment_bytes_ = 0;
    segment_start_t_ = job.t;
  }
  const long long offset = segment_bytes_;
  std::size_t done = 0;
  while (done < jpeg.size()) {
    const ssize_t n = ::write(segment_fd_, jpeg.data() + done, jpeg.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int err = n < 0 ? errno : ENOSPC;
      // Cut back to the last whole frame: the segment stays a sequence of whole JPEG images.
      if (::ftruncate(segment_fd_, offset) != 0) {
        // Nothing more to do: the index never names the partial frame.
      }
      long long kept = 0;
      {
        std::lock_guard lock(mutex_);
        kept = written_;
      }
      fail(fmt::format("{}: writing frame {} failed: {}; the {} frame(s) before it are kept",
                       (dir_ / fmt::format("segment-{:06d}.mjpeg", segment_)).string(), job.frame, std::strerror(err), kept));
      return;
    }
    done += static_cast<std::size_t>(n);
  }
  segment_bytes_ += static_cast<long long>(jpeg.size());
  const nlohmann::json line = {{"frame", job.frame}, {"t", job.t}, {"segment", segment_}, {"offset", offset},
                               {"bytes", jpeg.size()}};
  if (!index_->write_line(line.dump())) {
    fail(index_->failure());
    return;
  }
  std::lock_guard lock(mutex_);
  ++written_;
}

void VideoRecorder::write_still(const Job& job) {
  std::vector<unsigned char> jpeg;
  if (!cv::imencode(".jpg", job.image, jpeg, {cv::IMWRITE_JPEG_QUALITY, 95})) return;
  try {
    io::write_file_atomically(*job.still,
                              std::string_view(reinterpret_cast<const char*>(jpeg.data()), jpeg.size()));
  } catch (const std::exception& e) {
    fail(e.what());
  }
}

long long VideoRecorder::frames_written() const {
  std::lock_guard lock(mutex_);
  return written_;
}

long long VideoRecorder::frames_dropped() const {
  std::lock_guard lock(mutex_);
  return dropped_;
}

bool VideoRecorder::failed() const {
  std::lock_guard lock(mutex_);
  return !failure_.empty();
}

std::string VideoRecorder::failure() const {
  std::lock_guard lock(mutex_);
  if (failure_.empty()) return failure_;
  return failure_ + fmt::format("; {} frame(s) of video were recorded, {} not", written_, dropped_);
}

}  // namespace diskref::recording
