#pragma once
// Which files a session of the screen runs on. A recording's table, registry and camera files are
// found beside its video by default (sample_videos/<name>/{video.mp4, table.json, disks.json,
// camera.json}); any of them can be given instead.

#include <filesystem>
#include <optional>
#include <string>

#include "recording/session_recording.h"

namespace diskref::ui {

struct SourceChoice {
  enum class Kind { video, camera, replay };
  Kind kind = Kind::video;
  std::filesystem::path video;       // Kind::video
  int camera_index = 0;              // Kind::camera
  std::filesystem::path replay_dir;  // Kind::replay: a session recording
  // Overrides of the files found beside the video (required for a camera).
  std::optional<std::filesystem::path> table;
  std::optional<std::filesystem::path> disks;
  std::optional<std::filesystem::path> camera_file;
  // Show these tracks (a truth.jsonl or a `diskref track` output) instead of running the tracker.
  std::optional<std::filesystem::path> tracks;
};

struct ResolvedSession {
  recording::SessionFiles files;
  std::optional<std::filesystem::path> video;   // absent for a camera, or a replay without its video
  std::optional<std::filesystem::path> tracks;  // a track file to show instead of the tracker
  std::string tracks_label;                     // how the screen names where tracks come from
  std::vector<std::string> notes;               // e.g. "replay: video ... not found; table view only"
};

// Resolves the files; throws InputError naming what is missing.
ResolvedSession resolve_session(const SourceChoice& choice);

}  // namespace diskref::ui
