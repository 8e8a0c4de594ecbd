#pragma once
// A small table for the UI's unit tests: the spec's two ships, a torpedo and a range template.

#include <optional>
#include <string>

#include "engine/model/disk_registry.h"
#include "engine/model/track_frame.h"

namespace diskref::referee::testing {

inline model::DiskRegistry test_registry() {
  std::vector<model::DiskSpec> disks;
  auto add = [&](std::string name, model::DiskKind kind, geom::Shape shape, int tag) {
    model::DiskSpec d;
    d.name = std::move(name);
    d.kind = kind;
    d.shape = shape;
    d.tags.push_back({tag, model::Face::up, 9.0, 0.0});
    disks.push_back(d);
  };
  add("enterprise", model::DiskKind::ship, geom::FlattedCircle{63.5, 57.2}, 10);
  add("tderet", model::DiskKind::ship, geom::Circle{63.5}, 12);
  add("torpedo-1", model::DiskKind::torpedo, geom::Circle{25.4}, 40);
  add("range", model::DiskKind::template_, geom::Rect{88.9, 25.4}, 60);
  return model::DiskRegistry(std::move(disks));
}

inline model::DiskTrack track(std::string name, model::DiskKind kind, std::optional<geom::Vec2> at, double heading,
                              double sigma = 0.0, model::TrackState state = model::TrackState::visible) {
  model::DiskTrack t;
  t.name = std::move(name);
  t.kind = kind;
  t.state = state;
  if (at && state != model::TrackState::lost) {
    t.x = at->x;
    t.y = at->y;
    t.heading = heading;
  }
  t.sigma_mm = sigma;
  return t;
}

// The spec §6 example: enterprise at (100, 200) heading 90, tderet at (100, 330) heading 270.
inline model::TrackFrame spec_example_frame(double sigma = 0.0) {
  model::TrackFrame f;
  f.frame = 7;
  f.t = 0.25;
  f.disks.push_back(track("enterprise", model::DiskKind::ship, geom::Vec2{100, 200}, 90, sigma));
  f.disks.push_back(track("tderet", model::DiskKind::ship, geom::Vec2{100, 330}, 270, sigma));
  return f;
}

}  // namespace diskref::referee::testing
