#include "engine/rules/event_json.h"

#include <string>
#include <vector>

namespace diskref::rules {

namespace {

using nlohmann::json;

json names(const std::vector<OrderKind>& orders) {
  json out = json::array();
  for (OrderKind k : orders) out.push_back(to_string(k));
  return out;
}

// Each kind's members, with the number kinds the log has always had (an int stays an int, a double
// a double) and optional members left out when absent.

// The game's course.
json members(const event::Turn& e) {
  return {{"turn", e.turn}};
}
json members(const event::Reveal& e) {
  return {{"player", e.player}, {"revealed", e.revealed}, {"concealed", e.concealed}};
}
json members(const event::Step& e) {
  return {{"turn", e.turn}};
}
json members(const event::OrdersPlaced& e) {
  return {{"ship", e.ship}};
}
json members(const event::Phase& e) {
  return {{"turn", e.turn}, {"phase", e.phase}};
}
json members(const event::Initiative& e) {
  json order = json::array();
  for (const event::InitiativeShip& s : e.order)
    order.push_back({{"ship", s.ship}, {"command", s.command}, {"speed", s.speed}});
  return {{"phase", e.phase}, {"order", order}};
}
json members(const event::InitiativeKept& e) {
  return {{"order", e.order}};
}
json members(const event::Option& e) {
  return {{"ship", e.ship}};
}
json members(const event::Acts& e) {
  return {{"ship", e.ship}};
}
json members(const event::Defer& e) {
  return {{"ship", e.ship}, {"option", e.option}};
}
json members(const event::OrderRevealed& e) {
  return {{"ship", e.ship}, {"order", to_string(e.order)}, {"phase", e.phase}};
}
json members(const event::OrderExecuted& e) {
  return {{"ship", e.ship}, {"order", to_string(e.order)}, {"source", e.source}};
}
json members(const event::Declined& e) {
  return {{"ship", e.ship}, {"orders", names(e.orders)}};
}
json members(const event::OrdersRemoved& e) {
  return {{"ship", e.ship}, {"removed", e.removed}, {"speed", e.speed}};
}
json members(const event::ShipDone& e) {
  return {{"ship", e.ship}};
}
json members(const event::PhaseEnd& e) {
  return {{"phase", e.phase}};
}
json members(const event::TorpedoStage& e) {
  return {{"phase", e.phase}};
}
json members(const event::Boarding& e) {
  return {{"combats", e.combats}};
}
json members(const event::GameOver& e) {
  return {{"winner", e.winner}};
}

// Orders and disks.
json members(const event::Speed& e) {
  json out = {{"ship", e.ship}, {"speed", e.speed}};
  if (e.full_stop) out["full_stop"] = *e.full_stop;
  return out;
}
json members(const event::Heading& e) {
  return {{"ship", e.ship}, {"heading", e.heading}};
}
json members(const event::Shields& e) {
  return {{"ship", e.ship}, {"shields", e.shields}};
}
json members(const event::CloakRaised& e) {
  return {{"ship", e.ship}, {"device", e.device}, {"type", static_cast<int>(e.type)}};
}
json members(const event::CloakDropped& e) {
  return {{"ship", e.ship}, {"device", e.device}, {"shields", e.shields}};
}
json members(const event::DiskActivated& e) {
  return {{"disk", e.disk}};
}
json members(const event::DiskReadied& e) {
  return {{"disk", e.disk}};
}
json members(const event::CrewOrders& e) {
  return {{"ship", e.ship}, {"disk", e.disk}, {"row", e.row}, {"orders", names(e.orders)}};
}
json members(const event::Transported& e) {
  return {{"from", e.from}, {"to", e.to}, {"crew", e.crew}, {"range_bonus", e.range_bonus}};
}

// Motion.
json members(const event::Move& e) {
  return {{"ship", e.ship}, {"flips", e.flips}, {"from_table", e.from_table}};
}
json members(const event::FlipCount& e) {
  return {{"ship", e.ship}, {"flips", e.flips}, {"speed", e.speed}};
}
json members(const event::Evasive& e) {
  return {{"ship", e.ship}};
}
json members(const event::Displaced& e) {
  return {{"disk", e.disk}, {"moved_mm", e.moved_mm}, {"turned_deg", e.turned_deg}, {"x", e.x},
          {"y", e.y},       {"heading", e.heading}};
}
json members(const event::Collision& e) {
  return {{"ship", e.ship}, {"with", e.with}, {"crits", e.crits}};
}
json members(const event::NoCollision& e) {
  return {{"ship", e.ship}, {"with", e.with}, {"crits", e.crits}};
}
json members(const event::Repositioned& e) {
  return {{"ship", e.ship}, {"x", e.x}, {"y", e.y}, {"heading", e.heading}, {"gap_mm", e.gap_mm}};
}
json members(const event::NotRepositioned& e) {
  return {{"ship", e.ship}};
}
json members(const event::Obstruction& e) {
  return {{"ship", e.ship}, {"obstruction", e.obstruction}, {"damage", e.damage}};
}
json members(const event::TorpedoLaunched& e) {
  return {{"ship", e.ship}, {"torpedo", e.torpedo}, {"x", e.x}, {"y", e.y}};
}
json members(const event::TorpedoesMove& e) {
  return {{"count", e.count}};
}
json members(const event::TorpedoGone& e) {
  return {{"torpedo", e.torpedo}};
}
json members(const event::TorpedoContact& e) {
  return {{"torpedo", e.torpedo}, {"ship", e.ship}, {"launcher", e.launcher}};
}
json members(const event::TorpedoExpired& e) {
  return {{"torpedo", e.torpedo}};
}

// Combat.
json members(const event::Drop& e) {
  json out = {{"purpose", to_string(e.purpose)},
              {"subject", e.subject},
              {"counters", e.counters},
              {"hits", e.hits},
              {"source", e.seen ? "table" : "virtual"}};
  if (e.crit_types)
    out["crits"] = *e.crit_types;
  else
    out["crits"] = e.crits;
  return out;
}
json members(const event::InRange& e) {
  return {{"from", e.from},           {"to", e.to},      {"gap_mm", e.gap_mm}, {"reach_mm", e.reach_mm},
          {"margin_mm", e.margin_mm}, {"ruled", e.ruled}};
}
json members(const event::BeamFired& e) {
  return {{"ship", e.ship}, {"target", e.target}, {"rating", e.rating}};
}
json members(const event::Hits& e) {
  return {{"ship", e.ship}, {"cause", e.cause}, {"hits", e.hits}, {"rating", e.rating}};
}
json members(const event::Damage& e) {
  return {{"ship", e.ship},       {"cause", e.cause},     {"to_shields", e.to_shields},
          {"to_hull", e.to_hull}, {"shields", e.shields}, {"hull", e.hull}};
}
json members(const event::Destroyed& e) {
  return {{"ship", e.ship}, {"why", e.why}};
}
json members(const event::NoCritical& e) {
  return {{"ship", e.ship}, {"showing", e.showing}, {"hull_damage", e.hull_damage}};
}
json members(const event::Critical& e) {
  return {{"ship", e.ship}, {"crit", e.crit}, {"count", e.count}};
}
json members(const event::CrewRemoved& e) {
  return {{"ship", e.ship}, {"crew", e.crew}};
}
json members(const event::MaxSpeed& e) {
  return {{"ship", e.ship}, {"max_speed", e.max_speed}};
}
json members(const event::BoardingDrop& e) {
  return {{"ship", e.ship}, {"player", e.player}, {"combat", e.combat}, {"hits", e.hits}};
}
json members(const event::BoardingSegment& e) {
  json team_hits = e.team_hits;
  return {{"ship", e.ship}, {"team_hits", team_hits}, {"losing_teams", e.losing_teams}};
}
json members(const event::CrewKilled& e) {
  return {{"ship", e.ship}, {"crew", e.crew}};
}
json members(const event::BoardingOver& e) {
  return {{"ship", e.ship}, {"segments", e.segments}};
}
json members(const event::Control& e) {
  return {{"ship", e.ship}, {"from", e.from}, {"to", e.to}, {"command", e.command}};
}

}  // namespace

nlohmann::json event_to_json(const Event& event) {
  json out = {{"event", std::string(event.kind())}, {"text", event.text}};
  json detail = std::visit([](const auto& e) { return members(e); }, event.what);
  for (const auto& [key, value] : detail.items()) out[key] = value;
  return out;
}

}  // namespace diskref::rules
