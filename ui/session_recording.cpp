#include "ui/session_recording.h"

#include <fstream>
#include <stdexcept>
#include <system_error>

#include "engine/io/atomic_write.h"
#include "engine/io/input_error.h"
#include "engine/io/jsonl.h"
#include "engine/io/write_error.h"
#include "engine/model/bounds.h"
#include "engine/io/json_cursor.h"

namespace diskref::ui {
namespace fs = std::filesystem;

nlohmann::json session_info_to_json(const SessionInfo& info) {
  nlohmann::json j = {{"source", info.source}, {"started_utc", info.started_utc}, {"tracks_from", info.tracks_from}};
  if (info.video) j["video"] = *info.video;
  if (info.camera_index) j["camera_index"] = *info.camera_index;
  return j;
}

namespace {

void copy_into(const fs::path& from, const fs::path& to) {
  std::error_code ec;
  fs::copy_file(from, to, fs::copy_options::overwrite_existing, ec);
  if (ec)
    throw io::WriteError(to.string() + ": cannot copy " + from.string() + " into the recording: " + ec.message());
}

}  // namespace

SessionRecorder::SessionRecorder(const fs::path& dir, const SessionInfo& info, const SessionFiles& files) : dir_(dir) {
  std::error_code ec;
  const fs::file_status st = fs::status(dir_, ec);
  if (fs::exists(st) && !fs::is_directory(st))
    throw io::InputError(dir_.string(), "", "exists and is not a folder: a recording needs a new or empty folder");
  if (fs::is_directory(st) && !fs::is_empty(dir_, ec))
    throw io::InputError(dir_.string(), "", "is not empty: a recording needs a new or empty folder (it never writes over one)");
  fs::create_directories(dir_, ec);
  if (ec) throw io::InputError(dir_.string(), "", "cannot be created: " + ec.message());
  copy_into(files.table, dir_ / "table.json");
  copy_into(files.disks, dir_ / "disks.json");
  if (files.camera) copy_into(*files.camera, dir_ / "camera.json");
  io::write_file_atomically(dir_ / "session.json", session_info_to_json(info).dump(2) + "\n");
  track_ = std::make_unique<io::LineFile>(dir_ / "track.jsonl", io::LineFile::Mode::append);
  events_ = std::make_unique<io::LineFile>(dir_ / "events.jsonl", io::LineFile::Mode::append);
}

SessionRecorder::~SessionRecorder() = default;

bool SessionRecorder::write_or_count_lost(io::LineFile& file, const std::string& line, long long& lost) {
  // The first write that fails stops both files: a recording with frames but no events after
  // some point (or the other way round) would look whole and not be.
  if (failure_.empty() && file.write_line(line)) return true;
  if (failure_.empty()) failure_ = file.failure();
  ++lost;
  return false;
}

void SessionRecorder::write_frame(const model::TrackFrame& frame) {
  std::string line = model::to_jsonl_line(frame);
  std::lock_guard lock(mutex_);
  if (write_or_count_lost(*track_, line, frames_lost_)) ++frames_written_;
}

void SessionRecorder::write_event(const Event& event) {
  std::string line = to_json(event).dump();
  std::lock_guard lock(mutex_);
  write_or_count_lost(*events_, line, events_lost_);
}

long long SessionRecorder::frames_written() const {
  std::lock_guard lock(mutex_);
  return frames_written_;
}

bool SessionRecorder::failed() const {
  std::lock_guard lock(mutex_);
  return !failure_.empty();
}

std::string SessionRecorder::failure() const {
  std::lock_guard lock(mutex_);
  if (failure_.empty()) return failure_;
  return failure_ + "; " + std::to_string(frames_written_) + " frame(s) were recorded, " + std::to_string(frames_lost_) +
         " frame(s) and " + std::to_string(events_lost_) + " event(s) from then on were not";
}

Recording load_recording(const fs::path& dir) {
  Recording r;
  r.dir = dir;
  fs::path session_file = dir / "session.json";
  nlohmann::json sj = io::read_json_file(session_file);
  io::JsonCursor s(sj, session_file.string());
  r.info.source = s.at("source").one_of({"video", "camera"});
  if (auto v = s.find("video")) r.info.video = v->string();
  if (auto c = s.find("camera_index")) r.info.camera_index = c->int_in(0, 1000);
  if (auto t = s.find("started_utc")) r.info.started_utc = t->string();
  if (auto t = s.find("tracks_from")) r.info.tracks_from = t->string();
  r.files.table = dir / "table.json";
  r.files.disks = dir / "disks.json";
  if (fs::exists(dir / "camera.json")) r.files.camera = dir / "camera.json";

  io::read_jsonl(dir / "track.jsonl", [&](const io::JsonCursor& c) { r.frames.push_back(model::parse_track_frame(c)); }, &r.warnings);
  // Played back, a long gap in the recorded times (a night's pause, a clock that jumped) is shortened.
  for (const std::string& note : model::cap_time_gaps(r.frames, model::bounds::kMaxReplayGapS))
    r.warnings.push_back((dir / "track.jsonl").string() + ": " + note);
  fs::path events_file = dir / "events.jsonl";
  if (fs::exists(events_file)) {
    io::read_jsonl(events_file, [&](const io::JsonCursor& c) {
      Event e;
      e.t = model::bounds::time_s(c.at("t"));
      if (auto f = c.find("frame")) e.frame = model::bounds::frame_index(*f);
      e.severity = c.at("severity").one_of({"info", "warning"}) == "warning" ? Severity::warning : Severity::info;
      e.text = c.at("text").string();
      r.events.push_back(std::move(e));
    }, &r.warnings);
  }
  return r;
}

}  // namespace diskref::ui
