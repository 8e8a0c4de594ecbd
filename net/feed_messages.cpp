#include "net/feed_messages.h"

#include <nlohmann/json.hpp>

#include "referee/books_shown.h"

namespace diskref::net {
namespace {

nlohmann::json message(const std::string& type, const std::string& table_name) {
  return {{"feed", kFeedVersion}, {"type", type}, {"table", table_name}};
}

}  // namespace

nlohmann::json setup_message(const std::string& table_name, const model::TableSpec& table,
                             const model::DiskRegistry& registry) {
  nlohmann::json m = message("setup", table_name);
  m["play_area_mm"] = {table.play_area_mm.x, table.play_area_mm.y};
  m["disks"] = model::disk_registry_to_json(registry)["disks"];
  return m;
}

nlohmann::json table_message(const std::string& table_name, const model::TrackFrame& frame) {
  nlohmann::json m = message("table", table_name);
  m.update(model::to_json(frame));
  return m;
}

nlohmann::json game_message(const std::string& table_name, const referee::Referee& r, double t) {
  nlohmann::json m = message("game", table_name);
  m["t"] = t;
  m["ships"] = nlohmann::json::array();
  for (const referee::ShipShown& s : referee::ships_shown(r.state(), r.data())) m["ships"].push_back(to_json(s));
  m["turn"] = to_json(referee::turn_shown(r.state(), r.expecting()));
  m["entries"] = r.log().size();
  return m;
}

nlohmann::json ruling_message(const std::string& table_name, std::size_t number, const referee::Entry& e) {
  nlohmann::json m = message("ruling", table_name);
  m["entry"] = number;
  m["t"] = referee::entry_to_json(e)["t"];  // rounded as the log has it
  m["text"] = referee::entry_text(e);
  m["tone"] = referee::entry_tone(e);
  if (e.kind == referee::Entry::Kind::warning) m["warning"] = {{"kind", e.warning.kind}, {"disk", e.warning.disk}};
  if (e.observed) m["observed"] = referee::observed_to_json(*e.observed);
  return m;
}

nlohmann::json status_message(const std::string& table_name, const nlohmann::json& status) {
  nlohmann::json m = message("status", table_name);
  m.update(status);
  return m;
}

}  // namespace diskref::net
