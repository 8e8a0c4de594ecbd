#pragma once
// The camera steps of the setup screen — calibration, table, disks — as the setup worker runs them
// (setup_worker.h): each takes the source's frames, feeds them to its step of the setup library
// (setup/), and says what the screen shows as a StageView: what to draw over the picture, the
// figures, a table, a log, the advice (every problem with its fix) and whether the step can be
// done. No ImGui here: the views are checked headlessly, and the screen only draws them.

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <opencv2/core.hpp>

#include "calibration/camera_model.h"
#include "calibration/camera_pose.h"
#include "calibration/lens_calibration.h"
#include "engine/model/disk_registry.h"
#include "engine/model/table_spec.h"
#include "print/board_pattern.h"
#include "setup/advice.h"
#include "setup/setup_state.h"
#include "ui/theme.h"
#include "ui/view_transform.h"
#include "vision/frame_source.h"

namespace diskref::ui {

// Drawn over the camera picture, in its raw pixels (OpenCV convention).
struct OverlayShape {
  std::vector<Vec2> points_px;
  Rgb color;
  bool closed = true;
  float width = 2;
  bool dashed = false;
};
struct OverlayLabel {
  Vec2 at_px;
  Rgb color;
  std::string text;
};

struct StageView {
  setup::Step step = setup::Step::done;
  long long frame = -1;
  double t = 0;
  std::vector<OverlayShape> shapes;
  std::vector<OverlayLabel> labels;
  cv::Mat coverage;  // calibration: board corners kept per cell of a grid over the picture (CV_32S)
  // The part of the picture worth showing (the table and its markers, once found), raw pixels.
  std::optional<std::pair<Vec2, Vec2>> focus_px;
  std::vector<std::pair<std::string, std::string>> figures;  // name, value
  std::vector<std::vector<std::string>> table;               // first row: the headings
  std::vector<std::string> log;                              // newest last
  std::vector<setup::Advice> advice;
  bool ready = false;  // the step can be done now
  std::string busy;    // what a command is doing ("calibrating from 14 views")
  // What the screen saves when the step is done.
  std::optional<calib::LensCalibration> calibration;
  std::optional<calib::CameraPose> table_pose;
  std::map<int, double> offsets;  // disks: heading offsets the down faces want (tag id -> correction)
};

class SetupStage {
 public:
  virtual ~SetupStage() = default;
  virtual setup::Step step() const = 0;
  // Worker thread: one frame, its grey copy, and the frame before it in grey (empty after a gap).
  virtual void process(const vision::Frame& frame, const cv::Mat& gray, const cv::Mat& previous_gray) = 0;
  virtual StageView view() const = 0;
};

std::unique_ptr<SetupStage> make_calibration_stage(const print::BoardSpec& board);
// `registry` for the planner's check of every tag from where the camera is.
std::unique_ptr<SetupStage> make_table_stage(const model::TableSpec& table,
                                             const std::optional<calib::CameraModel>& lens,
                                             const model::DiskRegistry& registry);
std::unique_ptr<SetupStage> make_disks_stage(const model::TableSpec& table, const model::DiskRegistry& registry,
                                             const std::optional<calib::CameraModel>& lens);

// Commands for the calibration stage (run on the worker thread): fit the lens from the views kept
// (the view then has `calibration`, or the refusal in its advice); start collecting again.
void calibrate_now(SetupStage& stage);
void restart_calibration(SetupStage& stage);

}  // namespace diskref::ui
