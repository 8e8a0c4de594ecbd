#include "engine/rules/script.h"

#include <nlohmann/json.hpp>

#include "engine/io/json_cursor.h"
#include "engine/model/disk_registry.h"
#include "engine/model/table_spec.h"
#include "engine/rules/action_json.h"
#include "engine/rules/apply.h"
#include "engine/rules/data_loading.h"
#include "engine/rules/event_json.h"
#include "engine/rules/initial_state.h"
#include "engine/rules/parameters_json.h"
#include "engine/rules/player_view.h"
#include "engine/rules/state_json.h"
#include "engine/rules/state_queries.h"
#include "engine/rules/text.h"

namespace diskref::rules {

namespace {

std::filesystem::path relative_to(const std::filesystem::path& script, const std::string& path) {
  std::filesystem::path p(path);
  return p.is_absolute() ? p : script.parent_path() / p;
}

// A path member of the setup that must name an existing file or directory.
std::filesystem::path existing_path(const io::JsonCursor& c, const std::filesystem::path& script) {
  std::filesystem::path p = relative_to(script, c.non_empty_string());
  if (!std::filesystem::exists(p)) c.fail(in_quotes(p.string()) + " does not exist");
  return p;
}

}  // namespace

Setup load_setup(const io::JsonCursor& setup, const std::filesystem::path& file, const model::TableSpec* table,
                 const model::DiskRegistry* registry, const InitialStateOptions& options) {
  setup.allow_only({"about", "data", "parameters", "table", "registry", "drops", "players", "ships", "terrain"});
  Setup out;
  std::vector<std::filesystem::path> data_paths;
  auto data = setup.at("data");
  if (data.size() == 0) data.fail("name at least one data file or directory");
  for (std::size_t i = 0; i < data.size(); ++i) data_paths.push_back(existing_path(data.at(i), file));
  out.data = load_game_data(data_paths);
  if (auto params = setup.find("parameters")) apply_parameters(out.data.parameters, *params);
  if (table != nullptr) {
    out.data.parameters.play_area_mm = table->play_area_mm;
  } else if (auto t = setup.find("table")) {
    out.data.parameters.play_area_mm = model::load_table(existing_path(*t, file)).play_area_mm;
  }
  std::optional<model::DiskRegistry> own_registry;
  if (registry == nullptr)
    if (auto reg = setup.find("registry")) own_registry = model::load_disk_registry(existing_path(*reg, file));
  const model::DiskRegistry* shapes = registry != nullptr ? registry : (own_registry ? &*own_registry : nullptr);
  out.initial = build_initial_state(setup, out.data, shapes, options);
  return out;
}

Script load_script(const std::filesystem::path& file) {
  nlohmann::json doc = io::read_json_file(file);
  io::JsonCursor root(doc, file.string());
  root.allow_only({"about", "setup", "actions"});
  Script script;
  script.file = file;
  Setup setup = load_setup(root.at("setup"), file, nullptr, nullptr);
  script.data = std::move(setup.data);
  script.initial = std::move(setup.initial);

  auto actions = root.at("actions");
  for (std::size_t i = 0; i < actions.size(); ++i) script.actions.push_back(parse_action(actions.at(i)));
  return script;
}

PlayResult run_script(const Script& script, void (*check)(const GameState&, const GameData&)) {
  PlayResult result;
  result.final_state = script.initial;
  for (std::size_t i = 0; i < script.actions.size(); ++i) {
    const GameState& now = result.final_state;
    LogEntry entry{i, script.actions[i], now.turn, now.step, now.step == Step::execute ? now.phase.number : 0, {}, {}};
    ActionResult r = apply_action(now, script.data, script.actions[i]);
    if (r.applied()) {
      result.final_state = std::move(*r.state);
      entry.events = std::move(r.events);
      if (check != nullptr) check(result.final_state, script.data);
    } else {
      entry.refusal = r.refusal;
      ++result.refused;
    }
    result.log.push_back(std::move(entry));
  }
  return result;
}

nlohmann::json log_entry_to_json(const LogEntry& entry) {
  nlohmann::json j = {{"index", entry.index},
                      {"action", action_to_json(entry.action)},
                      {"turn", entry.turn},
                      {"step", to_string(entry.step)}};
  if (entry.phase > 0) j["phase"] = entry.phase;
  if (entry.refusal) {
    j["refused"] = {{"kind", to_string(entry.refusal->kind)}, {"reason", entry.refusal->reason}};
  } else {
    j["events"] = nlohmann::json::array();
    for (const Event& e : entry.events) j["events"].push_back(event_to_json(e));
  }
  return j;
}

nlohmann::json play_result_to_json(const PlayResult& result, const std::optional<std::string>& viewer) {
  nlohmann::json log = nlohmann::json::array();
  for (const LogEntry& e : result.log) {
    log.push_back(log_entry_to_json(e));
    // The viewer does not see the other side's orders being placed (they are face down).
    if (viewer && std::holds_alternative<PlaceOrders>(e.action.body) &&
        !same_team(result.final_state, e.action.player, *viewer))
      log.back()["action"]["orders"] = "hidden";
  }
  return {{"log", log},
          {"refused", result.refused},
          {"final_state", viewer ? state_view_for(result.final_state, *viewer) : state_to_json(result.final_state)}};
}

}  // namespace diskref::rules
