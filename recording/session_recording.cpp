#include "recording/session_recording.h"

#include <ctime>
#include <fstream>
#include <stdexcept>
#include <system_error>

#include <nlohmann/json.hpp>

#include "engine/io/atomic_write.h"
#include "engine/io/input_error.h"
#include "engine/io/json_cursor.h"
#include "engine/io/jsonl.h"
#include "engine/io/write_error.h"
#include "engine/model/bounds.h"

namespace diskref::recording {
namespace fs = std::filesystem;

namespace {
constexpr int kRecordingVersion = 2;  // spec §11
}  // namespace

std::string utc_now() {
  std::time_t now = std::time(nullptr);
  char text[32];
  std::tm parts{};
  gmtime_r(&now, &parts);
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &parts);
  return text;
}

nlohmann::json session_info_to_json(const SessionInfo& info, const SessionProvenance& provenance) {
  nlohmann::json j = {{"recording", kRecordingVersion},
                      {"source", info.source},
                      {"started_utc", info.started_utc},
                      {"tracks_from", info.tracks_from},
                      {"frames_copied", provenance.frames_copied}};
  if (info.video) j["video"] = *info.video;
  if (provenance.video_checksum)
    j["video_file"] = {{"bytes", provenance.video_checksum->bytes}, {"fnv1a64", provenance.video_checksum->fnv1a64}};
  if (info.camera_index) j["camera_index"] = *info.camera_index;
  if (!provenance.diskref_version.empty()) j["diskref"] = provenance.diskref_version;
  if (!provenance.command.empty()) j["command"] = provenance.command;
  if (!provenance.parameters.empty()) j["parameters"] = provenance.parameters;
  return j;
}

namespace {

void copy_into(const fs::path& from, const fs::path& to) {
  std::error_code ec;
  fs::copy_file(from, to, fs::copy_options::overwrite_existing, ec);
  if (ec) throw io::WriteError(to.string() + ": cannot copy " + from.string() + " into the recording: " + ec.message());
}

}  // namespace

SessionRecorder::SessionRecorder(const fs::path& dir, const SessionInfo& info, const SessionFiles& files,
                                 const SessionProvenance& provenance)
    : dir_(dir) {
  std::error_code ec;
  const fs::file_status st = fs::status(dir_, ec);
  if (fs::exists(st) && !fs::is_directory(st))
    throw io::InputError(dir_.string(), "", "exists and is not a folder: a recording needs a new or empty folder");
  if (fs::is_directory(st) && !fs::is_empty(dir_, ec))
    throw io::InputError(dir_.string(), "",
                         "is not empty: a recording needs a new or empty folder (it never writes over one)");
  fs::create_directories(dir_, ec);
  if (ec) throw io::InputError(dir_.string(), "", "cannot be created: " + ec.message());
  copy_into(files.table, dir_ / "table.json");
  copy_into(files.disks, dir_ / "disks.json");
  if (files.camera) copy_into(*files.camera, dir_ / "camera.json");
  io::write_file_atomically(dir_ / "session.json", session_info_to_json(info, provenance).dump(2) + "\n");
  track_ = std::make_unique<io::LineFile>(dir_ / "track.jsonl", io::LineFile::Mode::append);
  events_ = std::make_unique<io::LineFile>(dir_ / "events.jsonl", io::LineFile::Mode::append);
}

// Ended without end() (an error unwound the session): still an end, not a crash.
SessionRecorder::~SessionRecorder() {
  if (!ended_) {
    try {
      end(nlohmann::json::object());
    } catch (const std::exception&) {
      // A full disk: the recording stays without ended.json, read as cut short, which it is.
    }
  }
}

bool SessionRecorder::write_or_count_lost(io::LineFile& file, const std::string& line, long long& lost) {
  // The first write that fails stops both files: a recording with frames but no events after
  // some point (or the other way round) would look whole and not be.
  if (failure_.empty() && file.write_line(line)) return true;
  if (failure_.empty()) failure_ = file.failure();
  ++lost;
  return false;
}

void SessionRecorder::write_frame(const model::TrackFrame& frame) {
  std::string line = model::to_jsonl_line(frame, model::Precision::exact);
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

void SessionRecorder::end(nlohmann::json summary) {
  std::lock_guard lock(mutex_);
  ended_ = true;
  summary["ended_utc"] = utc_now();
  summary["frames"] = frames_written_;
  summary["clean"] = failure_.empty();
  if (!failure_.empty()) summary["failure"] = failure_;
  io::write_file_atomically(dir_ / "ended.json", summary.dump(2) + "\n");
}

bool SessionRecorder::failed() const {
  std::lock_guard lock(mutex_);
  return !failure_.empty();
}

std::string SessionRecorder::failure() const {
  std::lock_guard lock(mutex_);
  if (failure_.empty()) return failure_;
  return failure_ + "; " + std::to_string(frames_written_) + " frame(s) were recorded, " +
         std::to_string(frames_lost_) + " frame(s) and " + std::to_string(events_lost_) +
         " event(s) from then on were not";
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
  const int version = s.has("recording") ? s.at("recording").int_in(1, kRecordingVersion) : 1;
  if (auto c = s.find("frames_copied")) r.provenance.frames_copied = c->boolean();
  if (auto v = s.find("diskref")) r.provenance.diskref_version = v->string();
  if (auto c = s.find("command"))
    for (std::size_t i = 0; i < c->size(); ++i) r.provenance.command.push_back(c->at(i).string());
  if (auto p = s.find("parameters")) r.provenance.parameters = p->json();
  if (auto f = s.find("video_file"))
    r.provenance.video_checksum =
        FileChecksum{static_cast<std::uintmax_t>(f->at("bytes").non_negative_number()), f->at("fnv1a64").string()};
  if (fs::exists(dir / "ended.json")) {
    r.ended = io::read_json_file(dir / "ended.json");
  } else if (version >= 2) {
    r.warnings.push_back(dir.string() +
                         ": the recording was cut short (no ended.json: diskref was stopped before the session ended, "
                         "or its disk was full); what it holds up to then is shown");
  }
  r.files.table = dir / "table.json";
  r.files.disks = dir / "disks.json";
  if (fs::exists(dir / "camera.json")) r.files.camera = dir / "camera.json";

  // Looked at afterwards, a damaged line is skipped and said: it never hides the rest of a session.
  io::read_jsonl_skipping_bad_lines(
      dir / "track.jsonl", [&](const io::JsonCursor& c) { r.frames.push_back(model::parse_track_frame(c)); },
      r.warnings);
  // Played back, a long gap in the recorded times (a night's pause, a clock that jumped) is shortened.
  for (const std::string& note : model::cap_time_gaps(r.frames, model::bounds::kMaxReplayGapS))
    r.warnings.push_back((dir / "track.jsonl").string() + ": " + note);
  fs::path events_file = dir / "events.jsonl";
  if (fs::exists(events_file)) {
    io::read_jsonl_skipping_bad_lines(
        events_file,
        [&](const io::JsonCursor& c) {
          Event e;
          e.t = model::bounds::time_s(c.at("t"));
          if (auto f = c.find("frame")) e.frame = model::bounds::frame_index(*f);
          e.severity = c.at("severity").one_of({"info", "warning"}) == "warning" ? Severity::warning : Severity::info;
          e.text = c.at("text").string();
          r.events.push_back(std::move(e));
        },
        r.warnings);
  }
  return r;
}

}  // namespace diskref::recording
