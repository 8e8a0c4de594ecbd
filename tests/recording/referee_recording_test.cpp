// `diskref referee --record` on the bundled skirmish game, and what can be done with the recording
// afterwards (spec §11): every frame and a still at every settle kept, the log and inputs as given,
// the session refereed again to the very same log (from its tracks, and from its pictures when the
// video is referenced), the referenced video checked by its checksum, and damaged recordings still
// read with what is missing said.
#include <filesystem>
#include <fstream>
#include <set>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/recording/recorded_sample.h"

namespace diskref::testing {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

std::vector<nlohmann::json> jsonl(const fs::path& file) {
  std::vector<nlohmann::json> out;
  std::ifstream in(file);
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) out.push_back(nlohmann::json::parse(line));
  return out;
}

class RefereeRecording : public CommandTest {
 protected:
  const RecordedSample& sample() {
    const RecordedSample& s = recorded_sample();
    EXPECT_EQ(s.run.status, 0) << s.run.err;
    return s;
  }
};

TEST_F(RefereeRecording, KeepsEveryFrameAStillAtEverySettleTheInputsAndTheLog) {
  const RecordedSample& s = sample();
  const fs::path rec = s.recording;
  const nlohmann::json session = read_json(rec / "session.json");
  EXPECT_EQ(session["recording"], 2);
  EXPECT_EQ(session["frames_copied"], true);
  EXPECT_EQ(session["source"], "video");
  EXPECT_EQ(session["command"][1], "referee");
  EXPECT_EQ(session["parameters"]["off_path_mm"], 3.0);
  EXPECT_FALSE(session["diskref"].get<std::string>().empty());
  for (const char* f : {"table.json", "disks.json", "camera.json", "game/game.json", "track.jsonl", "inputs.jsonl",
                        "log.json", "health.jsonl", "ended.json", "video/frames.jsonl"})
    EXPECT_TRUE(fs::exists(rec / f)) << f;

  // Every frame of the video, in order, in segments of 2 s.
  const std::vector<nlohmann::json> frames = jsonl(rec / "video" / "frames.jsonl");
  const std::vector<nlohmann::json> tracks = jsonl(rec / "track.jsonl");
  ASSERT_EQ(frames.size(), tracks.size()) << "a video file is never dropped from: the recording waits for its encoder";
  EXPECT_EQ(tracks.size(), 930u);
  std::set<int> segments;
  for (std::size_t i = 0; i < frames.size(); ++i) {
    EXPECT_EQ(frames[i]["frame"], tracks[i]["frame"]);
    segments.insert(frames[i]["segment"].get<int>());
  }
  EXPECT_GE(segments.size(), 14u) << "31 s in segments of 2 s";
  const nlohmann::json ended = read_json(rec / "ended.json");
  EXPECT_EQ(ended["clean"], true);
  EXPECT_EQ(ended["dropped_video_frames"], 0);

  // The log as the referee wrote it, and a still for every settle a ruling was read at.
  const nlohmann::json log = read_json(rec / "log.json");
  EXPECT_EQ(log, read_json(s.log));
  std::set<std::size_t> readings;
  for (const nlohmann::json& e : log["log"])
    if (e.contains("reading")) readings.insert(e["reading"].get<std::size_t>());
  ASSERT_GE(readings.size(), 5u);
  for (std::size_t r : readings) {
    char name[32];
    std::snprintf(name, sizeof name, "settle-%06zu.jpg", r);
    EXPECT_TRUE(fs::exists(rec / "stills" / name)) << name;
  }
  // The inputs as given: the sample's, in its order.
  EXPECT_EQ(jsonl(rec / "inputs.jsonl").size(), jsonl(skirmish() / "inputs.jsonl").size());
  // The game's data came along: the recording needs nothing outside itself.
  const nlohmann::json game = read_json(rec / "game" / "game.json");
  ASSERT_EQ(game["data"].size(), 1u);
  EXPECT_TRUE(fs::exists(rec / "game" / game["data"][0].get<std::string>() / "ships.json"));
}

TEST_F(RefereeRecording, ASessionRefereedAgainGivesTheSameLog) {
  const RecordedSample& s = sample();
  CommandRun r = run("referee --session " + s.recording.string() + " --out " + path("again.json") + " --quiet");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(slurp(path("again.json")), slurp(s.log)) << "from the recorded tracks: byte for byte";
  // With the setup files of its own: giving them again is refused.
  r = run("referee --session " + s.recording.string() + " " + skirmish_files() + " --out " + path("x.json"));
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err, HasSubstr("goes without --session"));
}

