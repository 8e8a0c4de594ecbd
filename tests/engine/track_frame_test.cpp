#include "engine/model/track_frame.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

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

TEST(TrackFrame, HowLongThePlayAreaHasBeenStillAndWhatLiesOnItUnexplainedRoundTrip) {
  TrackFrame f;
  f.frame = 3;
  f.t = 0.1;
  f.still_s = 0.23456;
  f.foreign.push_back({100.04, 200, 140, 230.06});
  const nlohmann::json j = to_json(f);
  EXPECT_EQ(j["still_s"], 0.235);
  EXPECT_EQ(j["foreign_mm"], nlohmann::json::parse("[[100.0, 200.0, 140.0, 230.1]]"));
  const TrackFrame back = parse_track_frame(io::JsonCursor(j, "t.jsonl"));
  ASSERT_TRUE(back.still_s);
  EXPECT_NEAR(*back.still_s, 0.235, 1e-12);
  ASSERT_EQ(back.foreign.size(), 1u);
  EXPECT_NEAR(back.foreign[0].y1, 230.1, 1e-12);
  // Without them, nothing is said.
  EXPECT_FALSE(to_json(TrackFrame{}).contains("still_s"));
  EXPECT_FALSE(to_json(TrackFrame{}).contains("foreign_mm"));
  // A box the wrong way round is refused with its place.
  nlohmann::json bad = j;
  bad["foreign_mm"][0] = {140, 200, 100, 230};
  try {
    parse_track_frame(io::JsonCursor(bad, "t.jsonl"));
    ADD_FAILURE() << "accepted";
  } catch (const io::InputError& e) {
    EXPECT_THAT(e.what(), ::testing::HasSubstr("foreign_mm[0]: must be [x0, y0, x1, y1] with x0 <= x1"));
  }
}

TEST(TrackFrame, AForeignPartsOutlineAndTheDisksItLiesAgainstAndCouldLieUnderRoundTrip) {
  TrackFrame f;
  f.foreign.push_back({300, 350, 420, 560});  // a hand: a box only
  ForeignBox rim{10, 20, 14, 31};
  rim.outline = {{10.04, 20}, {14, 25.55}, {10, 31}};
  rim.against = {"counter-3", "counter-4"};
  rim.under = {"counter-3"};
  f.foreign.push_back(rim);
  const nlohmann::json j = to_json(f);
  EXPECT_EQ(j["foreign_outline_mm"], nlohmann::json::parse("[[], [[10.0, 20.0], [14.0, 25.6], [10.0, 31.0]]]"));
  EXPECT_EQ(j["foreign_against"], nlohmann::json::parse(R"([[], ["counter-3", "counter-4"]])"));
  EXPECT_EQ(j["foreign_under"], nlohmann::json::parse(R"([[], ["counter-3"]])"));
  const TrackFrame back = parse_track_frame(io::JsonCursor(j, "t.jsonl"));
  ASSERT_EQ(back.foreign.size(), 2u);
  EXPECT_TRUE(back.foreign[0].outline.empty());
  ASSERT_EQ(back.foreign[1].outline.size(), 3u);
  EXPECT_NEAR(back.foreign[1].outline[1].y, 25.6, 1e-12);
  EXPECT_EQ(back.foreign[1].against, (std::vector<std::string>{"counter-3", "counter-4"}));
  EXPECT_EQ(back.foreign[1].under, std::vector<std::string>{"counter-3"});
  // A file written before the tracker told the two apart: what a part lies against, it could lie
  // under (the safe side).
  nlohmann::json older = j;
  older.erase("foreign_under");
  EXPECT_EQ(parse_track_frame(io::JsonCursor(older, "t.jsonl")).foreign[1].under,
            (std::vector<std::string>{"counter-3", "counter-4"}));
  // A part lies under only what it lies against.
  nlohmann::json stray = j;
  stray["foreign_under"][1] = {"counter-5"};
  try {
    parse_track_frame(io::JsonCursor(stray, "t.jsonl"));
    ADD_FAILURE() << "accepted";
  } catch (const io::InputError& e) {
    EXPECT_THAT(e.what(), ::testing::HasSubstr("foreign_under[1][0]: names a disk that foreign_against does not"))
        << e.what();
  }
  // No outline anywhere: no key is written.
  f.foreign.pop_back();
  EXPECT_FALSE(to_json(f).contains("foreign_outline_mm"));
  EXPECT_FALSE(to_json(f).contains("foreign_against"));
  EXPECT_FALSE(to_json(f).contains("foreign_under"));
  // One outline list per box, or the file is refused with its place.
  for (const char* key : {"foreign_outline_mm", "foreign_against", "foreign_under"}) {
    nlohmann::json bad = j;
    bad[key].erase(0);
    try {
      parse_track_frame(io::JsonCursor(bad, "t.jsonl"));
      ADD_FAILURE() << key << " accepted";
    } catch (const io::InputError& e) {
      EXPECT_THAT(e.what(), ::testing::HasSubstr(std::string(key) + ": must hold one")) << e.what();
    }
  }
  nlohmann::json bad = j;
  bad["foreign_outline_mm"][1][0] = {1, 2, 3};
  EXPECT_THROW(parse_track_frame(io::JsonCursor(bad, "t.jsonl")), io::InputError);
}

