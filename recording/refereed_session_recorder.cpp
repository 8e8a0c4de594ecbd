#include "recording/refereed_session_recorder.h"

#include <nlohmann/json.hpp>

namespace diskref::recording {

RefereedSessionRecorder::RefereedSessionRecorder(const std::filesystem::path& dir, const SessionInfo& info,
                                                 const SessionFiles& files, const SessionProvenance& provenance,
                                                 const std::optional<std::filesystem::path>& game_file,
                                                 VideoRecorderOptions video)
    : session_(std::make_unique<SessionRecorder>(dir, info, files, provenance)),
      copy_frames_(provenance.frames_copied) {
  if (game_file) game_ = std::make_unique<GameRecorder>(dir, *game_file);
  // The stills go through the video's encoder even when the frames are not copied.
  video_ = std::make_unique<VideoRecorder>(dir / "video", video);
}

RefereedSessionRecorder::~RefereedSessionRecorder() {
  try {
    finish(nullptr);
  } catch (const std::exception&) {
    // Ending is best effort in a destructor: what is written stays readable (cut short).
  }
}

void RefereedSessionRecorder::frame(const model::TrackFrame& track, const cv::Mat* image,
                                    const referee::Referee* referee,
                                    std::shared_ptr<const std::vector<unsigned char>> jpeg) {
  if (copy_frames_ && jpeg)
    video_->add_encoded(std::move(jpeg), track.frame, track.t);
  else if (copy_frames_ && image != nullptr && !image->empty())
    video_->add(*image, track.frame, track.t);
  session_->write_frame(track);
  if (game_ && referee != nullptr)
    for (const std::filesystem::path& still : game_->after_frame(*referee, track.frame))
      if (image != nullptr && !image->empty()) video_->still(*image, still);
  // The video fell behind: said in the events as it happens, not only at the end.
  if (const long long dropped = video_->frames_dropped(); dropped > dropped_said_ && track.frame % 30 == 0) {
    session_->write_event({track.t, track.frame, Severity::warning,
                           "the recording's video fell behind: " + std::to_string(dropped) +
                               " frame(s) dropped from video/ so far (the tracks keep every frame)"});
    dropped_said_ = dropped;
  }
}

void RefereedSessionRecorder::tracked(const vision::TrackerResult& result) {
  if (!health_) health_ = std::make_unique<TrackingHealthRecorder>(dir() / "health.jsonl");
  health_->add(result);
}

void RefereedSessionRecorder::after_inputs(const referee::Referee& referee) {
  if (game_) (void)game_->after_frame(referee, -1);
}

void RefereedSessionRecorder::finish(const referee::Referee* referee) {
  if (finished_) return;
  finished_ = true;
  if (game_ && referee != nullptr) game_->finish(*referee);
  video_->finish();
  if (health_) health_->flush();
  nlohmann::json summary = {{"video_frames", video_->frames_written()},
                            {"dropped_video_frames", video_->frames_dropped()}};
  if (game_) summary["stills"] = game_->stills_asked();
  const std::string trouble = failure();
  if (!trouble.empty()) summary["trouble"] = trouble;
  session_->end(std::move(summary));
}

bool RefereedSessionRecorder::failed() const {
  return session_->failed() || (game_ && game_->failed()) || video_->failed() || (health_ && health_->failed());
}

std::string RefereedSessionRecorder::failure() const {
  std::string out = session_->failure();
  const auto add = [&out](const std::string& part) {
    if (part.empty()) return;
    if (!out.empty()) out += "; ";
    out += part;
  };
  if (game_) add(game_->failure());
  add(video_->failure());
  if (health_) add(health_->failure());
  return out;
}

}  // namespace diskref::recording
