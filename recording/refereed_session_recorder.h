#pragma once
// Everything a refereed session keeps (spec §11), in one place for `diskref referee --record` and
// the companion screen: the session (tracks, events, setup files, who made it), the game (inputs,
// log, which stills), and the camera's pictures (video segments when the frames are copied, the
// still of every settle either way).
//
// Cheap on the caller's thread: a frame's image is queued for the encoder (dropped, counted and
// said when the encoder cannot keep up, never waited for); the tracks and inputs are a line each.

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <opencv2/core.hpp>

#include "engine/model/track_frame.h"
#include "recording/game_recorder.h"
#include "recording/session_recording.h"
#include "recording/tracking_health.h"
#include "recording/video_recorder.h"
#include "referee/referee.h"

namespace diskref::recording {

class RefereedSessionRecorder {
 public:
  // Starts DIR (SessionRecorder: new or empty folder, files copied, session.json). With `game_file`,
  // the game is recorded too. `provenance.frames_copied` says whether frames go to video/.
  RefereedSessionRecorder(const std::filesystem::path& dir, const SessionInfo& info, const SessionFiles& files,
                          const SessionProvenance& provenance, const std::optional<std::filesystem::path>& game_file,
                          VideoRecorderOptions video = {});
  ~RefereedSessionRecorder();

  // One tracked frame and its image (null: none, as from a tracks file), after `referee` (may be
  // null: no game) was fed it.
  // `jpeg`: the source's own JPEG of the image (stored as it is, nothing encoded), when it has one.
  void frame(const model::TrackFrame& track, const cv::Mat* image, const referee::Referee* referee,
             std::shared_ptr<const std::vector<unsigned char>> jpeg = nullptr);
  // The tracker's whole result for that frame, for health.jsonl (when there was a tracker).
  void tracked(const vision::TrackerResult& result);
  // Inputs given between frames (the screen): recorded before the next frame's.
  void after_inputs(const referee::Referee& referee);
  // The session ended: the video drained and closed, the last log, ended.json.
  void finish(const referee::Referee* referee);

  SessionRecorder& session() { return *session_; }
  const std::filesystem::path& dir() const { return session_->dir(); }
  // Something could not be written (cheap: asked every frame), and what was kept and what was not
  // (empty while all is well).
  bool failed() const;
  std::string failure() const;

 private:
  std::unique_ptr<SessionRecorder> session_;
  std::unique_ptr<GameRecorder> game_;
  std::unique_ptr<VideoRecorder> video_;
  std::unique_ptr<TrackingHealthRecorder> health_;
  bool copy_frames_ = false;
  long long dropped_said_ = 0;
  bool finished_ = false;
};

}  // namespace diskref::recording
