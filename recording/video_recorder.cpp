#include "recording/video_recorder.h"

#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <stdexcept>
#include <string_view>
#include <system_error>
#include <vector>

#include <fmt/format.h>
#include <opencv2/imgcodecs.hpp>

#include "engine/io/atomic_write.h"
#include "engine/io/input_error.h"
#include "engine/io/write_error.h"

namespace diskref::recording {
namespace fs = std::filesystem;

namespace {

constexpr int kStillQuality = 95;
// The encoder runs below the referee's own thread (nice 10, as the screen's tracking worker): it
// takes what CPU time the tracker leaves first, yet still gets its share on a machine busy with
// other work (at the lowest priority, SCHED_IDLE or nice 19, a busy machine starved it and the
// video kept nothing). When it cannot keep up, a live source's frames are dropped from the video.
constexpr int kEncoderNice = 10;

// Writes all of `data`; returns 0, or the errno of the write that failed.
int write_all(int fd, const unsigned char* data, std::size_t size) {
  while (size > 0) {
    const ssize_t n = ::write(fd, data, size);
    if (n < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    data += n;
    size -= static_cast<std::size_t>(n);
  }
  return 0;
}

// fdatasync, where the file allows it (EINVAL: a file that cannot be synced, such as a pipe).
int sync_data(int fd) {
  if (fd >= 0 && ::fdatasync(fd) != 0 && errno != EINVAL) return errno;
  return 0;
}

// Makes a folder's entries (a file just created) durable; best effort.
void sync_folder(const fs::path& dir) {
  if (const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC); fd >= 0) {
    (void)::fsync(fd);
    ::close(fd);
  }
}

void check_image(const cv::Mat& image, const char* what) {
  if (image.empty() || image.depth() != CV_8U || (image.channels() != 1 && image.channels() != 3))
    throw std::invalid_argument(std::string("VideoRecorder::") + what + ": the image must be 8-bit grey or BGR, not empty");
}

}  // namespace

VideoRecorder::VideoRecorder(fs::path video_dir, VideoRecorderOptions options)
    : dir_(std::move(video_dir)), options_(options) {
  if (!(options_.segment_s > 0) || !std::isfinite(options_.segment_s))
    throw std::invalid_argument("VideoRecorder: segment_s must be > 0");
  if (options_.jpeg_quality < 1 || options_.jpeg_quality > 100)
    throw std::invalid_argument("VideoRecorder: jpeg_quality must be 1 to 100");
  if (options_.max_queued < 1) throw std::invalid_argument("VideoRecorder: max_queued must be >= 1");
  std::error_code ec;
  fs::create_directories(dir_, ec);
  if (ec) {
    if (io::is_resource_failure(ec.value())) throw io::WriteError(dir_.string() + ": cannot be created: " + ec.message());
    throw io::InputError(dir_.string(), "", "cannot be made the video's folder: " + ec.message());
  }
  if (!fs::is_directory(dir_, ec)) throw io::InputError(dir_.string(), "", "is not a folder: cannot hold the video");
  const fs::path index = dir_ / "frames.jsonl";
  if (fs::exists(index, ec) && fs::file_size(index, ec) > 0)
    throw io::InputError(dir_.string(), "", "already holds a recorded video (frames.jsonl): give a new folder");
  index_ = std::make_unique<io::LineFile>(index, io::LineFile::Mode::truncate);
  index_sync_fd_ = ::open(index.c_str(), O_RDONLY | O_CLOEXEC);
  sync_folder(dir_);
  worker_ = std::thread(&VideoRecorder::run, this);
}

VideoRecorder::~VideoRecorder() {
  finish();
  if (index_sync_fd_ >= 0) ::close(index_sync_fd_);
}

void VideoRecorder::add(const cv::Mat& image, long long frame, double t) {
  check_image(image, "add");
  if (!std::isfinite(t)) throw std::invalid_argument("VideoRecorder::add: the frame's time must be finite");
  enqueue({image, frame, t, {}, nullptr});
}

void VideoRecorder::add_encoded(std::shared_ptr<const std::vector<unsigned char>> jpeg, long long frame, double t) {
  if (!jpeg || jpeg->empty()) throw std::invalid_argument("VideoRecorder::add_encoded: no JPEG bytes");
  if (!std::isfinite(t)) throw std::invalid_argument("VideoRecorder::add_encoded: the frame's time must be finite");
  enqueue({cv::Mat(), frame, t, {}, std::move(jpeg)});
}

void VideoRecorder::enqueue(Job job) {
  // Refused before the copy when it would be refused after it.
  auto refused = [&] {
    if (!failure_.empty()) {
      ++lost_frames_;
      return true;
    }
    if (closing_ || frames_queued_ >= options_.max_queued) {
      ++dropped_;
      return true;
    }
    // A live source: what waits for the encoder spans at most max_queued_s of frame time, so that a
    // kill loses at most that much more than the encoder's one frame (a slow, starved encoder
    // thins the video out rather than let it lag behind).
    if (!options_.wait_when_full)
      for (const Job& queued : queue_)
        if (queued.still_path.empty()) {
          if (job.t - queued.t >= options_.max_queued_s) {
            ++dropped_;
            return true;
          }
          break;  // the oldest frame waiting
        }
    return false;
  };
  // A source that can wait waits for room rather than lose the frame.
  const auto room = [&](std::unique_lock<std::mutex>& lock) {
    if (options_.wait_when_full)
      room_.wait(lock, [&] { return frames_queued_ < options_.max_queued || closing_ || !failure_.empty(); });
  };
  {
    std::unique_lock lock(mutex_);
    room(lock);
    if (refused()) return;
  }
  if (!job.jpeg) job.image = job.image.clone();  // the copy, outside the lock: the worker is not held up by it
  {
    std::unique_lock lock(mutex_);
    room(lock);
    if (refused()) return;
    queue_.push_back(std::move(job));
    ++frames_queued_;
  }
  wake_.notify_one();
}

void VideoRecorder::still(const cv::Mat& image, fs::path path) {
  check_image(image, "still");
  if (path.empty()) throw std::invalid_argument("VideoRecorder::still: no path given");
  Job job{image.clone(), 0, 0, std::move(path), nullptr};
  {
    std::lock_guard lock(mutex_);
    if (!failure_.empty()) {
      ++lost_stills_;
      return;
    }
    if (!closing_) {
      queue_.push_back(std::move(job));
      wake_.notify_one();
      return;
    }
  }
  // After finish() there is no worker: the still is written here, once the worker has ended.
  std::lock_guard finishing(finish_mutex_);
  write_still(job);
}

void VideoRecorder::finish() {
  std::lock_guard finishing(finish_mutex_);
  {
    std::lock_guard lock(mutex_);
    closing_ = true;
  }
  wake_.notify_all();
  room_.notify_all();
  if (worker_.joinable()) worker_.join();
}

long long VideoRecorder::frames_written() const { return written_.load(); }
long long VideoRecorder::frames_dropped() const { return dropped_.load(); }
bool VideoRecorder::failed() const { return failed_.load(); }

std::string VideoRecorder::failure() const {
  std::lock_guard lock(mutex_);
  if (failure_.empty()) return {};
  return failure_ + fmt::format("; {} frame(s) and {} still(s) from then on were not recorded", lost_frames_, lost_stills_);
}

fs::path VideoRecorder::segment_path(int segment) const { return dir_ / fmt::format("segment-{:06d}.mjpeg", segment); }

void VideoRecorder::run() {
  // Linux: a thread's scheduling policy and nice value are its own (0: this thread).
  (void)::setpriority(PRIO_PROCESS, static_cast<id_t>(::gettid()), kEncoderNice);
  while (true) {
    Job job;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [&] { return closing_ || !queue_.empty(); });
      if (queue_.empty()) break;  // finishing, and everything queued is written
      job = std::move(queue_.front());
      queue_.pop_front();
      if (job.still_path.empty()) --frames_queued_;
    }
    room_.notify_all();
    try {
      if (job.still_path.empty()) write_frame(job);
      else write_still(job);
    } catch (const std::exception& e) {  // OpenCV's encoder, or memory
      fail(fmt::format("{}: recording frame {} failed: {}", dir_.string(), job.frame, e.what()), &job);
    }
  }
  if (const int e = close_segment(); e != 0 && !failed())
    fail(fmt::format("{}: flushing it to the disk (fdatasync) failed: {}", segment_path(segment_).string(), io::system_reason(e)));
}

