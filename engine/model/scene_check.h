#pragma once
// Geometry questions about a scene (spec §6, `diskref check`): the scene file's model, its loader
// and the answers, as the spec's JSON.
//
// Beyond the spec (docs/reference/commands/check.md):
// - question type `template_check`: {"template": NAME, "from": A, "to": B} checks a template
//   physically placed on the table (a disk of kind "template" with its pose as seen): does it
//   really overlap both disks?
// - `range` takes an optional "reach_multiplier" (1 = base range, 2 = "+1 range", ...);
// - `play_area_mm` is optional (default 914.4 x 914.4: docs/rules.md, open parameter 6);
// - answers carry extra keys with the margins and points behind each verdict.

#include <optional>
#include <string>
#include <variant>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "engine/geometry/shape.h"
#include "engine/io/json_cursor.h"
#include "engine/model/disk_kind.h"

namespace diskref::model {

struct SceneDisk {
  std::string name;
  DiskKind kind = DiskKind::ship;
  geom::PlacedShape placed;
};

struct RangeQuestion {
  int from = 0, to = 0;  // indices into Scene::disks
  geom::Rect range_template;
  int reach_multiplier = 1;
};
struct OverlapQuestion {
  int a = 0, b = 0;
};
struct MoveQuestion {
  int disk = 0;
  int flips = 0;
  std::optional<double> heading_deg;
};
struct TemplateCheckQuestion {
  int placed_template = 0, from = 0, to = 0;
};

struct SceneQuestion {
  std::string id;
  std::variant<RangeQuestion, OverlapQuestion, MoveQuestion, TemplateCheckQuestion> question;
};

struct Scene {
  geom::Vec2 play_area_mm{914.4, 914.4};
  std::vector<SceneDisk> disks;
  std::vector<SceneQuestion> questions;
};

// Throws InputError naming the file, the JSON path and the problem: NaN or negative sizes,
// flat-to-flat larger than the diameter, duplicate or unknown disk names, bad flips, unknown
// question types or members.
Scene parse_scene(const io::JsonCursor& root);
Scene load_scene(const std::string& file);

// The answers, in question order: {"answers": [...]}, numbers rounded to 0.01 (integral values
// written as integers, as in the spec's example). Key order as in the spec.
nlohmann::ordered_json answer_scene(const Scene& scene);

// The JSON as the spec prints it: one answer per line, ", " and ": " separators.
std::string format_answers(const nlohmann::ordered_json& answers);

}  // namespace diskref::model
