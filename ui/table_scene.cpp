#include "ui/table_scene.h"

namespace diskref::ui {

std::optional<std::size_t> TableScene::index_of(std::string_view name) const {
  for (std::size_t i = 0; i < disks.size(); ++i) {
    if (disks[i].name() == name) return i;
  }
  return std::nullopt;
}

TableScene make_scene(const model::DiskRegistry& registry, const model::TrackFrame& frame) {
  TableScene scene;
  scene.frame = frame.frame;
  scene.t = frame.t;
  for (const model::DiskTrack& track : frame.disks) {
    const model::DiskSpec* spec = registry.find(track.name);
    if (spec == nullptr) {
      scene.unknown.push_back(track.name);
      continue;
    }
    SceneDisk d;
    d.spec = spec;
    d.track = track;
    if (track.state != model::TrackState::lost && track.x && track.y && track.heading) {
      d.pose = geom::Pose::from_degrees(*track.x, *track.y, *track.heading);
    }
    scene.disks.push_back(std::move(d));
  }
  return scene;
}

}  // namespace diskref::ui
