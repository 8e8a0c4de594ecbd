#include "recording/tracking_health.h"

#include <nlohmann/json.hpp>

namespace diskref::recording {

TrackingHealthRecorder::TrackingHealthRecorder(const std::filesystem::path& file)
    : file_(file, io::LineFile::Mode::append) {}

void TrackingHealthRecorder::add(const vision::TrackerResult& result) {
  const double t = result.track.t;
  if (second_start_t_ && t - *second_start_t_ >= 1.0) flush();
  if (!second_start_t_) {
    second_start_t_ = t;
    second_start_wall_ = std::chrono::steady_clock::now();
  }
  ++frames_;
  if (result.foreign_over_table) ++foreign_;
  work_ms_ += result.times.total_ms();
  for (const model::DiskTrack& d : result.track.disks)
    if (d.state == model::TrackState::visible) {
      sigma_sum_ += d.sigma_mm;
      ++sigma_count_;
    }
  for (const vision::DetectionRecord& d : result.detections)
    if (d.rejected) ++rejected_[static_cast<std::size_t>(*d.rejected)];
}

bool TrackingHealthRecorder::flush() {
  if (!second_start_t_ || frames_ == 0) return !file_.failed();
  const double wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - second_start_wall_).count();
  nlohmann::json rejected = nlohmann::json::object();
  for (std::size_t r = 0; r < rejected_.size(); ++r)
    if (rejected_[r] > 0) rejected[std::string(vision::to_string(static_cast<vision::RejectReason>(r)))] = rejected_[r];
  nlohmann::json line = {{"t", *second_start_t_},
                         {"frames", frames_},
                         {"tracked_fps", wall_s > 0 ? static_cast<double>(frames_) / wall_s : 0.0},
                         {"work_ms", work_ms_ / static_cast<double>(frames_)},
                         {"hand_frames", foreign_},
                         {"rejected", rejected}};
  if (sigma_count_ > 0) line["mean_sigma_mm"] = sigma_sum_ / static_cast<double>(sigma_count_);
  second_start_t_.reset();
  frames_ = foreign_ = sigma_count_ = 0;
  work_ms_ = sigma_sum_ = 0;
  rejected_.fill(0);
  return file_.write_line(line.dump());
}

}  // namespace diskref::recording
