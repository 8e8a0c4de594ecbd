#pragma once
// The table as the screen shows it at one moment: every tracked disk joined with its registry
// entry (shape, kind, colour). Built from a TrackFrame each time a new one arrives; the UI keeps
// no other copy of disk state.

#include <optional>
#include <string>
#include <vector>

#include "engine/geometry/shape.h"
#include "engine/model/disk_registry.h"
#include "engine/model/track_frame.h"

namespace diskref::referee {

struct SeenDisk {
  const model::DiskSpec* spec = nullptr;  // the registry entry (the registry outlives the scene)
  model::DiskTrack track;                 // as the tracker reported it
  std::optional<geom::Pose> pose;         // table frame; absent when lost

  const std::string& name() const { return track.name; }
  bool has_pose() const { return pose.has_value(); }
  // Requires has_pose().
  geom::PlacedShape placed() const { return {spec->shape, *pose}; }
};

struct TableSnapshot {
  long long frame = -1;
  double t = 0;
  std::vector<SeenDisk> disks;       // in the tracker's order
  std::vector<std::string> unknown;  // names in the frame that the registry does not know

  std::optional<std::size_t> index_of(std::string_view name) const;
};

TableSnapshot make_snapshot(const model::DiskRegistry& registry, const model::TrackFrame& frame);

}  // namespace diskref::referee
