#include "engine/model/disk_registry.h"

#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "engine/model/bounds.h"
#include "engine/model/shape_json.h"
#include "engine/model/table_spec.h"

namespace diskref::model {
namespace {

std::optional<unsigned> parse_color(const io::JsonCursor& c) {
  std::string text = c.string();
  // Exactly '#' and six hexadecimal digits: sscanf("%6x") would take "#12345g" as 0x12345.
  bool ok = text.size() == 7 && text[0] == '#';
  unsigned value = 0;
  for (std::size_t i = 1; ok && i < text.size(); ++i) {
    const char ch = text[i];
    const int digit = ch >= '0' && ch <= '9'   ? ch - '0'
                      : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10
                      : ch >= 'A' && ch <= 'F' ? ch - 'A' + 10
                                               : -1;
    ok = digit >= 0;
    value = value * 16 + static_cast<unsigned>(digit < 0 ? 0 : digit);
  }
  if (!ok) c.fail("must be a colour written \"#rrggbb\" with six hexadecimal digits (got \"" + text + "\")");
  return value;
}

std::string format_color(unsigned rgb) {
  return fmt::format("#{:06x}", rgb & 0xffffffu);
}

}  // namespace

DiskRegistry::DiskRegistry(std::vector<DiskSpec> disks) : disks_(std::move(disks)) {
  for (std::size_t d = 0; d < disks_.size(); ++d)
    for (std::size_t t = 0; t < disks_[d].tags.size(); ++t) tag_index_.push_back({disks_[d].tags[t].id, TagRef{d, t}});
  std::sort(tag_index_.begin(), tag_index_.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
}

const DiskSpec* DiskRegistry::find(std::string_view name) const {
  auto index = index_of(name);
  return index ? &disks_[*index] : nullptr;
}

std::optional<std::size_t> DiskRegistry::index_of(std::string_view name) const {
  for (std::size_t i = 0; i < disks_.size(); ++i)
    if (disks_[i].name == name) return i;
  return std::nullopt;
}

std::optional<TagRef> DiskRegistry::find_tag(int tag_id) const {
  auto it = std::lower_bound(tag_index_.begin(), tag_index_.end(), tag_id,
                             [](const auto& entry, int id) { return entry.first < id; });
  if (it == tag_index_.end() || it->first != tag_id) return std::nullopt;
  return it->second;
}

std::string tag_fit_problem(const geom::Shape& shape, const TagSpec& tag) {
  double half = kPrintedTagScale * tag.size_mm / 2;
  // The tag's +x is the heading turned by -offset: in the disk's local frame it is rotated by
  // -heading_offset_deg. Every corner of the printed square must lie inside the outline.
  geom::Pose disk_local{{0, 0}, geom::Rot{1, 0}};
  geom::PlacedShape placed{shape, disk_local};
  geom::Rot tag_rotation = geom::Rot::from_degrees(-tag.heading_offset_deg);
  for (geom::Vec2 corner :
       {geom::Vec2{-half, -half}, geom::Vec2{half, -half}, geom::Vec2{half, half}, geom::Vec2{-half, half}}) {
    // A hair of tolerance so that the spec's "a 63.5 mm disk takes at most a 24.9 mm tag" holds.
    geom::Vec2 p = geom::rotate(tag_rotation, corner) * (1.0 - 1e-9);
    if (!geom::contains(placed, p)) {
      return fmt::format("printed tag ({:.1f} mm square = 1.8 x size_mm {:.2f}) does not fit on the disk", 2 * half,
                         tag.size_mm);
    }
  }
  return "";
}

DiskRegistry parse_disk_registry(const io::JsonCursor& root) {
  root.allow_only({"disks", "name", "notes"});
  auto disks = root.at("disks");
  std::vector<DiskSpec> out;
  std::map<std::string, std::string> name_paths;  // name -> JSON path of its first use
  std::map<int, std::string> tag_paths;
  for (std::size_t i = 0; i < disks.size(); ++i) {
    auto d = disks.at(i);
    d.allow_only({"name", "kind", "thickness_mm", "shape", "tags", "color"});
    DiskSpec spec;
    auto name = d.at("name");
    spec.name = name.non_empty_string();
    if (auto [it, fresh] = name_paths.emplace(spec.name, name.path()); !fresh)
      name.fail("disk name \"" + spec.name + "\" is used twice (first at " + it->second + ")");
    spec.kind = parse_disk_kind(d.at("kind"));
    if (auto t = d.find("thickness_mm")) spec.thickness_mm = bounds::thickness_mm(*t);
    spec.shape = parse_shape(d.at("shape"));
    if (auto c = d.find("color")) spec.color_rgb = parse_color(*c);

    auto tags = d.at("tags");
    if (tags.size() == 0) tags.fail("a disk needs at least one tag");
    bool face_used[2] = {false, false};
    for (std::size_t t = 0; t < tags.size(); ++t) {
      auto tc = tags.at(t);
      tc.allow_only({"id", "face", "size_mm", "heading_offset_deg", "shows", "crit"});
      TagSpec tag;
      auto id = tc.at("id");
      tag.id = id.int_in(0, 2114);  // tagStandard41h12 has 2115 codes
      if (is_corner_marker(tag.id)) id.fail("tag ids 0, 1, 2, 3 are the corner markers (spec §2)");
      if (auto [it, fresh] = tag_paths.emplace(tag.id, id.path()); !fresh)
        id.fail("tag id " + std::to_string(tag.id) + " is used twice (first at " + it->second + ")");
      tag.face = tc.has("face") ? parse_face(tc.at("face")) : Face::up;
      int face_slot = tag.face == Face::up ? 0 : 1;
      if (face_used[face_slot]) tc.fail("disk \"" + spec.name + "\" already has a tag on this face");
      face_used[face_slot] = true;
      tag.size_mm = bounds::tag_size_mm(tc.at("size_mm"));
      if (auto h = tc.find("heading_offset_deg")) tag.heading_offset_deg = bounds::angle_deg(*h);
      if (auto problem = tag_fit_problem_and_remedy(spec.shape, tag); !problem.empty())
        tc.at("size_mm").fail("disk \"" + spec.name + "\": " + problem);
      if (spec.kind != DiskKind::counter)
        for (const char* member : {"shows", "crit"})
          if (auto m = tc.find(member))
            m->fail("only a counter's faces say what they show (disk \"" + spec.name + "\" is a " +
                    std::string(to_string(spec.kind)) + ")");
      spec.tags.push_back(tag);
    }
    if (spec.kind == DiskKind::counter) spec.faces = parse_counter_faces(spec, d);
    out.push_back(std::move(spec));
  }
  return DiskRegistry(std::move(out));
}

double largest_fitting_tag_mm(const geom::Shape& shape, TagSpec tag) {
  // Fitting is monotonic in the size (the printed square is centred), so bisect.
  double fits = 0, too_big = 2 * geom::support_local(shape, {1, 0}).x + 2 * geom::support_local(shape, {0, 1}).y;
  for (int i = 0; i < 40; ++i) {
    tag.size_mm = (fits + too_big) / 2;
    (tag_fit_problem(shape, tag).empty() ? fits : too_big) = tag.size_mm;
  }
  return fits;
}

std::string tag_fit_problem_and_remedy(const geom::Shape& shape, const TagSpec& tag) {
  std::string problem = tag_fit_problem(shape, tag);
  if (problem.empty()) return problem;
  return problem +
         fmt::format("; the largest that fits is {:.1f} mm", std::floor(10 * largest_fitting_tag_mm(shape, tag)) / 10);
}

DiskRegistry load_disk_registry(const std::filesystem::path& file) {
  nlohmann::json doc = io::read_json_file(file);
  DiskRegistry registry = parse_disk_registry(io::JsonCursor(doc, file.string()));
  registry.set_source(file.string());
  return registry;
}

nlohmann::json disk_registry_to_json(const DiskRegistry& registry) {
  nlohmann::json disks = nlohmann::json::array();
  for (const auto& d : registry.disks()) {
    nlohmann::json tags = nlohmann::json::array();
    for (const auto& t : d.tags) {
      nlohmann::json tag = {{"id", t.id},
                            {"face", to_string(t.face)},
                            {"size_mm", t.size_mm},
                            {"heading_offset_deg", t.heading_offset_deg}};
      if (d.faces) write_counter_face((*d.faces)[t.face], tag);
      tags.push_back(std::move(tag));
    }
    nlohmann::json disk = {{"name", d.name},
                           {"kind", to_string(d.kind)},
                           {"thickness_mm", d.thickness_mm},
                           {"shape", shape_to_json(d.shape)},
                           {"tags", tags}};
    if (d.color_rgb) disk["color"] = format_color(*d.color_rgb);
    disks.push_back(std::move(disk));
  }
  return {{"disks", disks}};
}

}  // namespace diskref::model
