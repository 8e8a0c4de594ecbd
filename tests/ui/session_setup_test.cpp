// Which files a session runs with: beside the video, given on the command line, or a recording's own.
#include <gtest/gtest.h>

#include <filesystem>

#include <nlohmann/json.hpp>

#include "engine/io/input_error.h"
#include "tests/recording/session_dir.h"
#include "ui/session_setup.h"

namespace diskref::ui {
namespace {

using recording::SessionRecorder;
using recording::testing::SessionDir;
namespace fs = std::filesystem;

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
