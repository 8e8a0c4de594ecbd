// `diskref track` end to end (spec §5): one JSON line per frame in order, the summary on stderr,
// and a clear message with status 2 for bad input.
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "engine/model/track_frame.h"
#include "render_scenarios.h"

namespace diskref::vision {
namespace {

namespace fs = std::filesystem;

struct CommandRun {
  int status = -1;
  std::string stderr_text;
};

std::string read_text(const fs::path& file) {
  std::string text(static_cast<std::size_t>(fs::file_size(file)), '\0');
  std::ifstream(file, std::ios::binary).read(text.data(), static_cast<std::streamsize>(text.size()));
  return text;
}

// Runs build/diskref with `args`; stderr is collected through a file.
CommandRun diskref(const std::string& args) {
  const fs::path err = fs::temp_directory_path() / ("diskref-track-test-stderr-" + std::to_string(::getpid()));
  const std::string command = std::string(DISKREF_BINARY_DIR) + "/diskref " + args + " 2> " + err.string();
  CommandRun r;
  const int status = std::system(command.c_str());
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.stderr_text = read_text(err);
  return r;
}

std::string files(const fs::path& dir) {
  return " --table " + (dir / "table.json").string() + " --disks " + (dir / "disks.json").string();
}

TEST(TrackCommand, WritesOneLinePerFrameInOrderAndASummary) {
  const fs::path& dir = test::rendered_session(false);
  const fs::path out = dir / "out.jsonl";
  CommandRun r =
      diskref("track " + (dir / "video.mp4").string() + files(dir) + " --calib " + (dir / "camera.json").string() +
              " --out " + out.string() + " --truth " + (dir / "truth.jsonl").string());
  ASSERT_EQ(r.status, 0) << r.stderr_text;
  const auto frames = model::load_track_jsonl(out);
  const auto truth = model::load_track_jsonl(dir / "truth.jsonl");
  ASSERT_EQ(frames.size(), truth.size());
  for (std::size_t i = 0; i < frames.size(); ++i) {
    EXPECT_EQ(frames[i].frame, static_cast<long long>(i));
    EXPECT_NEAR(frames[i].t, truth[i].t, 1e-6);
    for (const auto& d : frames[i].disks) {
      // A lost disk has no pose; the others have one.
      EXPECT_EQ(d.x.has_value(), d.state != model::TrackState::lost);
      EXPECT_GT(d.sigma_mm, 0.0);
    }
  }
  EXPECT_NE(r.stderr_text.find("45 frames"), std::string::npos) << r.stderr_text;
  EXPECT_NE(r.stderr_text.find("disks seen: 5 of 5"), std::string::npos) << r.stderr_text;
  EXPECT_NE(r.stderr_text.find("corrupt frames skipped: 0"), std::string::npos) << r.stderr_text;
  EXPECT_NE(r.stderr_text.find("ship        visible in 100.00 %"), std::string::npos) << r.stderr_text;
}

TEST(TrackCommand, BadInputIsNamedWithStatus2) {
  const fs::path& dir = test::rendered_session(false);
  const fs::path tmp = fs::temp_directory_path() / ("diskref-track-test-" + std::to_string(::getpid()));
  fs::create_directories(tmp);
  const std::string out = " --out " + (tmp / "out.jsonl").string();
  const std::string video = (dir / "video.mp4").string();

  CommandRun r = diskref("track " + (tmp / "missing.mp4").string() + files(dir) + out);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.stderr_text.find("missing.mp4: does not exist"), std::string::npos) << r.stderr_text;

  std::ofstream(tmp / "text.mp4") << "not a video";
  r = diskref("track " + (tmp / "text.mp4").string() + files(dir) + out);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.stderr_text.find("text.mp4: cannot be read as a video"), std::string::npos) << r.stderr_text;

  // A registry naming one tag twice.
  std::string registry = read_text(dir / "disks.json");
  const std::size_t at = registry.find("\"id\": 41");
  ASSERT_NE(at, std::string::npos) << registry;
  registry.replace(at, 8, "\"id\": 40");
  std::ofstream(tmp / "twice.json") << registry;
  r = diskref("track " + video + " --table " + (dir / "table.json").string() + " --disks " +
              (tmp / "twice.json").string() + out);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.stderr_text.find("twice.json"), std::string::npos) << r.stderr_text;
  EXPECT_NE(r.stderr_text.find("40"), std::string::npos) << r.stderr_text;

  std::ofstream(tmp / "broken.json") << "{\"play_area_mm\": [914.4, ";
  r = diskref("track " + video + " --table " + (tmp / "broken.json").string() + " --disks " +
              (dir / "disks.json").string() + out);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.stderr_text.find("broken.json"), std::string::npos) << r.stderr_text;
  // Camera settings: only with a camera, and a size is WIDTHxHEIGHT (checked before the device).
  r = diskref("track " + video + files(dir) + out + " --camera-size 1280x720");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.stderr_text.find("go with --camera"), std::string::npos) << r.stderr_text;
  r = diskref("track --camera /dev/no-such-camera --camera-size 1280by720" + files(dir) + out);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.stderr_text.find("--camera-size: must be WIDTHxHEIGHT"), std::string::npos) << r.stderr_text;

  // Nothing was written for bad input.
  EXPECT_FALSE(fs::exists(tmp / "out.jsonl"));
}

}  // namespace
}  // namespace diskref::vision
