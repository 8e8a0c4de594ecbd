// What the referee gives out at the end (referee.h): LOG.json, and the game as a `diskref play`
// script.
#include <filesystem>

#include <nlohmann/json.hpp>

#include "engine/model/shape_json.h"
#include "engine/rules/action_json.h"
#include "engine/rules/state_json.h"
#include "referee/referee.h"

namespace diskref::referee {

nlohmann::json Referee::log_json() const {
  nlohmann::json entries = nlohmann::json::array();
  for (const Entry& e : log()) entries.push_back(entry_to_json(e));
  nlohmann::json out = {{"log", entries}, {"refused", refused()}, {"final_state", rules::state_to_json(state())}};
  if (!waiting_.empty()) out["waiting"] = waiting_;
  return out;
}

nlohmann::json Referee::as_play_script() const {
  nlohmann::json doc = io::read_json_file(parts_->fixed.game.file);
  doc.erase("about");
  // Paths in the game file are relative to its folder: make them absolute for a script elsewhere.
  auto absolute = [&](const std::string& p) {
    std::filesystem::path path(p);
    return (path.is_absolute() ? path : std::filesystem::absolute(parts_->fixed.game.file.parent_path() / path))
        .string();
  };
  if (doc.contains("data"))
    for (auto& d : doc["data"]) d = absolute(d.get<std::string>());
  doc.erase("table");
  doc.erase("registry");
  doc["parameters"] = doc.value("parameters", nlohmann::json::object());
  doc["parameters"]["play_area_mm"] = {parts_->fixed.table.play_area_mm.x, parts_->fixed.table.play_area_mm.y};
  // The poses and shapes the game started from: the table's and the registry's.
  const rules::GameState& start = game().books().initial_from_table;
  for (auto& ship : doc["ships"]) {
    const std::string id = ship["id"];
    for (const rules::ShipState& s : start.ships)
      if (s.id == id) {
        ship["pose"] = rules::pose_to_json(s.pose);
        ship["shape"] = model::shape_to_json(s.shape);
      }
  }
  if (doc.contains("terrain"))
    for (auto& terrain : doc["terrain"]) {
      const std::string id = terrain["id"];
      for (const rules::Terrain& t : start.terrain)
        if (t.id == id) {
          terrain["pose"] = rules::pose_to_json(t.pose);
          terrain["shape"] = model::shape_to_json(t.shape);
        }
    }
  nlohmann::json actions = nlohmann::json::array();
  for (const rules::Action& a : game().books().actions) actions.push_back(rules::action_to_json(a));
  return {{"about",
           "the game " + parts_->fixed.game.file.filename().string() + " as diskref referee read it from the table"},
          {"setup", doc},
          {"actions", actions}};
}

}  // namespace diskref::referee
