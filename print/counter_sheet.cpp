#include "print/counter_sheet.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "engine/model/counter_face.h"

namespace diskref::print {

std::optional<std::string> counter_face_word(const model::DiskSpec& disk, model::Face face) {
  const model::CounterFace* shows = model::counter_face(disk, face);
  if (!shows) return std::nullopt;
  switch (shows->shows) {
    case model::CounterFace::Shows::hit:
      return "HIT!";
    case model::CounterFace::Shows::critical:
      return shows->crit;
    case model::CounterFace::Shows::blank:
      return "blank";
  }
  return std::nullopt;
}

std::optional<std::string> counter_faces_line(const model::DiskSpec& disk) {
  if (disk.kind != model::DiskKind::counter) return std::nullopt;
  std::string faces;
  for (model::Face face : {model::Face::up, model::Face::down}) {
    const model::CounterFace* shows = model::counter_face(disk, face);
    faces += fmt::format("{}{} {}", faces.empty() ? "" : ", ", model::to_string(face),
                         shows ? model::describe(*shows) : "?");
  }
  return faces;
}

std::vector<std::string> counter_read_problems(const model::DiskRegistry& registry, const ViewingCamera& camera) {
  // One line per tag size (a set of counters is usually all alike), naming the counters.
  std::vector<std::pair<double, std::vector<std::string>>> by_size;
  for (const model::DiskSpec& d : registry.disks()) {
    if (d.kind != model::DiskKind::counter) continue;
    for (const model::TagSpec& t : d.tags) {
      if (pixels_per_cell(t, camera) >= kMinPixelsPerCell) continue;
      auto it = std::find_if(by_size.begin(), by_size.end(), [&](const auto& e) { return e.first == t.size_mm; });
      if (it == by_size.end()) it = by_size.insert(by_size.end(), {t.size_mm, {}});
      const std::string what = fmt::format("{} {} (tag {})", d.name, model::to_string(t.face), t.id);
      it->second.push_back(what);
    }
  }
  std::vector<std::string> out;
  for (const auto& [size, faces] : by_size) {
    model::TagSpec tag;
    tag.size_mm = size;
    const double cell = pixels_per_cell(tag, camera);
    const double highest = camera.height_mm * cell / kMinPixelsPerCell;
    const int width = static_cast<int>(std::ceil(camera.resolution.width * kMinPixelsPerCell / cell));
    const int height = static_cast<int>(std::ceil(camera.resolution.height * kMinPixelsPerCell / cell));
    out.push_back(fmt::format(
        "counter tags of {:g} mm ({}) have {:.2f} px per cell seen from {:g} mm by a {}x{} camera with a {:g} degree "
        "field "
        "of view; a drop is read only from counters with {:g} or more: hang this camera at most {:.0f} mm above the "
        "table, "
        "or use one of at least {}x{} at {:g} mm, or counters with larger tags",
        size, fmt::join(faces, ", "), cell, camera.height_mm, camera.resolution.width, camera.resolution.height,
        camera.horizontal_fov_deg, kMinPixelsPerCell, std::floor(highest), width, height, camera.height_mm));
  }
  return out;
}

}  // namespace diskref::print
