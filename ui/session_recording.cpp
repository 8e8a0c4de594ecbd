#include "ui/session_recording.h"

#include <fstream>
#include <stdexcept>
#include <system_error>

#include "engine/io/atomic_write.h"
#include "engine/io/input_error.h"
#include "engine/io/jsonl.h"
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

std::FILE* open_for_append(const fs::path& file) {
  std::FILE* f = std::fopen(file.c_str(), "ab");
  if (f == nullptr) throw std::runtime_error(file.string() + ": cannot be created");
  return f;
}

void write_line(std::FILE* f, const std::string& line) {
  std::fwrite(line.data(), 1, line.size(), f);
  std::fputc('\n', f);
  std::fflush(f);  // a crash after this loses nothing already written
}

}  // namespace

SessionRecorder::SessionRecorder(const fs::path& dir, const SessionInfo& info, const SessionFiles& files) : dir_(dir) {
  std::error_code ec;
  if (fs::exists(dir_) && !fs::is_empty(dir_)) {
    throw std::runtime_error(dir_.string() + ": recording directory exists and is not empty");
  }
  fs::create_directories(dir_, ec);
  if (ec) throw std::runtime_error(dir_.string() + ": cannot be created: " + ec.message());
  fs::copy_file(files.table, dir_ / "table.json", fs::copy_options::overwrite_existing);
  fs::copy_file(files.disks, dir_ / "disks.json", fs::copy_options::overwrite_existing);
  if (files.camera) fs::copy_file(*files.camera, dir_ / "camera.json", fs::copy_options::overwrite_existing);
  io::write_file_atomically(dir_ / "session.json", session_info_to_json(info).dump(2) + "\n");
  track_ = open_for_append(dir_ / "track.jsonl");
  events_ = open_for_append(dir_ / "events.jsonl");
}

SessionRecorder::~SessionRecorder() {
  if (track_) std::fclose(track_);
  if (events_) std::fclose(events_);
}

void SessionRecorder::write_frame(const model::TrackFrame& frame) {
  std::string line = model::to_jsonl_line(frame);
  std::lock_guard lock(mutex_);
  write_line(track_, line);
  ++frames_written_;
}

void SessionRecorder::write_event(const Event& event) {
  std::string line = to_json(event).dump();
  std::lock_guard lock(mutex_);
  write_line(events_, line);
}

long long SessionRecorder::frames_written() const {
  std::lock_guard lock(mutex_);
  return frames_written_;
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
  fs::path events_file = dir / "events.jsonl";
  if (fs::exists(events_file)) {
    io::read_jsonl(events_file, [&](const io::JsonCursor& c) {
      Event e;
      e.t = c.at("t").number();
      if (auto f = c.find("frame")) e.frame = f->integer();
      e.severity = c.at("severity").one_of({"info", "warning"}) == "warning" ? Severity::warning : Severity::info;
      e.text = c.at("text").string();
      r.events.push_back(std::move(e));
    }, &r.warnings);
  }
  return r;
}

}  // namespace diskref::ui
