// A live camera that goes away for seconds in the middle of a game, refereed through the one
// pipeline as `diskref referee --camera` and the screen referee one (tracker, referee, recorder):
// the camera here is the sample video's frames delivered on a clock of the test's own (no
// waiting), cut in a quiet moment of the game and back a few seconds later, the frames it took
// meanwhile lost. The game must be the one the video file gives, with the gap said once in the
// log, and the recording whole, replaying to the same game.

#include <algorithm>
#include <cmath>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <opencv2/videoio.hpp>

#include "../vision/fake_v4l2_device.h"
#include "calibration/camera_model.h"
#include "engine/io/input_error.h"
#include "pipeline/game_replay.h"
#include "pipeline/pipeline.h"
#include "recording/game_recording.h"
#include "same_game.h"
#include "sample_game.h"
#include "vision/frame_source.h"
#include "vision/live_camera.h"
#include "vision/tracker.h"

namespace diskref::pipeline {
namespace {

using testing::SampleGame;

// The sample video as a camera delivers it: frame i at `base + i / fps` on the test's clock (the
// clock follows the frames: the camera runs in real time). The first connection stops after frame
// `cut_after`; the camera answers again `away_s` later, at the frame it is taking then.
struct VideoCamera {
  std::filesystem::path video;
  double fps = 30;
  long long frames = 0;
  double base = 0;
  long long cut_after = -1;
  double away_s = 0;
  std::shared_ptr<vision::testing::ManualClock> clock = std::make_shared<vision::testing::ManualClock>();
  int connections = 0;
};

class VideoCameraStream final : public vision::LiveStream {
 public:
  VideoCameraStream(VideoCamera& camera, long long from, bool cut) : camera_(camera), index_(from), cut_(cut) {
    capture_.open(camera.video.string(), cv::CAP_FFMPEG);
    // From the start and read on: the very frames the file gives (a seek need not be exact).
    cv::Mat skipped;
    for (long long i = 0; i < from; ++i) capture_.read(skipped);
    size_ = {static_cast<int>(capture_.get(cv::CAP_PROP_FRAME_WIDTH)),
             static_cast<int>(capture_.get(cv::CAP_PROP_FRAME_HEIGHT))};
  }
  std::optional<vision::StreamFrame> read() override {
    if ((cut_ && index_ > camera_.cut_after) || index_ >= camera_.frames) {
      camera_.clock->t += 1.0 / camera_.fps;  // a read that times out takes its time
      return std::nullopt;
    }
    vision::StreamFrame f;
    if (!capture_.read(f.image)) return std::nullopt;
    f.time = camera_.base + static_cast<double>(index_) / camera_.fps;
    camera_.clock->t = std::max(camera_.clock->t, f.time);
    ++index_;
    return f;
  }
  cv::Size size() const override { return size_; }
  double nominal_fps() const override { return camera_.fps; }

