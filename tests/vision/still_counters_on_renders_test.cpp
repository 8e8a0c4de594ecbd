// Counters lying still stay seen while nothing on the table moves. The tracker measures each still
// disk again every few frames, and a small counter's tag at the edge of what the decoder reads (a
// soft lens, uneven light, 2.6 pixels a tag cell, H.264) is missed now and then by such a
// measurement though the picture of it is the same. Before the tracker kept such a disk seen
// (vision/tracker_still_picture.cpp), the first drop here had counter-11 read and, 0.3 s later,
// "not seen": the drop was asked about, and its result came 544 ms after the counters settled.
//
// The bench's soft-uneven-light drops (simulator/drop_variety.h) with seed 105, which no tuning
// looked at (the bench's --reseed 100): twelve drops, rendered once and kept in the build tree.

#include <algorithm>
#include <filesystem>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "calibration/camera_model.h"
#include "engine/model/disk_registry.h"
#include "engine/model/table_spec.h"
#include "engine/model/track_frame.h"
#include "simulator/drop_variety.h"
#include "simulator/scenario.h"
#include "simulator/timeline.h"
#include "vision/frame_source.h"
#include "vision/tracker.h"

namespace diskref::vision {
namespace {

namespace fs = std::filesystem;

TEST(StillCountersOnRenders, ACounterSeenLyingStillStaysSeenWhileNothingMoves) {
  simulator::DropVariant variant;
  for (const simulator::DropVariant& v : simulator::standard_drop_variants(""))
    if (v.name == "soft-uneven-light") variant = v;
  ASSERT_EQ(variant.name, "soft-uneven-light");
  variant.seed += 100;
  const nlohmann::json scenario = simulator::varied_drops(variant);
  const fs::path dir = simulator::render_drop_variant(variant, DISKREF_STILL_RENDERS);
  // When the table is quiet: from the moment a drop's last counter came to rest (the timeline's
  // truth) until the next thing happens (counters gathered, the next drop), but for a hand held
  // over the counters now and then (under one, a counter is not seen).
  const simulator::Scenario parsed = simulator::load_scenario(dir / "scenario.json");
  const simulator::Timeline timeline(parsed);
  std::map<std::size_t, std::pair<double, double>> drops;  // drop -> (released, rested)
  for (const simulator::CounterLanding& l : timeline.counter_landings()) {
    auto [it, fresh] = drops.try_emplace(l.drop, l.released, l.t);
    it->second.first = std::min(it->second.first, l.released);
    it->second.second = std::max(it->second.second, l.t);
  }
  std::vector<std::pair<double, double>> hands, quiet;
  std::vector<double> happenings;
  for (const auto& e : scenario.at("events")) {
    const double t = e.at("t").get<double>();
    if (e.contains("hand")) {
      const auto& h = e.at("hand");
      hands.emplace_back(
          t, t + h.at("enter_s").get<double>() + h.at("hold_s").get<double>() + h.at("leave_s").get<double>());
    } else {
      happenings.push_back(t);
    }
  }
  for (const auto& [drop, times] : drops) {
    double next = scenario.at("duration_s").get<double>();
    for (double t : happenings)
      if (t > times.first) next = std::min(next, t);
    quiet.emplace_back(times.second, next);
  }
  ASSERT_EQ(quiet.size(), static_cast<std::size_t>(variant.drops));
  auto is_quiet = [&](double t) {
    return std::any_of(quiet.begin(), quiet.end(), [&](const auto& q) { return t > q.first && t < q.second; }) &&
           std::none_of(hands.begin(), hands.end(), [&](const auto& h) { return t >= h.first && t <= h.second; });
  };

  const model::DiskRegistry registry = model::load_disk_registry(dir / "disks.json");
  Tracker tracker(model::load_table(dir / "table.json"), registry, calib::load_camera_model(dir / "camera.json"));
  std::map<std::string, double> seen_still_at;  // counters seen lying still since the table was last not quiet
  int quiet_frames = 0, counters_seen = 0;
  auto source = open_video_file(dir / "video.mp4");
  while (auto frame = source->next()) {
    const model::TrackFrame track = tracker.process(frame->image, frame->index, frame->t).track;
    if (!is_quiet(frame->t)) {
      seen_still_at.clear();
      continue;
    }
    ++quiet_frames;
    for (const model::DiskTrack& d : track.disks) {
      if (d.kind != model::DiskKind::counter) continue;
      const bool seen_still = d.state == model::TrackState::visible && d.motion == model::Motion::settled;
      if (seen_still && !seen_still_at.count(d.name)) {
        seen_still_at[d.name] = frame->t;
        ++counters_seen;
      }
      if (seen_still_at.count(d.name)) {
        EXPECT_TRUE(seen_still) << d.name << " at " << frame->t << " s: seen lying still at " << seen_still_at[d.name]
                                << " s, and nothing has moved since, yet now " << model::to_string(d.state);
      }
    }
  }
  EXPECT_GT(quiet_frames, 400) << "the counters lie still a while after each drop";
  EXPECT_GT(counters_seen, 60) << "the drops' counters are seen lying still";
}

}  // namespace
}  // namespace diskref::vision
