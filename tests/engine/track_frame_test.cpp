#include "engine/model/track_frame.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "engine/io/input_error.h"

namespace diskref::model {
namespace {

TEST(TrackFrame, WritesTheSpecShape) {
  TrackFrame f;
  f.frame = 0;
  f.t = 0.0;
  DiskTrack d;
  d.name = "enterprise";
  d.x = 120.314;
  d.y = 455.018;
  d.heading = 90.2;
  d.sigma_mm = 0.4;
  f.disks.push_back(d);
  DiskTrack lost;
  lost.name = "torpedo-1";
  lost.kind = DiskKind::torpedo;
  lost.state = TrackState::lost;
  lost.x = 5;  // a lost disk has no pose in the output, whatever the struct holds
  f.disks.push_back(lost);
  auto j = to_json(f);
  EXPECT_EQ(j["disks"][0]["x"], 120.31);
  EXPECT_EQ(j["disks"][0]["y"], 455.02);
  EXPECT_EQ(j["disks"][0]["state"], "visible");
  EXPECT_EQ(j["disks"][0]["face"], "up");
  EXPECT_EQ(j["disks"][0]["kind"], "ship");
  EXPECT_FALSE(j["disks"][1].contains("x"));
  EXPECT_FALSE(j["disks"][1].contains("heading"));
  EXPECT_EQ(j["disks"][1]["state"], "lost");
}

TEST(TrackFrame, HeadingNeverRoundsTo360) {
  TrackFrame f;
  DiskTrack d;
  d.name = "a";
  d.x = d.y = 0;
  d.heading = 359.999;
  f.disks.push_back(d);
  EXPECT_EQ(to_json(f)["disks"][0]["heading"], 0.0);
}

TEST(TrackFrame, JsonlRoundTripAndLineNumbersInErrors) {
  auto path = std::filesystem::temp_directory_path() / ("diskref_track_frame_test." + std::to_string(::getpid()) + ".jsonl");
  TrackFrame f;
  f.frame = 3;
  f.t = 0.1;
  f.settled = true;
  DiskTrack d;
  d.name = "a";
  d.x = 1;
  d.y = 2;
  d.heading = 3;
  d.state = TrackState::stale;
  d.motion = Motion::settled;
  d.age_s = 0.5;
  f.disks.push_back(d);
  {
    std::ofstream out(path);
    out << to_jsonl_line(f) << "\n" << to_jsonl_line(f) << "\n";
  }
  auto frames = load_track_jsonl(path);
  ASSERT_EQ(frames.size(), 2u);
  EXPECT_EQ(to_json(frames[1]), to_json(f));
  {
    std::ofstream out(path, std::ios::app);
    out << R"({"frame": 5, "t": 0.2, "disks": [{"name": "a", "kind": "ship", "state": "visible", "face": "up"}]})"
        << "\n";
  }
  try {
    load_track_jsonl(path);
    FAIL() << "expected an error";
  } catch (const io::InputError& e) {
    EXPECT_THAT(e.what(), ::testing::HasSubstr("line 3: disks[0]: missing required member \"x\""));
  }
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace diskref::model