void VideoRecorder::write_frame(const Job& job) {
  std::vector<unsigned char> encoded;
  if (!job.jpeg && (!cv::imencode(".jpg", job.image, encoded, {cv::IMWRITE_JPEG_QUALITY, options_.jpeg_quality}) || encoded.empty()))
    return fail(fmt::format("{}: frame {} could not be encoded as a JPEG image", dir_.string(), job.frame), &job);
  const std::vector<unsigned char>& jpeg = job.jpeg ? *job.jpeg : encoded;
  // A new segment every segment_s of frame time, and when the time goes back (a new source).
  if (segment_fd_ < 0 || job.t - segment_start_t_ >= options_.segment_s || job.t < segment_start_t_) {
    if (segment_fd_ >= 0) {
      if (const int e = close_segment())
        return fail(fmt::format("{}: flushing it to the disk (fdatasync) failed: {}", segment_path(segment_).string(),
                                io::system_reason(e)), &job);
    }
    const fs::path next = segment_path(segment_ + 1);
    segment_fd_ = ::open(next.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (segment_fd_ < 0) {
      const int e = errno;
      return fail(fmt::format("{}: cannot be created: {}", next.string(), io::system_reason(e)), &job);
    }
    ++segment_;
    segment_start_t_ = job.t;
    segment_bytes_ = 0;
  }
  const long long offset = segment_bytes_;
  if (const int e = write_all(segment_fd_, jpeg.data(), jpeg.size())) {
    (void)::ftruncate(segment_fd_, static_cast<off_t>(offset));  // the segment ends with its last whole frame
    return fail(fmt::format("{}: writing frame {} failed: {}", segment_path(segment_).string(), job.frame, io::system_reason(e)), &job);
  }
  const auto bytes = static_cast<long long>(jpeg.size());
  // Shortest round-trip form of t: full precision.
  if (!index_->write_line(fmt::format(R"({{"frame":{},"t":{},"segment":{},"offset":{},"bytes":{}}})", job.frame, job.t,
                                      segment_, offset, bytes))) {
    (void)::ftruncate(segment_fd_, static_cast<off_t>(offset));  // bytes no line points to
    return fail(index_->failure(), &job);
  }
  segment_bytes_ += bytes;
  last_written_segment_ = segment_;
  written_.fetch_add(1);
}

void VideoRecorder::write_still(const Job& job) {
  std::vector<unsigned char> jpeg;
  if (!cv::imencode(".jpg", job.image, jpeg, {cv::IMWRITE_JPEG_QUALITY, kStillQuality}) || jpeg.empty())
    return fail(fmt::format("{}: the still could not be encoded as a JPEG image", job.still_path.string()), &job);
  std::error_code ec;
  if (job.still_path.has_parent_path()) fs::create_directories(job.still_path.parent_path(), ec);
  try {
    io::write_file_atomically(job.still_path,
                              std::string_view(reinterpret_cast<const char*>(jpeg.data()), jpeg.size()));
  } catch (const io::InputError& e) {
    fail(e.what(), &job);
  } catch (const io::WriteError& e) {
    fail(e.what(), &job);
  }
}

int VideoRecorder::close_segment() {
  if (segment_fd_ < 0) return 0;
  int e = sync_data(segment_fd_);
  if (::close(segment_fd_) != 0 && e == 0) e = errno;
  segment_fd_ = -1;
  // The lines of the frames just synced, and the segment's name in the folder.
  if (const int index_e = sync_data(index_sync_fd_); e == 0) e = index_e;
  sync_folder(dir_);
  return e;
}

void VideoRecorder::fail(std::string what_failed, const Job* lost) {
  const long long kept = written_.load();
  const std::string segments = last_written_segment_ == 0
                                   ? segment_path(0).filename().string()
                                   : segment_path(0).filename().string() + " to " +
                                         segment_path(last_written_segment_).filename().string();
  std::string kept_text = kept == 0 ? std::string("the video keeps no frame")
                                    : fmt::format("the video keeps the {} frame(s) written before, complete (in {}, listed in "
                                                  "frames.jsonl)", kept, segments);
  {
    std::lock_guard lock(mutex_);
    if (failure_.empty()) {
      failure_ = std::move(what_failed) + "; " + kept_text;
      if (lost != nullptr) ++(lost->still_path.empty() ? lost_frames_ : lost_stills_);
      for (const Job& job : queue_) ++(job.still_path.empty() ? lost_frames_ : lost_stills_);
      queue_.clear();
      frames_queued_ = 0;
      failed_.store(true);
    }
  }
  room_.notify_all();
  // Keep what was written: the open segment synced and closed (its errors add nothing now).
  (void)close_segment();
}

}  // namespace diskref::recording
