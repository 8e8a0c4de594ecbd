#include "referee/table_snapshot.h"

namespace diskref::referee {

std::optional<std::size_t> TableSnapshot::index_of(std::string_view name) const {
  for (std::size_t i = 0; i < disks.size(); ++i) {
    if (disks[i].name() == name) return i;
  }
  return std::nullopt;
}

TableSnapshot make_snapshot(const model::DiskRegistry& registry, const model::TrackFrame& frame) {
  TableSnapshot scene;
  scene.frame = frame.frame;
  scene.t = frame.t;
  for (const model::DiskTrack& track : frame.disks) {
    const model::DiskSpec* spec = registry.find(track.name);
    if (spec == nullptr) {
      scene.unknown.push_back(track.name);
      continue;
    }
    SeenDisk d;
    d.spec = spec;
    d.track = track;
    d.pose = model::pose_of(track);
    scene.disks.push_back(std::move(d));
  }
  return scene;
}

}  // namespace diskref::referee
