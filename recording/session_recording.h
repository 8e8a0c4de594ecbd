#pragma once
// Session recording: what the tracker output and what happened, written as it happens so that
// nothing is lost if the program dies, and read back for replay.
//
// A recording is a directory (spec §11 lists every file; the game's own are game_recorder.h's, the
// camera's frames video_recorder.h's):
//   session.json   what was recorded: the source (video file or camera index), when, by which
//                  diskref with which command and parameters, whether the frames are copied or
//                  the video referenced (with its checksum); written first, atomically.
//   table.json, disks.json, camera.json (when there was one)
//                  copies of the files the session ran with, so a replay needs nothing else.
//   track.jsonl    one tracking frame per line (spec §5 plus its extensions), flushed after
//                  every frame.
//   events.jsonl   one event per line ({"t", "frame", "severity", "text"}), flushed after each.
//   ended.json     written last, atomically: a recording without it was cut short.
// A crash can at worst cut the last line of a .jsonl file short; loading drops such a line with
// a warning. A bad line anywhere else (a damaged disk, an edit) is skipped with a warning naming it:
// the rest of the session is still shown.
//
// Every write is checked. When one fails (a full disk, a file size limit) the recording stops
// there: the file is cut back to its last complete line, nothing more is written, and failed() /
// failure() say what was kept and what was lost since; the screen shows it and `diskref ui` exits 1.

#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/io/line_file.h"
#include "engine/model/track_frame.h"
#include "recording/file_checksum.h"
#include "recording/session_event.h"

namespace diskref::recording {

struct SessionInfo {
  std::string source;                // "video" or "camera"
  std::optional<std::string> video;  // absolute path of the video, for a video source
  std::optional<int> camera_index;   // for a camera source
  std::string started_utc;           // ISO 8601
  std::string tracks_from;           // "tracker", "truth" (a rendered video's ground truth), "replay"
};

// Who made a recording and how (session.json beyond SessionInfo), so that a week later it is known
// what produced it; and where its pictures are.
struct SessionProvenance {
  std::string diskref_version;
  std::vector<std::string> command;                      // the command line, program first
  nlohmann::json parameters = nlohmann::json::object();  // the options that shape the results
  bool frames_copied = false;                  // the camera's frames are in video/ (else the video is referenced)
  std::optional<FileChecksum> video_checksum;  // of the referenced video file
};

struct SessionFiles {
  std::filesystem::path table;
  std::filesystem::path disks;
  std::optional<std::filesystem::path> camera;
};

// Writes one recording. Thread-safe: the tracker's worker writes frames, the screen writes
// events.
class SessionRecorder {
 public:
  // Creates `dir` (it must not exist or be empty), copies the files, writes session.json.
  // Throws InputError naming the folder when it cannot be a recording's (it exists and is not an
  // empty folder, or cannot be created: exit 2), WriteError when the disk is full.
  SessionRecorder(const std::filesystem::path& dir, const SessionInfo& info, const SessionFiles& files,
                  const SessionProvenance& provenance = {});
  ~SessionRecorder();
  SessionRecorder(const SessionRecorder&) = delete;
  SessionRecorder& operator=(const SessionRecorder&) = delete;

  const std::filesystem::path& dir() const { return dir_; }
  void write_frame(const model::TrackFrame& frame);
  void write_event(const Event& event);
  long long frames_written() const;
  // The session ended as it should: ended.json says so, with `summary` (frames, what was dropped).
  void end(nlohmann::json summary);

  // Whether a write failed: the recording stopped there.
  bool failed() const;
  // What failed, what is kept and what was not recorded since ("DIR/track.jsonl: writing line
  // 1235 failed: No space left on device; the 1234 line(s) before it are kept, complete, ...; 57
  // frame(s) and 2 event(s) after it were not recorded"); empty while nothing failed.
  std::string failure() const;

 private:
  // Writes `line` to `file` unless the recording stopped; a failed write stops it. Returns whether
  // the line was written, else counts it in `lost`. Called with mutex_ held.
  bool write_or_count_lost(io::LineFile& file, const std::string& line, long long& lost);

  std::filesystem::path dir_;
  mutable std::mutex mutex_;
  std::unique_ptr<io::LineFile> track_;
  std::unique_ptr<io::LineFile> events_;
  long long frames_written_ = 0;
  std::string failure_;
  long long frames_lost_ = 0;
  long long events_lost_ = 0;
  bool ended_ = false;
};

struct Recording {
  std::filesystem::path dir;
  SessionInfo info;
  SessionProvenance provenance;
  SessionFiles files;
  std::optional<nlohmann::json> ended;  // ended.json; absent: cut short (said in warnings)
  std::vector<model::TrackFrame> frames;
  std::vector<Event> events;
  std::vector<std::string> warnings;  // e.g. a last line cut short
};

// Throws InputError naming the file when session.json or track.jsonl cannot be read; a damaged line
// is skipped and said in `warnings`.
Recording load_recording(const std::filesystem::path& dir);

// Now, as ISO 8601 UTC ("2026-12-02T19:30:00Z"): when a session started or ended.
std::string utc_now();

nlohmann::json session_info_to_json(const SessionInfo& info, const SessionProvenance& provenance = {});

}  // namespace diskref::recording