 private:
  VideoCamera& camera_;
  cv::VideoCapture capture_;
  long long index_;
  bool cut_;
  cv::Size size_;
};

std::unique_ptr<vision::LiveCameraSource> open_video_camera(VideoCamera& camera) {
  camera.base = camera.clock->t;
  vision::LiveCameraOptions options;
  options.clock = camera.clock;
  options.give_up_after_s = 3.0;  // after the video's last frame: the camera is gone for good
  // Tried again every 0.1-0.2 s (not 0.5 s doubling to 5 s): the camera is back when the test says.
  options.first_backoff_s = 0.1;
  options.max_backoff_s = 0.2;
  auto opener = [&camera]() -> std::unique_ptr<vision::LiveStream> {
    if (camera.connections++ == 0) return std::make_unique<VideoCameraStream>(camera, 0, true);
    const double back_at = camera.base + static_cast<double>(camera.cut_after + 1) / camera.fps + camera.away_s;
    const auto from = static_cast<long long>(std::ceil((camera.clock->t - camera.base) * camera.fps - 1e-9));
    if (camera.clock->t < back_at || from >= camera.frames)
      throw io::InputError("the test's camera", "", "is not there");
    return std::make_unique<VideoCameraStream>(camera, from, false);
  };
  return std::make_unique<vision::LiveCameraSource>("the test's camera", opener, options);
}

// The longest stretch of the game in which the table is settled, nothing moves and no input falls
// due, ending a second before the video does: where a camera can go away and come back without the
// game changing.
struct QuietWindow {
  double from = 0, to = 0;
};
QuietWindow quietest(const SampleGame& s) {
  QuietWindow best, run;
  bool in_run = false;
  const model::TrackFrame* previous = nullptr;
  for (const model::TrackFrame& f : s.frames) {
    bool quiet = f.settled && previous != nullptr && previous->disks.size() == f.disks.size();
    for (std::size_t i = 0; quiet && i < f.disks.size(); ++i)
      quiet = f.disks[i].name == previous->disks[i].name &&
              f.disks[i].x.has_value() == previous->disks[i].x.has_value() &&
              (!f.disks[i].x || std::hypot(*f.disks[i].x - *previous->disks[i].x,
                                           f.disks[i].y.value_or(0) - previous->disks[i].y.value_or(0)) < 0.01);
    for (const referee::Input& in : s.inputs)
      quiet = quiet && !(previous != nullptr && in.t > previous->t && in.t <= f.t);
    if (quiet && !in_run) run.from = previous->t;
    in_run = quiet;
    if (quiet) run.to = f.t;
    if (quiet && run.to < s.frames.back().t - 1.0 && run.to - run.from > best.to - best.from) best = run;
    previous = &f;
  }
  return best;
}

TEST(LiveStreamReferee, ACameraAwayForSecondsInAQuietMomentGivesTheVideosGameAndSaysTheGapOnce) {
  SampleGame s("drops");
  const calib::CameraModel lens = calib::load_camera_model(s.dir / "camera.json");
  const QuietWindow window = quietest(s);
  ASSERT_GE(window.to - window.from, 2.8) << "the sample has no quiet moment long enough to lose the camera in";

  // The game from the video file.
  auto from_file = std::make_shared<RefereedGame>(s.make_referee(), s.inputs);
  {
    std::unique_ptr<vision::FrameSource> file = vision::open_video_file(s.dir / "video.mp4");
    Pipeline pipe(std::make_unique<vision::Tracker>(s.table, s.registry, lens), from_file, nullptr);
    pipe.run_source(*file);
    pipe.finish();
  }

  // The same frames from a camera that goes away 0.7 s into the quiet moment, for all of it but
  // 1.4 s (more than the referee's camera_gap_s), its frames meanwhile lost.
  VideoCamera camera;
  camera.video = s.dir / "video.mp4";
  camera.frames = static_cast<long long>(s.frames.size());
  camera.cut_after = static_cast<long long>(std::floor((window.from + 0.7) * camera.fps));
  camera.away_s = window.to - window.from - 1.4;
  const std::filesystem::path dir = testing::test_output("live-stream-referee") / "session";
  RefereedGameOptions live;
  live.inputs_from_first_frame = true;
  auto from_camera = std::make_shared<RefereedGame>(s.make_referee(), s.inputs, live);
  std::unique_ptr<vision::LiveCameraSource> source = open_video_camera(camera);
  {
    Pipeline pipe(std::make_unique<vision::Tracker>(s.table, s.registry, lens), from_camera,
                  testing::recorder_for(s, dir, "camera"));
    pipe.run_source(*source);
    pipe.finish();
    EXPECT_FALSE(pipe.recorder()->failed()) << pipe.recorder()->failure();
    EXPECT_LT(pipe.stats().frames, camera.frames - static_cast<long long>(camera.away_s * camera.fps) + 2);
  }
  ASSERT_EQ(source->gaps().size(), 1u) << "the camera was away once";

  // The camera's game is the file's, entry for entry, at the very times (the same frames on the
  // same clock), with the gap said once where it was. Its drops are read at the settle after the
  // gap, a median over other frames than the file's settle had: the counters' poses may differ by
  // the tracker's rounding of them (0.01 mm, deg) and their outlines' (0.1 mm), a few steps of it.
  const nlohmann::json file_log = from_file->log_json();
  const nlohmann::json camera_log = from_camera->log_json();
  ASSERT_EQ(testing::camera_gaps_in(camera_log), 1u) << camera_log.dump(1);
  for (const nlohmann::json& e : camera_log.at("log")) {
    if (testing::is_camera_gap(e)) {
      EXPECT_NEAR(e.at("t").get<double>(), source->gaps().front().end_t, 0.05);
    }
  }
  testing::SameGameTolerances tolerances;
  tolerances.position_mm = tolerances.heading_deg = 0.15;
  EXPECT_EQ(testing::lines(testing::differences_between(camera_log, file_log, tolerances)), "")
      << camera_log.dump(1) << "\n"
      << file_log.dump(1);

  // The recording is whole and gives the camera's game again.
  const recording::GameRecording recorded = recording::load_game_recording(dir);
  EXPECT_TRUE(recorded.warnings.empty()) << recorded.warnings.front();
  EXPECT_TRUE(std::filesystem::exists(dir / "ended.json"));
  const ReplayedGame replayed = replay_game(recorded);
  ASSERT_TRUE(replayed.matches_recorded_log.has_value());
  EXPECT_TRUE(*replayed.matches_recorded_log);
}

}  // namespace
}  // namespace diskref::pipeline
