#pragma once
// What every panel of the companion screen reads and edits: the fixed inputs (table, registry,
// lens), the newest snapshot from the worker and the table scene built from it, the dispute
// choices, the event log. One instance, owned by the app's loop; the panels are free functions
// over it (ui/panels.h). Disk state is never copied into panels: they read the scene each frame.

#include <array>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "calibration/camera_model.h"
#include "engine/model/disk_registry.h"
#include "engine/model/table_spec.h"
#include "recording/session_recording.h"
#include "referee/table_snapshot.h"
#include "referee/verdicts.h"
#include "ui/event_log.h"
#include "ui/live_game.h"
#include "ui/source_worker.h"
#include "ui/view_transform.h"

namespace diskref::ui {

struct PhotoTab;  // ui/photo_panel.h

// A label on the screen and what it names.
struct NamedRect {
  std::string name;
  ScreenRect rect;
};
std::vector<ScreenRect> rects_of(const std::vector<NamedRect>& named);

struct RangeTemplateChoice {
  std::string label;
  geom::Rect rect;
};

// The dispute tool's inputs, by disk name so they survive frames and re-ordering.
struct DisputeChoice {
  std::optional<std::string> a;
  std::optional<std::string> b;
  std::optional<std::string> mover;
  int flips = 3;
  int template_index = 0;    // into Screen::templates
  int reach_multiplier = 1;  // 1 = base range, 2 = "+1 range"
};

// How long the camera view keeps saying that the camera moved.
inline constexpr double kCameraMovedShowS = 10.0;

struct Screen {
  // Fixed for the session.
  model::TableSpec table;
  model::DiskRegistry registry;
  std::optional<calib::CameraModel> lens;  // from the camera file, when there is one
  std::vector<RangeTemplateChoice> templates;
  SourceWorker* worker = nullptr;
  recording::SessionRecorder* recorder = nullptr;  // null when not recording
  LiveGame* game = nullptr;                        // `--game`: the referee, live (null otherwise)
  // `--replay` of a refereed session: every ruling of the recording, for the timeline's marks and
  // stepping ruling by ruling (empty otherwise).
  struct RulingMark {
    double t = 0;
    long long frame = 0;    // the frame it was taken at
    std::size_t entry = 0;  // its number in the log
    std::string text;
    bool warning = false;  // a warning or a refusal: marked in another colour
  };
  std::vector<RulingMark> ruling_marks;

  // --game: the newest published view of the game (refresh() takes it; the panels read it).
  std::shared_ptr<const GameView> game_view;
  std::string typed_input;                                  // the turn panel's free input line (JSON)
  std::string typed_input_error;                            // why the typed line is not an input
  std::map<std::string, std::array<int, 3>> orders_picked;  // Step Two, per ship: the three orders chosen

  // --serve beyond loopback: the window with the feed's address, its token and its QR code is
  // shown (closed by the referee, shown again with Q), and where its code was drawn (for
  // --views-json).
  bool show_feed_access = true;
  std::optional<ScreenRect> feed_qr_drawn;

  // The dispute from a photo (ui/photo_panel.h), drawn over the views while shown: opened by the
  // dispute panel's button or by a photo dropped on the window.
  PhotoTab* photo = nullptr;
  bool show_photo = false;

  // The newest frame and what it shows.
  std::shared_ptr<const Snapshot> snap;
  referee::TableSnapshot scene;
  unsigned texture = 0;  // the frame as an OpenGL texture
  Vec2 texture_size;

  // The dispute tool, recomputed every frame from the scene.
  DisputeChoice choice;
  std::optional<referee::PairVerdict> pair;
  std::optional<referee::FlipVerdict> flip;
  std::string pair_problem;  // why there is no pair result (a disk lost, ...)
  std::string last_logged_call;

  // Where the views drew this frame (set by the panels), for --views-json.
  std::optional<ImageViewTransform> camera_view_drawn;
  std::vector<std::string> camera_warnings_drawn;  // the warnings written over the camera view
  std::optional<TableViewTransform> table_view_drawn;
  // A drop's counters as each view labelled them: each counter's label and the tally's box.
  struct CountersDrawn {
    std::vector<NamedRect> labels;  // by counter
    std::optional<ScreenRect> box;  // the tally, the questions and the notes
  };
  std::optional<CountersDrawn> camera_counters_drawn, table_counters_drawn;
  // The disks' names and the move's text box as each view placed them.
  struct TextDrawn {
    std::vector<NamedRect> names;  // by disk
    std::optional<ScreenRect> move_text;
  };
  TextDrawn camera_text_drawn, table_text_drawn;

  EventLog log;
  bool camera_moved = false;  // the camera was re-located in the last kCameraMovedShowS seconds
  // Said over the camera view for the whole session, not only once in the event log: what a
  // replayed recording lost (cut short, a segment or still missing, its video changed or gone).
  std::vector<std::string> standing_warnings;
  bool zoom_to_dispute = false;     // the table view shows only the disputed disks' surroundings
  bool fit_camera_to_table = true;  // the camera view shows the table, not the whole image
  bool show_detections = true;
  double display_fps = 0;

  // The lens calibration's RMS: the pose's calibrated lens, else the camera file's.
  std::optional<double> lens_rms() const;
  // Adds to the log and to the recording.
  void note(Severity severity, std::string text);
  // Left click on a disk: A, then B; a click with both chosen starts again with A.
  void click_disk(const std::string& name);
  // Right click: the ship whose flip path is shown (again: no ship).
  void click_mover(const std::string& name);
  // Rebuilds the scene and the dispute results after a new snapshot or a new choice.
  void refresh();
};

// The table-frame box around everything the dispute tool shows (the chosen disks, the template
// placement, the flip path), grown by `margin_mm`; absent when nothing is chosen.
struct TableBox {
  Vec2 min;
  Vec2 max;
};
std::optional<TableBox> dispute_bounds(const Screen& screen, double margin_mm);

// --game: the reading of a drop the views show now (one waiting for its counters, with the
// answers given so far, or one read in the last LiveGame::kAlertShowS seconds); null when none.
const referee::CounterReading* shown_counter_reading(const Screen& screen);

// The range templates to choose from: the rules' default, then every template in the registry.
// The rules' range template (docs/rules.md, open parameter 5) first, then every template disk of
// the registry.
std::vector<RangeTemplateChoice> range_template_choices(const model::DiskRegistry& registry,
                                                        const geom::Rect& rules_template);

}  // namespace diskref::ui
