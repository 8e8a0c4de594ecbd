#include "recording/video_recorder.h"

#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <stdexcept>
#include <string_view>
#include <system_error>
#include <utility>
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
// What a DiskSyncer task was syncing, given back with its failure.
constexpr int kSegmentTask = 0;
constexpr int kStillTask = 1;

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
    throw std::invalid_argument(std::string("VideoRecorder::") + what +
                                ": the image must be 8-bit grey or BGR, not empty");
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
    if (io::is_resource_failure(ec.value()))
      throw io::WriteError(dir_.string() + ": cannot be created: " + ec.message());
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
  finish();  // the syncer drained too: nothing uses index_sync_fd_ any more
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
  take_sync_failure(nullptr);
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
  // The worker handed the last segment to the syncer: once that is synced, the video is whole.
  syncer_.drain();
  take_sync_failure(nullptr);
}

long long VideoRecorder::frames_written() const {
  return written_.load();
}
long long VideoRecorder::frames_dropped() const {
  return dropped_.load();
}

double VideoRecorder::waiting_span_s() const {
  std::lock_guard lock(mutex_);
  const Job* oldest = nullptr;
  const Job* newest = nullptr;
  for (const Job& job : queue_)
    if (job.still_path.empty()) {
      if (oldest == nullptr) oldest = &job;
      newest = &job;
    }
  return oldest == nullptr ? 0.0 : newest->t - oldest->t;
}
bool VideoRecorder::failed() const {
  return failed_.load();
}

std::string VideoRecorder::failure() const {
  std::lock_guard lock(mutex_);
  if (failure_.empty()) return {};
  return failure_ +
         fmt::format("; {} frame(s) and {} still(s) from then on were not recorded", lost_frames_, lost_stills_);
}

fs::path VideoRecorder::segment_path(int segment) const {
  return dir_ / fmt::format("segment-{:06d}.mjpeg", segment);
}

void VideoRecorder::run() {
  // Linux: a thread's nice value is its own (inherited from its creator, whatever that was).
  (void)::setpriority(PRIO_PROCESS, static_cast<id_t>(::gettid()), options_.nice);
  while (true) {
    if (options_.before_each_job) options_.before_each_job();
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
    if (take_sync_failure(&job)) continue;  // a sync failed meanwhile: this job is not recorded
    try {
      if (job.still_path.empty())
        write_frame(job);
      else
        write_still(job);
    } catch (const std::exception& e) {  // OpenCV's encoder, or memory
      fail(fmt::format("{}: recording frame {} failed: {}", dir_.string(), job.frame, e.what()), &job);
    }
  }
  close_segment();
}

void VideoRecorder::write_frame(const Job& job) {
  std::vector<unsigned char> encoded;
  if (!job.jpeg &&
      (!cv::imencode(".jpg", job.image, encoded, {cv::IMWRITE_JPEG_QUALITY, options_.jpeg_quality}) || encoded.empty()))
    return fail(fmt::format("{}: frame {} could not be encoded as a JPEG image", dir_.string(), job.frame), &job);
  const std::vector<unsigned char>& jpeg = job.jpeg ? *job.jpeg : encoded;
  // A new segment every segment_s of frame time, and when the time goes back (a new source).
  if (segment_fd_ < 0 || job.t - segment_start_t_ >= options_.segment_s || job.t < segment_start_t_) {
    close_segment();
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
    // The segment ends with its last whole frame; a reader stops at the index's last line in any case.
    const bool cut = ::ftruncate(segment_fd_, static_cast<off_t>(offset)) == 0;
    return fail(
        fmt::format("{}: writing frame {} failed: {}{}", segment_path(segment_).string(), job.frame,
                    io::system_reason(e),
                    cut ? "" : " (the part of the frame written stays after the last whole one; the index ignores it)"),
        &job);
  }
  const auto bytes = static_cast<long long>(jpeg.size());
  // Shortest round-trip form of t: full precision.
  if (!index_->write_line(fmt::format(R"({{"frame":{},"t":{},"segment":{},"offset":{},"bytes":{}}})", job.frame, job.t,
                                      segment_, offset, bytes))) {
    // Bytes no line points to: cut off where possible (a reader ignores them anyway).
    [[maybe_unused]] const int cut = ::ftruncate(segment_fd_, static_cast<off_t>(offset));
    return fail(index_->failure(), &job);
  }
  segment_bytes_ += bytes;
  last_written_segment_ = segment_;
  written_.fetch_add(1);
}

