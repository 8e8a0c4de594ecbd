#include "recording/session_recording.h"

#include <fstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "engine/io/input_error.h"
#include "engine/model/table_spec.h"
#include "tests/recording/session_dir.h"
#include "tests/referee/test_table.h"

namespace diskref::recording {
namespace {

namespace fs = std::filesystem;
using testing::SessionDir;

TEST_F(SessionDir, WhatIsWrittenIsReadBack) {
  fs::path dir = root_ / "rec";
  SessionInfo info{"video", "/videos/duel.mp4", std::nullopt, "2026-11-30T04:00:00Z", "tracker"};
  {
    SessionRecorder rec(dir, info, files());
    for (int i = 0; i < 3; ++i) {
      model::TrackFrame f = referee::testing::spec_example_frame(0.25);
      f.frame = i;
      f.t = i / 30.0;
      rec.write_frame(f);
    }
    rec.write_event({0.1, 3, Severity::warning, "camera moved"});
    EXPECT_EQ(rec.frames_written(), 3);
  }
  Recording r = load_recording(dir);
  EXPECT_TRUE(r.warnings.empty());
  ASSERT_EQ(r.frames.size(), 3u);
  EXPECT_EQ(r.frames[2].frame, 2);
  EXPECT_DOUBLE_EQ(*r.frames[1].disks[0].x, 100);
  EXPECT_DOUBLE_EQ(r.frames[1].disks[0].sigma_mm, 0.25);
  ASSERT_EQ(r.events.size(), 1u);
  EXPECT_EQ(r.events[0].text, "camera moved");
  EXPECT_EQ(r.events[0].severity, Severity::warning);
  EXPECT_EQ(r.info.video, std::optional<std::string>("/videos/duel.mp4"));
  EXPECT_EQ(r.info.tracks_from, "tracker");
  EXPECT_TRUE(fs::exists(r.files.table));
  EXPECT_TRUE(fs::exists(r.files.disks));
  EXPECT_FALSE(r.files.camera);
}

TEST_F(SessionDir, EachFrameIsOnDiskAsSoonAsItIsWritten) {
  // Nothing waits for the recorder to close: a crash right after write_frame loses nothing.
  fs::path dir = root_ / "rec";
  SessionRecorder rec(dir, {"camera", std::nullopt, 0, "", "tracker"}, files());
  rec.write_frame(referee::testing::spec_example_frame());
  Recording r = load_recording(dir);  // while the recorder is still open
  EXPECT_EQ(r.frames.size(), 1u);
}

TEST_F(SessionDir, ALastLineCutShortIsDroppedWithAWarning) {
  fs::path dir = root_ / "rec";
  {
    SessionRecorder rec(dir, {"video", "v.mp4", std::nullopt, "", "tracker"}, files());
    rec.write_frame(referee::testing::spec_example_frame());
  }
  std::ofstream(dir / "track.jsonl", std::ios::app) << R"({"frame": 1, "t": 0.03, "disks": [{"name": "ent)";
  Recording r = load_recording(dir);
  EXPECT_EQ(r.frames.size(), 1u);
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_NE(r.warnings[0].find("line 2"), std::string::npos) << r.warnings[0];
  EXPECT_NE(r.warnings[0].find("cut short"), std::string::npos);
}

TEST_F(SessionDir, ABadLineInTheMiddleIsSkippedAndNamedAndTheRestIsRead) {
  fs::path dir = root_ / "rec";
  { SessionRecorder rec(dir, {"video", "v.mp4", std::nullopt, "", "tracker"}, files()); }
  write(dir / "track.jsonl",
        "{\"frame\": 0, \"t\": 0, \"disks\": []}\nnot json\n{\"frame\": 2, \"t\": 0, \"disks\": []}\n");
  const Recording r = load_recording(dir);
  ASSERT_EQ(r.frames.size(), 2u);
  EXPECT_EQ(r.frames[1].frame, 2);
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_NE(r.warnings[0].find("track.jsonl: line 2"), std::string::npos) << r.warnings[0];
}

TEST_F(SessionDir, ARecordingWithoutItsEndWasCutShortAndSaysSo) {
  fs::path dir = root_ / "rec";
  {
    SessionRecorder rec(dir, {"video", "v.mp4", std::nullopt, "", "tracker"}, files(),
                        {"0.1.0", {"diskref", "referee"}, {{"off_path_mm", 3.0}}, true, std::nullopt});
    rec.write_frame(referee::testing::spec_example_frame());
    rec.end({{"video_frames", 1}});
  }
  Recording r = load_recording(dir);
  ASSERT_TRUE(r.ended);
  EXPECT_EQ((*r.ended)["frames"], 1);
  EXPECT_EQ(r.provenance.diskref_version, "0.1.0");
  EXPECT_EQ(r.provenance.command, (std::vector<std::string>{"diskref", "referee"}));
  EXPECT_TRUE(r.provenance.frames_copied);
  EXPECT_TRUE(r.warnings.empty());
  fs::remove(dir / "ended.json");  // as after a kill -9
  r = load_recording(dir);
  EXPECT_FALSE(r.ended);
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_NE(r.warnings[0].find("cut short"), std::string::npos) << r.warnings[0];
  EXPECT_EQ(r.frames.size(), 1u) << "what it holds is still there";
}

TEST_F(SessionDir, RefusesToRecordOverAnotherRecording) {
  fs::path dir = root_ / "rec";
  { SessionRecorder rec(dir, {"video", "v.mp4", std::nullopt, "", "tracker"}, files()); }
  EXPECT_THROW(SessionRecorder(dir, {"video", "v.mp4", std::nullopt, "", "tracker"}, files()), std::runtime_error);
}

}  // namespace
}  // namespace diskref::recording
