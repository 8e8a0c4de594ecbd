#pragma once
// Test support: the bundled skirmish game recorded once (`diskref referee ... --record`) and shared
// by the tests of one process, which read it and never change it (each copies it to damage it).

#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "tests/calibration/command_runner.h"

namespace diskref::testing {

inline std::filesystem::path skirmish() {
  return std::filesystem::path(DISKREF_SOURCE_DIR) / "sample_videos" / "skirmish";
}

inline std::string skirmish_files() {
  const auto s = skirmish();
  return "--table " + (s / "table.json").string() + " --disks " + (s / "disks.json").string() + " --calib " +
         (s / "camera.json").string() + " --game " + (s / "game.json").string() + " --inputs " +
         (s / "inputs.jsonl").string();
}

inline nlohmann::json read_json(const std::filesystem::path& file) {
  return nlohmann::json::parse(slurp(file));
}

// Runs build/diskref with `arguments`, output in `dir`/out.txt and err.txt.
inline CommandRun run_diskref(const std::string& arguments, const std::filesystem::path& dir) {
  CommandRun r;
  const std::string command = (std::filesystem::path(DISKREF_BINARY_DIR) / "diskref").string() + " " + arguments +
                              " > " + (dir / "out.txt").string() + " 2> " + (dir / "err.txt").string();
  const int status = std::system(command.c_str());
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = slurp(dir / "out.txt");
  r.err = slurp(dir / "err.txt");
  return r;
}

struct RecordedSample {
  std::filesystem::path root;       // scratch of this process
  std::filesystem::path recording;  // root/skirmish-recording
  std::filesystem::path log;        // the referee's --out
  CommandRun run;
};

// Made on first use (half a minute: the video tracked and its frames encoded).
inline const RecordedSample& recorded_sample() {
  static const RecordedSample sample = [] {
    RecordedSample s;
    s.root = std::filesystem::path(DISKREF_BINARY_DIR) / "test-output" / "recording" / std::to_string(::getpid());
    std::filesystem::remove_all(s.root);
    std::filesystem::create_directories(s.root);
    s.recording = s.root / "skirmish-recording";
    s.log = s.root / "log.json";
    s.run = run_diskref("referee " + (skirmish() / "video.mp4").string() + " " + skirmish_files() + " --record " +
                            s.recording.string() + " --out " + s.log.string() + " --quiet",
                        s.root);
    return s;
  }();
  return sample;
}

}  // namespace diskref::testing