void VideoRecorder::write_still(const Job& job) {
  auto jpeg = std::make_shared<std::vector<unsigned char>>();
  if (!cv::imencode(".jpg", job.image, *jpeg, {cv::IMWRITE_JPEG_QUALITY, kStillQuality}) || jpeg->empty())
    return fail(fmt::format("{}: the still could not be encoded as a JPEG image", job.still_path.string()), &job);
  // Written (temp file, fsync, rename, fsync of the folder) by the syncer: the encoder goes on. A
  // write that fails throws; the syncer keeps its message as the failure.
  syncer_.submit(
      [jpeg, path = job.still_path]() -> std::string {
        std::error_code ec;
        if (path.has_parent_path()) fs::create_directories(path.parent_path(), ec);
        io::write_file_atomically(path, std::string_view(reinterpret_cast<const char*>(jpeg->data()), jpeg->size()));
        return {};
      },
      kStillTask);
}

void VideoRecorder::close_segment() {
  if (segment_fd_ < 0) return;
  const int fd = std::exchange(segment_fd_, -1);
  // Synced by the syncer: the segment, then the lines of its frames, then its name in the folder.
  syncer_.submit(
      [fd, segment = segment_path(segment_), index_fd = index_sync_fd_, dir = dir_]() -> std::string {
        int e = sync_data(fd);
        if (::close(fd) != 0 && e == 0) e = errno;
        if (e != 0)
          return fmt::format("{}: flushing it to the disk (fdatasync) failed: {}", segment.string(),
                             io::system_reason(e));
        if (const int index_e = sync_data(index_fd))
          return fmt::format("{}: flushing it to the disk (fdatasync) failed: {}", (dir / "frames.jsonl").string(),
                             io::system_reason(index_e));
        sync_folder(dir);
        return {};
      },
      kSegmentTask);
}

bool VideoRecorder::take_sync_failure(const Job* lost) {
  const std::optional<DiskSyncer::Failure> f = syncer_.failure();
  if (!f) return false;
  if (!failed()) fail(f->what, lost, f->tag == kStillTask ? 1 : 0);
  return true;
}

void VideoRecorder::fail(std::string what_failed, const Job* lost, long long stills_lost) {
  const long long kept = written_.load();
  const std::string segments = last_written_segment_ == 0 ? segment_path(0).filename().string()
                                                          : segment_path(0).filename().string() + " to " +
                                                                segment_path(last_written_segment_).filename().string();
  std::string kept_text = kept == 0 ? std::string("the video keeps no frame")
                                    : fmt::format(
                                          "the video keeps the {} frame(s) written before, complete (in {}, listed in "
                                          "frames.jsonl)",
                                          kept, segments);
  {
    std::lock_guard lock(mutex_);
    if (failure_.empty()) {
      failure_ = std::move(what_failed) + "; " + kept_text;
      if (lost != nullptr) ++(lost->still_path.empty() ? lost_frames_ : lost_stills_);
      lost_stills_ += stills_lost;
      for (const Job& job : queue_) ++(job.still_path.empty() ? lost_frames_ : lost_stills_);
      queue_.clear();
      frames_queued_ = 0;
      failed_.store(true);
    }
  }
  room_.notify_all();
  // Keep what was written: the open segment synced and closed (its errors add nothing now).
  close_segment();
}

}  // namespace diskref::recording
