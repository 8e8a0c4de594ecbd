#include "simulator/session.h"

#include <algorithm>
#include <chrono>
#include <stdexcept>

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/videoio.hpp>

#include "engine/io/atomic_write.h"
#include "engine/model/track_frame.h"
#include "engine/random/splitmix64.h"
#include "simulator/landing_truth.h"

namespace diskref::simulator {
namespace {

double texels_per_mm_for(const CameraRig& rig) {
  // About one and a half texels per pixel: supersampling does the rest.
  return std::clamp(1.5 * pixels_per_mm_at_center(rig), 1.0, 3.0);
}

// Whether a hand of the instant is in the camera's view (the middle of its bounds in the image).
bool hand_in_view(const SceneInstant& instant, const CameraRig& rig) {
  const cv::Rect image(cv::Point(0, 0), rig.camera.image_size);
  for (const HandInstant& hand : instant.hands) {
    const cv::Vec3d middle = (hand.shape.min_corner + hand.shape.max_corner) * 0.5;
    const cv::Point2d p = pixel_of(rig, cv::Point3d(middle[0], middle[1], middle[2]));
    if (image.contains(cv::Point(static_cast<int>(p.x), static_cast<int>(p.y)))) return true;
  }
  return false;
}

}  // namespace

SessionRenderer::SessionRenderer(const Scenario& scenario)
    : scenario_(scenario),
      timeline_(scenario_),
      webcam_frames_(scenario_.webcam, scenario_.frame_count(), random::SplitMix64(scenario_.seed).fork(3).next_u64()) {
  random::SplitMix64 rng(scenario_.seed);
  surface_ = std::make_unique<TableSurface>(scenario_.table, scenario_.surface, texels_per_mm_for(scenario_.rig),
                                            rng.fork(1).next_u64());
  model_.surface = surface_.get();
  for (const model::DiskSpec& d : scenario_.registry.disks()) model_.disks.emplace_back(d);
  for (const print::BoardSpec& b : timeline_.boards()) model_.boards.emplace_back(b);
  renderer_ = std::make_unique<TableRenderer>(model_, scenario_.rig, scenario_.effects.supersample);
  camera_ = std::make_unique<CameraFinish>(scenario_.rig.camera.image_size, scenario_.effects, rng.fork(2).next_u64());
  if (scenario_.webcam.auto_exposure) {
    std::vector<bool> in_view;
    for (int k = 0; k < frame_count(); ++k) in_view.push_back(hand_in_view(timeline_.at(frame_time(k)), scenario_.rig));
    exposure_gains_ = WebcamFrames::exposure_gains(*scenario_.webcam.auto_exposure, in_view, scenario_.fps);
  }
}

SessionRenderer::~SessionRenderer() = default;

const cv::Mat& SessionRenderer::radiance(int frame) {
  double t = frame_time(shown_frame(frame));
  std::vector<SceneInstant> instants;
  int samples = renderer_->samples_per_pixel();
  if (scenario_.shutter <= 0 || samples == 1) {
    instants.push_back(timeline_.at(t));
  } else {
    // Moments spread evenly over an exposure centred on the frame's time.
    double exposure = scenario_.shutter / scenario_.fps;
    for (int k = 0; k < samples; ++k) instants.push_back(timeline_.at(t + exposure * ((k + 0.5) / samples - 0.5)));
  }
  return renderer_->render(instants);
}

const cv::Mat& SessionRenderer::camera_image(int frame, const cv::Mat& light) {
  // A repeated frame is the picture delivered before it, byte for byte: everything below follows
  // the moment shown, not the frame's place.
  const int shown = shown_frame(frame);
  const double t = frame_time(shown);
  const WebcamBehaviour& webcam = scenario_.webcam;
  cv::Mat turned = light;
  if (webcam.knock)
    turned = turned_view(light, scenario_.rig.camera, knock_angle_deg(*webcam.knock, t), webcam.knock->axis_deg);
  std::vector<float> row_gains;
  if (webcam.flicker)
    row_gains = flicker_row_gains(*webcam.flicker, light.rows, t, 1 / scenario_.fps, scenario_.shutter / scenario_.fps);
  if (!exposure_gains_.empty()) {
    const float gain = static_cast<float>(exposure_gains_[static_cast<std::size_t>(shown)]);
    if (row_gains.empty()) row_gains.assign(static_cast<std::size_t>(light.rows), 1.0f);
    for (float& g : row_gains) g *= gain;
  }
  return camera_->finish(turned, random::SplitMix64(scenario_.seed).fork(100 + static_cast<uint64_t>(shown)).next_u64(),
                         row_gains);
}

const cv::Mat& SessionRenderer::frame(int frame) {
  return camera_image(frame, radiance(frame));
}

nlohmann::json camera_json(const CameraRig& rig) {
  nlohmann::json out = calib::camera_model_to_json(rig.camera);
  nlohmann::json rotation = nlohmann::json::array();
  for (int r = 0; r < 3; ++r) rotation.push_back({rig.rotation(r, 0), rig.rotation(r, 1), rig.rotation(r, 2)});
  out["camera_from_table"] = {{"rotation", rotation},
                              {"translation_mm", {rig.translation[0], rig.translation[1], rig.translation[2]}}};
  return out;
}

SessionSummary render_session(const Scenario& scenario, const std::filesystem::path& out_dir,
                              const std::function<void(int, int)>& progress, const SessionOptions& options) {
  using Clock = std::chrono::steady_clock;
  auto start = Clock::now();
  std::filesystem::create_directories(out_dir);
  SessionRenderer session(scenario);
  GroundTruth truth(session.model(), scenario.rig);
  SessionSummary summary;
  summary.size = scenario.rig.camera.image_size;
  int frames = options.max_frames > 0 ? std::min(options.max_frames, session.frame_count()) : session.frame_count();
  const LandingTruth landings(session.timeline(), session.model(), truth, scenario.fps, frames);

  // Written under temporary names and renamed at the end: a failed render never leaves a video
  // or truth file that looks complete.
  std::filesystem::path video = out_dir / "video.mp4", video_tmp = out_dir / "video.partial.mp4";
  cv::VideoWriter writer(video_tmp.string(), cv::CAP_FFMPEG, cv::VideoWriter::fourcc('a', 'v', 'c', '1'), scenario.fps,
                         summary.size);
  if (!writer.isOpened())
    throw std::runtime_error("cannot open an H.264 (avc1) video writer through FFmpeg for " + video_tmp.string());
  std::string truth_text;
  for (int k = 0; k < frames; ++k) {
    auto t0 = Clock::now();
    const cv::Mat& light = session.radiance(k);
    auto t_traced = Clock::now();
    const cv::Mat& image = session.camera_image(k, light);
    auto t1 = Clock::now();
    writer.write(image);
    auto t2 = Clock::now();
    if (std::find(options.snapshot_frames.begin(), options.snapshot_frames.end(), k) != options.snapshot_frames.end()) {
      std::string name = fmt::format("frame_{:06}.png", k);
      if (!cv::imwrite((out_dir / name).string(), image))
        throw std::runtime_error("cannot write " + (out_dir / name).string());
    }
    summary.trace_seconds += std::chrono::duration<double>(t_traced - t0).count();
    summary.effects_seconds += std::chrono::duration<double>(t1 - t_traced).count();
    summary.encode_seconds += std::chrono::duration<double>(t2 - t1).count();
    model::TrackFrame tf = truth.next(k, session.frame_time(k), session.timeline().at(session.frame_time(k)));
    tf.landings = landings.landings_of_frame(k);
    for (const model::DiskTrack& d : tf.disks) summary.visible_disk_frames += d.state == model::TrackState::visible;
    truth_text += model::to_jsonl_line(tf);
    truth_text += '\n';
    if (progress) progress(k + 1, frames);
  }
  auto t_release = Clock::now();
  writer.release();
  summary.encode_seconds += std::chrono::duration<double>(Clock::now() - t_release).count();

  // Read it back here, as every consumer will.
  {
    cv::VideoCapture check(video_tmp.string(), cv::CAP_FFMPEG);
    cv::Mat first;
    if (!check.isOpened() || !check.read(first) || first.size() != summary.size)
      throw std::runtime_error("the encoded video " + video_tmp.string() + " cannot be read back by OpenCV");
  }
  std::filesystem::rename(video_tmp, video);
  summary.video_bytes = std::filesystem::file_size(video);
  io::write_file_atomically(out_dir / "truth.jsonl", truth_text);
  io::write_file_atomically(out_dir / "table.json", model::table_to_json(scenario.table).dump(2) + "\n");
  io::write_file_atomically(out_dir / "disks.json", model::disk_registry_to_json(scenario.registry).dump(2) + "\n");
  io::write_file_atomically(out_dir / "camera.json", camera_json(scenario.rig).dump(2) + "\n");
  summary.frames = frames;
  summary.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return summary;
}

}  // namespace diskref::simulator