TEST(TrackFrame, ADiskSeenTiltedAndThePartsHoldingItRoundTripAndAreChecked) {
  TrackFrame f;
  f.t = 12.5;
  DiskTrack d;
  d.name = "counter-12";
  d.kind = DiskKind::counter;
  d.state = TrackState::lost;
  d.tilted = TiltedRest{253.456, 781.994, 18.73, 84.26, Face::down, 11.2};
  f.disks.push_back(d);
  ForeignBox part{240, 770, 266, 795};
  part.outline = {{240, 770}, {266, 770}, {266, 795}};
  part.against = {"counter-9"};
  part.under = {"counter-9"};
  part.tilted = {"counter-12"};
  f.foreign.push_back(part);
  const nlohmann::json j = to_json(f);
  EXPECT_EQ(j["disks"][0]["tilted"],
            nlohmann::json::parse(
                R"({"x": 253.46, "y": 781.99, "z": 18.73, "tilt_deg": 84.3, "face": "down", "since": 11.2})"));
  EXPECT_FALSE(j["disks"][0].contains("x")) << "lost: no flat place";
  EXPECT_EQ(j["foreign_tilted"], nlohmann::json::parse(R"([["counter-12"]])"));
  const TrackFrame back = parse_track_frame(io::JsonCursor(j, "t.jsonl"));
  ASSERT_TRUE(back.disks[0].tilted);
  EXPECT_EQ(back.disks[0].tilted->face, Face::down);
  EXPECT_NEAR(back.disks[0].tilted->tilt_deg, 84.3, 1e-12);
  EXPECT_NEAR(back.disks[0].tilted->since_t, 11.2, 1e-12);
  EXPECT_EQ(back.foreign[0].tilted, std::vector<std::string>{"counter-12"});
  // Nothing tilted: no key.
  f.foreign[0].tilted.clear();
  EXPECT_FALSE(to_json(f).contains("foreign_tilted"));
  // Refused, with the place: a tilt past upside down, a part holding a disk not seen tilted.
  nlohmann::json steep = j;
  steep["disks"][0]["tilted"]["tilt_deg"] = 200;
  try {
    parse_track_frame(io::JsonCursor(steep, "t.jsonl"));
    ADD_FAILURE() << "accepted";
  } catch (const io::InputError& e) {
    EXPECT_THAT(e.what(), ::testing::HasSubstr("tilt_deg")) << e.what();
  }
  nlohmann::json stray = j;
  stray["foreign_tilted"][0] = {"counter-3"};
  try {
    parse_track_frame(io::JsonCursor(stray, "t.jsonl"));
    ADD_FAILURE() << "accepted";
  } catch (const io::InputError& e) {
    EXPECT_THAT(e.what(), ::testing::HasSubstr("foreign_tilted[0][0]: names no disk of this frame seen tilted"))
        << e.what();
  }
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

TEST(TrackFrame, LandingsRoundTripAndAreLeftOutWhenThereAreNone) {
  TrackFrame f;
  f.frame = 12;
  f.t = 0.4;
  EXPECT_FALSE(to_json(f).contains("landings"));
  f.landings.push_back({"reliant", 243.8149, 336.8, 359.999, Face::down, 0.123, 0.3666667, std::nullopt});
  nlohmann::json j = to_json(f);
  ASSERT_EQ(j["landings"].size(), 1u);
  EXPECT_EQ(j["landings"][0]["x"], 243.81);
  EXPECT_EQ(j["landings"][0]["heading"], 0.0) << "359.999 rounds to 360, which is 0";
  EXPECT_EQ(j["landings"][0]["face"], "down");
  TrackFrame back = parse_track_frame(io::JsonCursor(j, "test"));
  ASSERT_EQ(back.landings.size(), 1u);
  EXPECT_EQ(back.landings[0].name, "reliant");
  EXPECT_EQ(back.landings[0].face, Face::down);
  EXPECT_DOUBLE_EQ(back.landings[0].sigma_mm, 0.12);
  EXPECT_DOUBLE_EQ(back.landings[0].t, 0.366667);
  EXPECT_EQ(to_json(back), j);
  EXPECT_FALSE(j["landings"][0].contains("tag_visible")) << "the tracker's landings were all seen";
}

TEST(TrackFrame, ExactPrecisionKeepsEveryBitThroughText) {
  // A recording's tracks (spec §11) must give the referee, read back, the frames it had live.
  TrackFrame f;
  f.frame = 7;
  f.t = 0.1 + 0.2;  // 0.30000000000000004
  DiskTrack d;
  d.name = "enterprise";
  d.x = 243.81490000000002;
  d.y = 1.0 / 3.0;
  d.heading = 359.9999999;
  d.sigma_mm = 0.0123456789;
  d.age_s = 2.0 / 7.0;
  f.disks.push_back(d);
  f.landings.push_back(
      {"enterprise", 1.0 / 7.0, 2.0 / 9.0, 359.9999999, Face::down, 0.033333333, 1.0 / 11.0, std::nullopt});
  const std::string line = to_jsonl_line(f, Precision::exact);
  const TrackFrame back = parse_track_frame(io::JsonCursor(nlohmann::json::parse(line), "test"));
  ASSERT_EQ(back.disks.size(), 1u);
  EXPECT_EQ(back.t, f.t);
  EXPECT_EQ(*back.disks[0].x, *d.x);
  EXPECT_EQ(*back.disks[0].y, *d.y);
  EXPECT_EQ(*back.disks[0].heading, *d.heading);
  EXPECT_EQ(back.disks[0].sigma_mm, d.sigma_mm);
  EXPECT_EQ(*back.disks[0].age_s, *d.age_s);
  EXPECT_EQ(back.landings[0].x, f.landings[0].x);
  EXPECT_EQ(back.landings[0].heading, f.landings[0].heading);
  EXPECT_EQ(back.landings[0].t, f.landings[0].t);
  EXPECT_EQ(to_jsonl_line(back, Precision::exact), line);
  EXPECT_NE(to_jsonl_line(f), line) << "the default output rounds";
}

TEST(TrackFrame, TheTruthsLandingsSayWhetherTheirTagWasSeen) {
  TrackFrame f;
  f.landings.push_back({"torpedo-1", 100, 200, 90, Face::down, 0, 1.5, false});
  const nlohmann::json j = to_json(f);
  EXPECT_EQ(j["landings"][0]["tag_visible"], false);
  TrackFrame back = parse_track_frame(io::JsonCursor(j, "test"));
  ASSERT_EQ(back.landings.size(), 1u);
  EXPECT_EQ(back.landings[0].tag_visible, false);
}

TEST(TrackFrame, JsonlRoundTripAndLineNumbersInErrors) {
  auto path =
      std::filesystem::temp_directory_path() / ("diskref_track_frame_test." + std::to_string(::getpid()) + ".jsonl");
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

std::string frame_error_of(const std::string& line) {
  auto doc = nlohmann::json::parse(line);
  try {
    parse_track_frame(io::JsonCursor(doc, "track.jsonl"));
  } catch (const io::InputError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(TrackFrame, RefusesNumbersNoTrackerGives) {
  const std::string disk =
      R"("name": "a", "kind": "ship", "state": "visible", "face": "up", "x": 1, "y": 2, "heading": 3)";
  EXPECT_EQ(frame_error_of(R"({"frame": 1, "t": 0.1, "disks": [{)" + disk + "}]}"), "(no error)");
  EXPECT_THAT(frame_error_of(R"({"frame": 1, "t": 0.1, "disks": [{)" + disk + R"(, "sigma_mm": -1}]})"),
              ::testing::HasSubstr("disks[0].sigma_mm: must be between 0 and 1000 mm"));
  EXPECT_THAT(frame_error_of(R"({"frame": 1, "t": 1e300, "disks": []})"),
              ::testing::HasSubstr("t: must be between 0 and 1e+07 s"));
  EXPECT_THAT(frame_error_of(R"({"frame": -1, "t": 0, "disks": []})"),
              ::testing::HasSubstr("frame: must be a frame number"));
  EXPECT_THAT(
      frame_error_of(R"({"frame": 1, "t": 0, "disks": [{"name": "a", "kind": "ship", "state": "visible", "face": "up",
                "x": 1e307, "y": 2, "heading": 3}]})"),
      ::testing::HasSubstr("disks[0].x: must be between -100000 and 100000 mm"));
}

TEST(TrackFrame, LongGapsAreShortenedAndSaid) {
  std::vector<TrackFrame> frames(4);
  const double times[] = {0, 0.5, 0.5 + 950400, 0.5 + 950400 + 0.25};  // 11 days between frames 1 and 2
  for (int i = 0; i < 4; ++i) {
    frames[static_cast<std::size_t>(i)].frame = i;
    frames[static_cast<std::size_t>(i)].t = times[i];
  }
  Landing l;
  l.t = 0.5 + 950400 + 0.1;
  frames[3].landings.push_back(l);
  const auto notes = cap_time_gaps(frames, 5);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes[0], "frame 2 came 950400.0 s after frame 1: played back 5.0 s after it");
  EXPECT_DOUBLE_EQ(frames[1].t, 0.5);
  EXPECT_DOUBLE_EQ(frames[2].t, 5.5);
  EXPECT_DOUBLE_EQ(frames[3].t, 5.75);
  EXPECT_NEAR(frames[3].landings[0].t, 5.6, 1e-9);
  EXPECT_TRUE(cap_time_gaps(frames, 5).empty());  // nothing left to shorten
}

}  // namespace
}  // namespace diskref::model
