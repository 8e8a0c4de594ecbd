#pragma once
// The question a photo is asked on the screen's Photo tab (range A B, overlap A B, move A N flips)
// and spec §6's "questions" array that rule_on_photo answers. Disks are chosen by name from those
// the photo shows (before a photo is read: the registry's).

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/geometry/shape.h"
#include "engine/model/disk_registry.h"

namespace diskref::ui {

struct PhotoQuestion {
  enum class Kind { range, overlap, move };
  Kind kind = Kind::range;
  std::optional<std::string> a;  // range: from; overlap: a; move: the ship that flips
  std::optional<std::string> b;  // range: to; overlap: b; unused for move
  int flips = 3;
  geom::Rect range_template{88.9, 25.4};  // the template the range is measured with
  std::string template_label = "rules' 88.9 x 25.4 mm";
};

// Spec §6's questions for `q` ([{"id": "q1", "range": {...}}]), or nullopt with `missing` saying
// what is still to be chosen ("choose disk B").
std::optional<nlohmann::json> photo_questions_json(const PhotoQuestion& q, std::string& missing);

// "range enterprise to ktinga (rules' 88.9 x 25.4 mm)", "overlap a / b", "move enterprise 3 flips".
std::string question_text(const PhotoQuestion& q);

// The disks a question may name: those the photo shows, in its order, when a photo has been read;
// before that, every disk of the registry. `ships_only` for the disk that flips.
std::vector<std::string> question_disk_choices(const model::DiskRegistry& registry,
                                               const std::optional<std::vector<std::string>>& seen, bool ships_only);

}  // namespace diskref::ui
