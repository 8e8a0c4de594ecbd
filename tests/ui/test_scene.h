#pragma once
// A small table for the UI's unit tests: the spec's two ships, a torpedo and a range template.

#include <optional>
#include <string>

#include "engine/model/disk_registry.h"
#include "engine/model/track_frame.h"

namespace diskref::ui::testing {

inline DiskRegistry test_registry() {
  std::vector<DiskSpec> disks;
  auto add = [&](std::string name, DiskKind kind, geom::Shape shape, int tag) {
    DiskSpec d;
    d.name = std::move(name);
    d.kind = kind;
    d.shape = shape;
    d.tags.push_back({tag, Face::up, 9.0, 0.0});
    disks.push_back(d);
  };
  add("enterprise", DiskKind::ship, geom::FlattedCircle{63.5, 57.2}, 10);
  add("tderet", DiskKind::ship, geom::Circle{63.5}, 12);
  add("torpedo-1", DiskKind::torpedo, geom::Circle{25.4}, 40);
  add("range", DiskKind::template_, geom::Rect{88.9, 25.4}, 60);
  return DiskRegistry(std::move(disks));
}

inline DiskTrack track(std::string name, DiskKind kind, std::optional<geom::Vec2> at, double heading, double sigma = 0.0,
                       TrackState state = TrackState::visible) {
  DiskTrack t;
  t.name = std::move(name);
  t.kind = kind;
  t.state = state;
  if (at && state != TrackState::lost) {
    t.x = at->x;
    t.y = at->y;
    t.heading = heading;
  }
  t.sigma_mm = sigma;
  return t;
}

// The spec §6 example: enterprise at (100, 200) heading 90, tderet at (100, 330) heading 270.
inline TrackFrame spec_example_frame(double sigma = 0.0) {
  TrackFrame f;
  f.frame = 7;
  f.t = 0.25;
  f.disks.push_back(track("enterprise", DiskKind::ship, geom::Vec2{100, 200}, 90, sigma));
  f.disks.push_back(track("tderet", DiskKind::ship, geom::Vec2{100, 330}, 270, sigma));
  return f;
}

}  // namespace diskref::ui::testing
