#pragma once
// A scenario: everything `diskref render` needs to make one table session (format documented in
// docs/reference/commands/render.md, "Scenario format"): the camera, the table and its surface, the
// disks and where they start, a timeline of events (flips, turns, hands, templates, boards), the
// image effects, the duration, frame rate and seed, and what the webcam does on its own
// (webcam_behaviour.h).

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "engine/io/json_cursor.h"
#include "engine/model/disk_registry.h"
#include "engine/model/table_spec.h"
#include "print/board_pattern.h"
#include "simulator/camera_rig.h"
#include "simulator/image_effects.h"
#include "simulator/table_surface.h"
#include "simulator/webcam_behaviour.h"

namespace diskref::simulator {

struct StartPlacement {
  std::string disk;
  double x = 0, y = 0, heading = 0;
  model::Face face = model::Face::up;
};

// Where a hand comes from: the direction (table frame, degrees) from its target towards the arm;
// absent = from the nearest edge of the play area.
using ArmDirection = std::optional<double>;

struct FlipEvent {
  std::string disk;
  int count = 1;
  double seconds_per_flip = 0.3;  // a quick turn: too blurred to read
  double pause_s = 0.25;          // lying still between flips
};

struct RotateEvent {
  std::string disk;
  double heading = 0;
  double duration_s = 0.8;
};

struct PlaceEvent {  // a hand brings the disk in and lays it down
  std::string disk;
  double x = 0, y = 0, heading = 0;
  model::Face face = model::Face::up;
  double duration_s = 1.6;
  ArmDirection from;
};

struct RemoveEvent {  // a hand picks the disk up and takes it away
  std::string disk;
  double duration_s = 1.4;
  ArmDirection to;
};

struct HandEvent {                // a hand reaches over the table and rests there
  std::vector<std::string> over;  // disks to cover (the hand goes to their middle)
  std::optional<geom::Vec2> at_mm;
  double height_mm = 45;  // palm underside above the table
  double enter_s = 0.7, hold_s = 1.5, leave_s = 0.7;
  ArmDirection from;
};

struct TemplateEvent {  // the range template is laid between two disks and lifted again
  std::string disk;
  std::string from_disk, to_disk;
  double lay_s = 1.6, hold_s = 2.5, lift_s = 1.4;
  ArmDirection from;
};

struct BoardEvent {  // a calibration board shown to the camera at several poses
  print::BoardSpec board;
  int count = 12;  // automatic poses (calibration_poses) when `poses` is empty
  uint64_t seed = 1;
  std::vector<std::pair<cv::Matx33d, cv::Vec3d>> poses;  // camera_from_board, given explicitly
  double hold_s = 0.6, move_s = 0.5;
};

// One counter of a drop and how it comes to rest (counter_drop.h).
struct DroppedCounter {
  std::string disk;
  double x = 0, y = 0, heading = 0;                  // where it comes to rest (its centre, on the table)
  model::Face face = model::Face::up;                // the face that ends up
  enum class Rest { flat, edge } rest = Rest::flat;  // edge: standing on its rim, its `face` towards `heading`
  std::string on;  // a disk it comes to rest on (its centre over it: flat on top) or against (leaning)
};

struct DropEvent {  // a hand drops counters: they tumble and come to rest as given
  std::vector<DroppedCounter> counters;
  double height_mm = 150;  // released this high over the table
  double settle_s = 0.6;   // at most this long from hitting the table to lying still (each its own)
  ArmDirection from;
};

struct GatherEvent {  // a hand picks disks up together and takes them away
  std::vector<std::string> disks;
  double duration_s = 1.2;
  ArmDirection to;
};

struct ScenarioEvent {
  double t = 0;
  std::variant<FlipEvent, RotateEvent, PlaceEvent, RemoveEvent, HandEvent, TemplateEvent, BoardEvent, DropEvent,
               GatherEvent>
      what;
  std::string path;  // JSON path, for error messages (e.g. "events[3]")
};

struct Scenario {
  std::string file;  // for error messages
  double duration_s = 10;
  double fps = 30;
  uint64_t seed = 1;
  CameraRig rig;
  model::TableSpec table;
  SurfaceSpec surface;
  model::DiskRegistry registry;
  std::vector<StartPlacement> start;
  std::vector<ScenarioEvent> events;  // sorted by time
  ImageEffects effects;
  double shutter = 0.5;    // exposure time as a fraction of the frame interval (motion blur); 0 = none
  WebcamBehaviour webcam;  // flicker, auto-exposure, a knocked boom, repeated and lost frames

  int frame_count() const { return static_cast<int>(std::floor(duration_s * fps + 1e-9)); }
};

// Reads a scenario; relative file names inside it ("table": "table.json") are relative to the
// scenario's directory. Throws InputError naming the file, the JSON path and the problem.
Scenario load_scenario(const std::filesystem::path& file);
Scenario parse_scenario(const io::JsonCursor& root, const std::filesystem::path& base_dir);

}  // namespace diskref::simulator
