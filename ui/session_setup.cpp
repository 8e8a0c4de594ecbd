#include "ui/session_setup.h"

#include <nlohmann/json.hpp>

#include "engine/io/input_error.h"

namespace diskref::ui {
namespace fs = std::filesystem;

namespace {

fs::path required_file(const std::optional<fs::path>& given, const fs::path& beside, const char* what,
                       const char* option) {
  fs::path p = given ? *given : beside;
  if (!fs::is_regular_file(p)) {
    throw io::InputError(p.string(), "",
                         std::string(what) + " not found" +
                             (given ? "" : std::string(" beside the video (give it with ") + option + ")"));
  }
  return p;
}

// table.json, disks.json and (when there) camera.json in `dir`, unless the choice names others.
recording::SessionFiles files_beside(const SourceChoice& c, const fs::path& dir) {
  recording::SessionFiles f;
  f.table = required_file(c.table, dir / "table.json", "table file", "--table");
  f.disks = required_file(c.disks, dir / "disks.json", "disk registry", "--disks");
  if (c.camera_file) {
    f.camera = required_file(c.camera_file, {}, "camera file", "--calib");
  } else if (fs::is_regular_file(dir / "camera.json")) {
    f.camera = dir / "camera.json";
  }
  return f;
}

}  // namespace

ResolvedSession resolve_session(const SourceChoice& c) {
  ResolvedSession r;
  if (c.kind == SourceChoice::Kind::replay) {
    // A recording carries its own files (session_recording.h); the video is where it was.
    fs::path dir = c.replay_dir;
    if (!fs::is_regular_file(dir / "session.json")) {
      throw io::InputError((dir / "session.json").string(), "", "not a session recording (session.json missing)");
    }
    r.files = files_beside(c, dir);
    r.tracks = dir / "track.jsonl";
    r.tracks_label = "recording " + dir.filename().string();
    return r;  // the video comes from session.json (the app reads the recording)
  }

  if (c.kind == SourceChoice::Kind::camera) {
    if (!c.table || !c.disks)
      throw io::InputError("", "",
                           "a live camera needs --table and --disks (a first table without them: diskref ui --setup "
                           "DIR --game GAME.json --camera N makes them step by step)");
    r.files.table = required_file(c.table, {}, "table file", "--table");
    r.files.disks = required_file(c.disks, {}, "disk registry", "--disks");
    if (c.camera_file) r.files.camera = required_file(c.camera_file, {}, "camera file", "--calib");
  } else {
    if (!fs::is_regular_file(c.video)) throw io::InputError(c.video.string(), "", "video not found");
    r.video = c.video;
    r.files = files_beside(c, c.video.parent_path());
  }

  if (c.tracks) {
    if (!fs::is_regular_file(*c.tracks)) throw io::InputError(c.tracks->string(), "", "track file not found");
    r.tracks = *c.tracks;
    r.tracks_label = "tracks from " + c.tracks->filename().string();
  } else {
    r.tracks_label = "tracker";
  }
  return r;
}

}  // namespace diskref::ui
