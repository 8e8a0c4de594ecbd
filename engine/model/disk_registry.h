#pragma once
// The disk registry (spec §4): every disk on the table, its shape, and the tags that identify it.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "engine/geometry/shape.h"
#include "engine/io/json_cursor.h"
#include "engine/model/counter_face.h"
#include "engine/model/disk_kind.h"

namespace diskref::model {

struct TagSpec {
  int id = 0;
  Face face = Face::up;
  double size_mm = 0;             // side of the detector's corner square (spec §2)
  double heading_offset_deg = 0;  // heading = tag's +x direction + offset, seen from above
};

struct DiskSpec {
  std::string name;
  DiskKind kind = DiskKind::ship;
  double thickness_mm = 2.0;  // the visible tag lies this far above the table plane
  geom::Shape shape;
  std::vector<TagSpec> tags;
  // Optional display/print colour as 0xRRGGBB (extension: registry member "color": "#rrggbb").
  std::optional<unsigned> color_rgb;
  // A counter (kind counter): what each face shows, from its tags' "shows" (counter_face.h).
  std::optional<CounterFaces> faces;
};

// Which disk and face a tag id belongs to.
struct TagRef {
  std::size_t disk_index = 0;
  std::size_t tag_index = 0;
};

class DiskRegistry {
 public:
  DiskRegistry() = default;
  explicit DiskRegistry(std::vector<DiskSpec> disks);  // builds the tag index; assumes valid input

  const std::vector<DiskSpec>& disks() const { return disks_; }
  const DiskSpec* find(std::string_view name) const;
  std::optional<std::size_t> index_of(std::string_view name) const;
  std::optional<TagRef> find_tag(int tag_id) const;
  const TagSpec& tag(TagRef ref) const { return disks_[ref.disk_index].tags[ref.tag_index]; }
  // The file it was read from (empty when built in memory), for messages that name a place in it.
  const std::string& source() const { return source_; }
  void set_source(std::string file) { source_ = std::move(file); }

 private:
  std::vector<DiskSpec> disks_;
  std::string source_;
  std::vector<std::pair<int, TagRef>> tag_index_;  // sorted by tag id
};

// The printed tag is 1.8 x size_mm wide (tagStandard41h12: 9 cells, 5 between the detector's
// corners); it must lie inside its disk's outline when centred and turned by -heading_offset.
// Returns the problem, or empty when it fits.
std::string tag_fit_problem(const geom::Shape& shape, const TagSpec& tag);

// The largest size_mm of `tag` (same heading offset) that fits `shape` (tag_fit_problem), to 0.01 mm.
double largest_fitting_tag_mm(const geom::Shape& shape, TagSpec tag);

// tag_fit_problem with its remedy, "...; the largest that fits is 24.9 mm", or empty when it fits.
std::string tag_fit_problem_and_remedy(const geom::Shape& shape, const TagSpec& tag);
constexpr double kPrintedTagScale = 1.8;

// Throws InputError naming the file and JSON path for: unknown kinds/faces, bad shapes, duplicate
// disk names, a tag id used twice (on any disk), tag ids 0..3 (reserved for the corner markers),
// two tags on one face, a tag that does not fit its disk, a disk with no tag; a counter whose faces
// do not say what they show (counter_face.h), or "shows" on a disk that is no counter.
DiskRegistry parse_disk_registry(const io::JsonCursor& root);
DiskRegistry load_disk_registry(const std::filesystem::path& file);
nlohmann::json disk_registry_to_json(const DiskRegistry& registry);

}  // namespace diskref::model