TEST_F(RefereeRecording, AReferencedVideoIsTrackedAgainOnlyIfItIsTheSameFile) {
  // The video referenced, not copied: its checksum kept; stills still taken.
  const fs::path video = dir_ / "video.mp4";
  fs::copy_file(skirmish() / "video.mp4", video);
  CommandRun r = run("referee " + video.string() + " " + skirmish_files() + " --record " + path("rec") +
                     " --reference-video --out " + path("a.json") + " --quiet");
  ASSERT_EQ(r.status, 0) << r.err;
  const nlohmann::json session = read_json(dir_ / "rec" / "session.json");
  EXPECT_EQ(session["frames_copied"], false);
  EXPECT_EQ(session["video_file"]["fnv1a64"].get<std::string>().size(), 16u);
  EXPECT_EQ(jsonl(dir_ / "rec" / "video" / "frames.jsonl").size(), 0u);
  EXPECT_FALSE(fs::is_empty(dir_ / "rec" / "stills"));
  // Tracked again from the same file: the same log, byte for byte (the tracker is deterministic).
  r = run("referee --session " + path("rec") + " --retrack --out " + path("b.json") + " --quiet");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(slurp(path("b.json")), slurp(path("a.json")));
  // The file changed since: refused, naming it, before anything runs.
  std::ofstream(video, std::ios::binary | std::ios::app) << "x";
  r = run("referee --session " + path("rec") + " --retrack --out " + path("c.json"));
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err, HasSubstr(video.string()));
  EXPECT_THAT(r.err, HasSubstr("is not the video"));
  EXPECT_FALSE(fs::exists(path("c.json")));
}

// The game's meaning without its measurements: what was done and what came of it, poses aside.
nlohmann::json without_measurements(nlohmann::json j) {
  if (j.is_object()) {
    for (const char* k :
         {"t", "pose", "heading", "x", "y", "margin_mm", "sigma_mm", "distance_mm", "drift_mm", "off_by_mm", "gap_mm",
          "landings", "legal_landings", "start", "end", "placed", "text", "detail"})
      j.erase(k);
    for (auto& [key, value] : j.items()) value = without_measurements(value);
  } else if (j.is_array()) {
    for (auto& value : j) value = without_measurements(value);
  }
  return j;
}

TEST_F(RefereeRecording, TheRecordedPicturesRefereedAgainGiveTheSameGame) {
  // JPEG frames are not the video's bytes: poses and margins move by hundredths, the game must not.
  const RecordedSample& s = sample();
  CommandRun r =
      run("referee --session " + s.recording.string() + " --retrack --out " + path("again.json") + " --quiet");
  ASSERT_EQ(r.status, 0) << r.err;
  const nlohmann::json a = read_json(s.log), b = read_json(path("again.json"));
  ASSERT_EQ(a["log"].size(), b["log"].size());
  EXPECT_EQ(without_measurements(a), without_measurements(b));
  // ... and the measurements agree: a settle found a frame apart at most, poses within a tenth of a millimetre.
  for (std::size_t i = 0; i < a["log"].size(); ++i)
    EXPECT_NEAR(a["log"][i]["t"].get<double>(), b["log"][i]["t"].get<double>(), 0.07) << "entry " << i;
  for (std::size_t i = 0; i < a["final_state"]["ships"].size(); ++i) {
    const nlohmann::json& pa = a["final_state"]["ships"][i]["pose"];
    const nlohmann::json& pb = b["final_state"]["ships"][i]["pose"];
    EXPECT_NEAR(pa["x"].get<double>(), pb["x"].get<double>(), 0.1);
    EXPECT_NEAR(pa["y"].get<double>(), pb["y"].get<double>(), 0.1);
  }
}

TEST_F(RefereeRecording, WhatIsNotARecordingIsSaidPlainly) {
  fs::create_directories(dir_ / "empty");
  CommandRun r = run("referee --session " + path("empty") + " --out " + path("x.json"));
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err, HasSubstr("is not a recording"));
  r = run("referee --session " + path("nowhere") + " --out " + path("x.json"));
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err, HasSubstr("is not a folder"));
  // Recording over a folder that is not empty: refused, the folder untouched.
  std::ofstream(dir_ / "empty" / "keep.txt") << "mine";
  r = run("referee " + (skirmish() / "video.mp4").string() + " " + skirmish_files() + " --record " + path("empty") +
          " --out " + path("x.json"));
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err, HasSubstr("is not empty"));
  EXPECT_EQ(slurp(dir_ / "empty" / "keep.txt"), "mine");
}

}  // namespace
}  // namespace diskref::testing
