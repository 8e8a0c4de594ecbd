#pragma once
// Test support: the bundled skirmish game (its table, disks, game file, inputs and ground-truth
// tracks) as the pipeline's tests use it.

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "engine/model/disk_registry.h"
#include "engine/model/table_spec.h"
#include "engine/model/track_frame.h"
#include "recording/refereed_session_recorder.h"
#include "referee/game_file.h"
#include "referee/inputs.h"
#include "referee/referee.h"

namespace diskref::pipeline::testing {

inline std::filesystem::path sample_dir(const std::string& name = "skirmish") {
  return std::filesystem::path(DISKREF_SOURCE_DIR) / "sample_videos" / name;
}

inline std::filesystem::path test_output(const std::string& name) {
  std::filesystem::path d = std::filesystem::path(DISKREF_BINARY_DIR) / "test-output" / "pipeline" / name;
  std::filesystem::remove_all(d);
  std::filesystem::create_directories(d);
  return d;
}

struct SampleGame {
  explicit SampleGame(const std::string& name = "skirmish") : dir(sample_dir(name)) {}
  std::filesystem::path dir;
  model::TableSpec table = model::load_table(dir / "table.json");
  model::DiskRegistry registry = model::load_disk_registry(dir / "disks.json");
  std::vector<model::TrackFrame> frames = model::load_track_jsonl(dir / "truth.jsonl");
  std::vector<referee::Input> inputs = referee::load_inputs(dir / "inputs.jsonl");

  referee::Referee make_referee() const {
    return referee::Referee(referee::load_game_file(dir / "game.json", table, registry), table, registry);
  }
  // The referee alone, every input given up front (what the pipeline must agree with).
  nlohmann::json referee_alone_log(const std::vector<referee::Input>& given) const {
    referee::Referee r = make_referee();
    for (const referee::Input& in : given) r.add_input(in);
    for (const model::TrackFrame& f : frames) r.feed(f);
    r.finish();
    return r.log_json();
  }
};

// A recording of the sample's game into `dir`, as a video's (`source` "video") or a camera's.
inline std::unique_ptr<recording::RefereedSessionRecorder> recorder_for(const SampleGame& s,
                                                                        const std::filesystem::path& dir,
                                                                        const std::string& source = "video") {
  recording::SessionInfo info;
  info.source = source;
  info.started_utc = recording::utc_now();
  info.tracks_from = source == "camera" ? "tracker" : "truth";
  recording::SessionProvenance provenance;
  provenance.diskref_version = "test";
  provenance.frames_copied = source == "camera";
  return std::make_unique<recording::RefereedSessionRecorder>(
      dir, info, recording::SessionFiles{s.dir / "table.json", s.dir / "disks.json", s.dir / "camera.json"}, provenance,
      s.dir / "game.json");
}

}  // namespace diskref::pipeline::testing
