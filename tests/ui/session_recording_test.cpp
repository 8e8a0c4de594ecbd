#include "ui/session_recording.h"

#include <fstream>

#include <gtest/gtest.h>

#include "engine/io/input_error.h"
#include "engine/model/table_spec.h"
#include "tests/referee/test_table.h"
#include "ui/session_setup.h"

namespace diskref::ui {
namespace {

namespace fs = std::filesystem;

class SessionDir : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::path(DISKREF_BINARY_DIR) / "test-output" / "ui" /
            ::testing::UnitTest::GetInstance()->current_test_info()->name();
    fs::remove_all(root_);
    fs::create_directories(root_);
    write(root_ / "table.json", model::table_to_json(model::default_table()).dump());
    write(root_ / "disks.json", model::disk_registry_to_json(referee::testing::test_registry()).dump());
  }
  static void write(const fs::path& p, const std::string& text) {
    std::ofstream(p, std::ios::binary) << text;
  }
  SessionFiles files() const { return {root_ / "table.json", root_ / "disks.json", std::nullopt}; }
  fs::path root_;
};

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
  { SessionRecorder rec(dir, {"video", "v.mp4", std::nullopt, "", "tracker"}, files());
    rec.write_frame(referee::testing::spec_example_frame()); }
  std::ofstream(dir / "track.jsonl", std::ios::app) << R"({"frame": 1, "t": 0.03, "disks": [{"name": "ent)";
  Recording r = load_recording(dir);
  EXPECT_EQ(r.frames.size(), 1u);
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_NE(r.warnings[0].find("line 2"), std::string::npos) << r.warnings[0];
  EXPECT_NE(r.warnings[0].find("cut short"), std::string::npos);
}

TEST_F(SessionDir, ABadLineInTheMiddleIsAnInputErrorNamingTheLine) {
  fs::path dir = root_ / "rec";
  { SessionRecorder rec(dir, {"video", "v.mp4", std::nullopt, "", "tracker"}, files()); }
  write(dir / "track.jsonl", "{\"frame\": 0, \"t\": 0, \"disks\": []}\nnot json\n{\"frame\": 2, \"t\": 0, \"disks\": []}\n");
  try {
    load_recording(dir);
    FAIL() << "expected an InputError";
  } catch (const io::InputError& e) {
    EXPECT_NE(e.file().find("track.jsonl: line 2"), std::string::npos) << e.what();
  }
}

TEST_F(SessionDir, RefusesToRecordOverAnotherRecording) {
  fs::path dir = root_ / "rec";
  { SessionRecorder rec(dir, {"video", "v.mp4", std::nullopt, "", "tracker"}, files()); }
  EXPECT_THROW(SessionRecorder(dir, {"video", "v.mp4", std::nullopt, "", "tracker"}, files()), std::runtime_error);
}

TEST_F(SessionDir, FilesAreFoundBesideTheVideo) {
  write(root_ / "video.mp4", "not really a video; resolving does not open it");
  write(root_ / "truth.jsonl", "");
  SourceChoice c;
  c.video = root_ / "video.mp4";
  ResolvedSession r = resolve_session(c);
  EXPECT_EQ(r.files.table, root_ / "table.json");
  EXPECT_EQ(r.files.disks, root_ / "disks.json");
  EXPECT_FALSE(r.files.camera);
  EXPECT_FALSE(r.tracks) << "with a tracker, tracks come from it";
  EXPECT_EQ(r.tracks_label, "tracker");

  write(root_ / "camera.json", "{}");
  EXPECT_EQ(resolve_session(c).files.camera, root_ / "camera.json");

  c.disks = root_ / "elsewhere.json";
  try {
    resolve_session(c);
    FAIL();
  } catch (const io::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("elsewhere.json"), std::string::npos);
  }
  c.disks.reset();
  fs::remove(root_ / "disks.json");
  try {
    resolve_session(c);
    FAIL();
  } catch (const io::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("--disks"), std::string::npos) << e.what();
  }
}

TEST_F(SessionDir, ACameraNeedsItsTableAndDisks) {
  SourceChoice c;
  c.kind = SourceChoice::Kind::camera;
  EXPECT_THROW(resolve_session(c), io::InputError);
  c.table = root_ / "table.json";
  c.disks = root_ / "disks.json";
  EXPECT_NO_THROW(resolve_session(c));
}

TEST_F(SessionDir, AReplayUsesTheRecordingsOwnFiles) {
  fs::path dir = root_ / "rec";
  { SessionRecorder rec(dir, {"video", "v.mp4", std::nullopt, "", "tracker"}, files()); }
  SourceChoice c;
  c.kind = SourceChoice::Kind::replay;
  c.replay_dir = dir;
  ResolvedSession r = resolve_session(c);
  EXPECT_EQ(r.files.table, dir / "table.json");
  EXPECT_EQ(r.tracks, dir / "track.jsonl");
  c.replay_dir = root_;
  EXPECT_THROW(resolve_session(c), io::InputError);
}

}  // namespace
}  // namespace diskref::ui
