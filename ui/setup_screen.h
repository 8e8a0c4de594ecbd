#pragma once
// The setup screen (`diskref ui --setup DIR`): a first table, step by step — play area, camera, kit,
// calibration, table, disks — each step with what it is for, what it found and, for every problem,
// what to do; the result kept in DIR (setup/setup_state.h) and taken up there next time.
//
//   +----------------------------------------------------------------------+
//   | 1 Play area  2 Camera  3 Kit  4 Calibration  5 Table  6 Disks  Ready  |  steps
//   +-------------------------------------------+--------------------------+
//   | the picture (camera steps) or a drawing    | the step: what is this,  |
//   | (play area, camera: the field of view on   | settings, what it found, |
//   | the table; kit: its pages)                 | problems and their fixes |
//   |                                            | Back / Next              |
//   +-------------------------------------------+--------------------------+

#include <deque>
#include <filesystem>
#include <functional>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "engine/model/camera_plan.h"
#include "setup/advice.h"
#include "setup/kit.h"
#include "setup/setup_state.h"
#include "ui/setup_script.h"
#include "ui/setup_worker.h"
#include "ui/view_transform.h"

namespace diskref::ui {

struct SetupLayout {
  ScreenRect steps, view, panel;
};
SetupLayout compute_setup_layout(Vec2 window_size_px);

class SetupScreen {
 public:
  // `worker` may be null (no camera given: the camera steps say how to start with one).
  SetupScreen(setup::SetupState state, SetupWorker* worker, std::string camera_hint);
  ~SetupScreen();

  // Draws the whole screen for this frame and runs what its buttons asked.
  void draw(Vec2 window_size_px);
  // The script's next action, if it is due and can be done now: done (true) or not yet (false).
  // `why_not` says why it cannot be done yet.
  bool try_action(const SetupAction& action, std::string& why_not);

  setup::Step step() const { return step_; }
  const setup::SetupState& state() const { return state_; }
  bool start_requested() const { return start_; }
  // Something is under way (the kit being made, the lens being fitted): a script waits for it.
  bool busy() const { return kit_job_.valid() || (shown_ && !shown_->busy.empty()); }
  bool quit_requested() const { return quit_; }
  // The source time of the newest picture (0 before any), and its frame (-1).
  double source_t() const;
  long long source_frame() const;
  bool source_at_end() const;
  // The source waits at a hold at `t` or later (its next frame lies past it).
  bool source_held(double t) const;
  // What the screen shows now (for the script's screenshots and tests).
  nlohmann::json describe() const;

 private:
  // Steps.
  void enter(setup::Step step);
  bool can_go_next(std::string& why_not) const;
  void go_next();
  void go_back();
  // Makes the kit on a thread of its own (writing the PDF takes seconds); poll_kit() takes it when
  // it is done.
  void make_kit();
  void poll_kit();
  void save_play_area();
  void save_camera();
  void apply_offsets();
  // Panels.
  void draw_steps_bar(const ScreenRect& rect);
  void draw_view(const ScreenRect& rect);
  void draw_panel(const ScreenRect& rect);
  void draw_settings();
  void draw_advice(const std::vector<setup::Advice>& advice);
  void draw_picture(const ScreenRect& area);
  void draw_plan_drawing(const ScreenRect& area);
  void draw_kit_pages(const ScreenRect& area);
  void draw_summary();
  // What the steps without the camera say.
  std::vector<setup::Advice> settings_advice() const;
  // What the step says now (the panel's list).
  std::vector<setup::Advice> current_advice() const;
  model::TableSpec planned_table() const;
  model::PinholeCamera planned_camera() const;
  void note(std::string text) { notes_.push_back(std::move(text)); }

  setup::SetupState state_;
  SetupWorker* worker_;
  std::string camera_hint_;
  setup::Step step_ = setup::Step::play_area;
  bool start_ = false, quit_ = false;

  // Settings being edited (steps 1 and 2).
  double play_w_ = 914.4, play_h_ = 914.4;
  int res_w_ = 1920, res_h_ = 1080;
  double fov_deg_ = 70, height_mm_ = 1000;
  // The kit once made (step 3), with its first pages for the screen.
  struct KitJob {
    std::optional<setup::Kit> kit;
    setup::KitFiles files;
    std::vector<cv::Mat> preview;  // the guide, the first page of disks, the last page
    std::string error;
  };
  std::future<KitJob> kit_job_;
  bool kit_action_started_ = false;  // the script's make_kit waits for its kit
  std::optional<setup::Kit> kit_;
  std::vector<unsigned> kit_textures_;
  std::vector<Vec2> kit_texture_sizes_;
  std::vector<setup::Advice> kit_advice_;

  // The newest picture and what the step made of it.
  std::shared_ptr<const SetupPublication> shown_;
  unsigned texture_ = 0;
  long long texture_sequence_ = -1;

  std::vector<std::string> notes_;                   // what the screen did ("wrote camera.json")
  std::optional<ImageViewTransform> picture_drawn_;  // where the camera picture went this frame
};

}  // namespace diskref::ui
