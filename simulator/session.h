#pragma once
// A whole rendered table session: the frames of a scenario and their ground truth, and the
// files `diskref render` writes (video.mp4, table.json, disks.json, camera.json, truth.jsonl).

#include <filesystem>
#include <functional>
#include <memory>

#include <opencv2/core.hpp>

#include "simulator/scenario.h"
#include "simulator/scene.h"
#include "simulator/table_renderer.h"
#include "simulator/timeline.h"
#include "simulator/truth.h"
#include "simulator/webcam_behaviour.h"

namespace diskref::simulator {

// Which pictures a scenario gives: raised whenever the renderer draws the same scenario
// differently (its sampling, shading, camera effects), so that renders kept for the tests and the
// benches (render_variant) are made again. 2: supersample_pattern.h, and edges sampled again.
inline constexpr int kRendererVersion = 2;

class SessionRenderer {
 public:
  explicit SessionRenderer(const Scenario& scenario);
  ~SessionRenderer();

  const Scenario& scenario() const { return scenario_; }
  const SceneModel& model() const { return model_; }
  const Timeline& timeline() const { return timeline_; }
  int frame_count() const { return scenario_.frame_count(); }
  double frame_time(int frame) const { return frame / scenario_.fps; }

  // The camera image of frame `frame` (BGR, 8 bit), in any order; deterministic for the seed.
  // Valid until the next call.
  const cv::Mat& frame(int frame);
  // The frame's linear radiance before the camera's effects.
  const cv::Mat& radiance(int frame);
  // The camera's effects on a frame's radiance (what frame() returns).
  // Flicker, auto-exposure and a knocked boom (webcam_behaviour.h) are applied here.
  const cv::Mat& camera_image(int frame, const cv::Mat& radiance);
  // The frame whose moment frame `frame` delivers (itself, unless repeated or lost).
  int shown_frame(int frame) const { return webcam_frames_.shown(frame); }
  // Pixels traced for the last frame.
  long long last_traced_pixels() const { return renderer_->last_traced_pixels(); }

 private:
  Scenario scenario_;
  std::unique_ptr<TableSurface> surface_;
  SceneModel model_;
  Timeline timeline_;
  std::unique_ptr<TableRenderer> renderer_;
  std::unique_ptr<CameraFinish> camera_;
  WebcamFrames webcam_frames_;
  std::vector<double> exposure_gains_;  // auto-exposure's gain per frame; empty without
};

struct SessionSummary {
  int frames = 0;
  cv::Size size;
  double seconds = 0;          // wall time of the whole render
  double trace_seconds = 0;    // scene tracing
  double effects_seconds = 0;  // camera effects (light, defocus, noise)
  double encode_seconds = 0;   // video encoding
  double frames_per_second() const { return seconds > 0 ? frames / seconds : 0; }
  std::uintmax_t video_bytes = 0;
  int visible_disk_frames = 0;  // sum over frames of disks visible (a sanity figure)
};

// Renders the scenario into `out_dir` (created if needed): video.mp4 (H.264 'avc1' through
// FFmpeg, checked by reading it back), table.json, disks.json, camera.json (spec §7 plus the true
// pose as "camera_from_table"), truth.jsonl. `progress(done, total)` is called after each frame.
// Throws std::runtime_error when a file cannot be written or the video cannot be encoded or read
// back.
struct SessionOptions {
  int max_frames = 0;                // > 0: only the first frames
  std::vector<int> snapshot_frames;  // also written as DIR/frame_NNNNNN.png (before video compression)
};
SessionSummary render_session(const Scenario& scenario, const std::filesystem::path& out_dir,
                              const std::function<void(int, int)>& progress, const SessionOptions& options = {});

// camera.json's content: spec §7 members and "camera_from_table": {"rotation": 3x3,
// "translation_mm": [x, y, z]} (x_cam = R x_table + t).
nlohmann::json camera_json(const CameraRig& rig);

}  // namespace diskref::simulator
