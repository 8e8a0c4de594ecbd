#include "engine/rules/action_json.h"

#include <type_traits>

#include <nlohmann/json.hpp>

#include "engine/model/bounds.h"
#include "engine/model/shape_json.h"
#include "engine/rules/rules_json.h"
#include "engine/rules/state_json.h"
#include "engine/rules/text.h"

namespace diskref::rules {

namespace {

SeenDrop parse_drop_entry(const io::JsonCursor& c) {
  c.allow_only({"purpose", "subject", "hits", "crits", "note"});
  SeenDrop d;
  if (auto p = c.find("purpose")) d.purpose = p->one_of({"damage", "critical", "collision", "initiative", "boarding"});
  if (auto s = c.find("subject")) d.subject = s->non_empty_string();
  if (auto h = c.find("hits")) d.hits = h->int_in(0, 1000);
  if (auto k = c.find("crits")) d.crits = string_list(*k);
  if (!d.hits && !d.crits) c.fail("a drop gives \"hits\" or \"crits\"");
  return d;
}

// {"landings": [pose...], "rulings": {"contacts": [{"flip", "disk"}], "end_overlaps": [...],
//  "left_play_area_at": N}}
TableRun parse_table_run(const io::JsonCursor& c) {
  c.allow_only({"landings", "rulings"});
  TableRun run;
  auto landings = c.at("landings");
  if (landings.size() > 1000) landings.fail("more than 1000 landings");
  for (std::size_t i = 0; i < landings.size(); ++i) run.landings.push_back(parse_pose(landings.at(i)));
  if (auto r = c.find("rulings")) {
    r->allow_only({"contacts", "end_overlaps", "left_play_area_at"});
    TableRulings rulings;
    if (auto contacts = r->find("contacts")) {
      for (std::size_t i = 0; i < contacts->size(); ++i) {
        auto k = contacts->at(i);
        k.allow_only({"flip", "disk"});
        rulings.contacts.push_back(
            {k.at("flip").int_in(1, static_cast<int>(std::max<std::size_t>(1, run.landings.size()))),
             k.at("disk").non_empty_string()});
      }
    }
    if (auto e = r->find("end_overlaps")) rulings.end_overlaps = string_list(*e);
    if (auto l = r->find("left_play_area_at"))
      rulings.left_play_area_at = l->int_in(1, static_cast<int>(std::max<std::size_t>(1, run.landings.size())));
    run.rulings = std::move(rulings);
  }
  return run;
}

nlohmann::json table_run_to_json(const TableRun& run) {
  nlohmann::json landings = nlohmann::json::array();
  for (const geom::Pose& p : run.landings) landings.push_back(pose_to_json(p));
  nlohmann::json j = {{"landings", landings}};
  if (run.rulings) {
    nlohmann::json contacts = nlohmann::json::array();
    for (const Contact& c : run.rulings->contacts) contacts.push_back({{"flip", c.flip}, {"disk", c.disk}});
    j["rulings"] = {{"contacts", contacts}, {"end_overlaps", run.rulings->end_overlaps}};
    if (run.rulings->left_play_area_at) j["rulings"]["left_play_area_at"] = *run.rulings->left_play_area_at;
  }
  return j;
}

OrderBody parse_order_body(const io::JsonCursor& c) {
  OrderKind kind = parse_order_kind(c.at("order"));
  const std::initializer_list<std::string_view> common = {"do", "player", "ship", "order", "drops", "note"};
  auto allow = [&](std::initializer_list<std::string_view> extra) {
    std::vector<std::string_view> all(common);
    all.insert(all.end(), extra.begin(), extra.end());
    for (const std::string& key : c.keys())
      if (std::find(all.begin(), all.end(), key) == all.end()) {
        std::string list;
        for (auto a : all) list += (list.empty() ? "" : ", ") + std::string(a);
        c.at(key).fail("unknown member for a " + std::string(to_string(kind)) + " order (allowed: " + list + ")");
      }
  };
  switch (kind) {
    case OrderKind::change_speed:
      allow({"speed"});
      return ChangeSpeed{c.at("speed").int_in(0, 1000)};
    case OrderKind::change_heading:
      allow({"heading", "face"});
      if (auto face = c.find("face")) return ChangeHeading{0, face->non_empty_string()};
      if (auto h = c.find("heading")) return ChangeHeading{model::bounds::angle_deg(*h), ""};
      return ChangeHeading{std::nullopt, ""};  // read from the table (the referee)
    case OrderKind::raise_shields: {
      allow({"value"});
      RaiseShields r;
      if (auto v = c.find("value")) r.value = v->int_in(0, 1000);
      return r;
    }
    case OrderKind::activate: {
      allow({"disk", "row", "ready"});
      ActivateDisk a;
      a.disk = c.at("disk").non_empty_string();
      if (auto row = c.find("row")) a.row = row->int_in(0, 100);
      a.ready_target = c.string_or("ready", "");
      return a;
    }
    case OrderKind::attack:
      break;
  }
  std::string attack = c.at("attack").one_of({"beam", "torpedo", "transport"});
  auto in_range = [&]() -> std::optional<bool> {
    if (auto r = c.find("in_range")) return r->boolean();
    return std::nullopt;
  };
  if (attack == "beam") {
    allow({"attack", "target", "refire", "in_range"});
    return BeamAttack{c.at("target").non_empty_string(), c.boolean_or("refire", false), in_range()};
  }
  if (attack == "torpedo") {
    allow({"attack", "headings_after_flips", "torpedo", "placed", "run", "shape"});
    LaunchTorpedo t;
    if (auto h = c.find("headings_after_flips"))
      for (std::size_t i = 0; i < h->size(); ++i) t.headings_after_flips.push_back(model::bounds::angle_deg(h->at(i)));
    if (auto name = c.find("torpedo")) t.torpedo = name->non_empty_string();
    if (auto placed = c.find("placed")) t.placed = parse_pose(*placed);
    if (auto run = c.find("run")) t.run = parse_table_run(*run);
    if (auto shape = c.find("shape")) t.shape = model::parse_shape(*shape);
    return t;
  }
  allow({"attack", "target", "crew", "in_range"});
  return Transport{c.at("target").non_empty_string(), string_list(c.at("crew")), in_range()};
}

ActionBody parse_body(const io::JsonCursor& c, const std::string& name) {
  auto only = [&](std::initializer_list<std::string_view> keys) {
    std::vector<std::string_view> all = {"do", "player", "drops", "note"};
    all.insert(all.end(), keys.begin(), keys.end());
    for (const std::string& key : c.keys())
      if (std::find(all.begin(), all.end(), key) == all.end())
        c.at(key).fail("unknown member for a " + in_quotes(name) + " action");
  };
  if (name == "reveal") {
    only({"reveal", "conceal"});
    RevealConceal r;
    if (auto v = c.find("reveal")) r.reveal = string_list(*v);
    if (auto v = c.find("conceal")) r.conceal = string_list(*v);
    return r;
  }
  if (name == "orders") {
    only({"ship", "orders"});
    PlaceOrders p{c.at("ship").non_empty_string(), {}};
    auto orders = c.at("orders");
    for (std::size_t i = 0; i < orders.size(); ++i) p.orders.push_back(parse_order_kind(orders.at(i)));
    return p;
  }
  if (name == "initiative" || name == "defer") {
    only({});
    return name == "defer" ? ActionBody{Defer{}} : ActionBody{DetermineInitiative{}};
  }
  if (name == "execute") return ExecuteOrder{c.at("ship").non_empty_string(), parse_order_body(c)};
  if (name == "move") {
    only({"ship", "evasive", "reposition", "run"});
    Move m{c.at("ship").non_empty_string(), std::nullopt, std::nullopt, std::nullopt};
    if (auto e = c.find("evasive")) {
      e->allow_only({"after_flip", "heading"});
      m.evasive = Evasive{e->at("after_flip").int_in(0, 1000), model::bounds::angle_deg(e->at("heading"))};
    }
    if (auto r = c.find("reposition")) m.reposition = parse_pose(*r);
    if (auto run = c.find("run")) m.run = parse_table_run(*run);
    return m;
  }
  if (name == "move_torpedoes") {
    only({"headings", "runs"});
    MoveTorpedoes m;
    if (auto h = c.find("headings"))
      for (const std::string& key : h->keys()) m.headings[key] = model::bounds::angle_deg(h->at(key));
    if (auto runs = c.find("runs"))
      for (const std::string& key : runs->keys()) m.runs[key] = parse_table_run(runs->at(key));
    return m;
  }
  if (name == "reveal_order" || name == "decline" || name == "raise_cloak" || name == "drop_cloak") {
    only({"ship"});
    std::string ship = c.at("ship").non_empty_string();
    if (name == "reveal_order") return RevealOrder{ship};
    if (name == "decline") return DeclineOrders{ship};
    if (name == "raise_cloak") return RaiseCloak{ship};
    return DropCloak{ship};
  }
  if (name == "turn") {
    only({"ship", "heading"});
    return TurnAtFullStop{c.at("ship").non_empty_string(), model::bounds::angle_deg(c.at("heading"))};
  }
  if (name == "displaced") {
    only({"disk", "pose"});
    return Displaced{c.at("disk").non_empty_string(), parse_pose(c.at("pose"))};
  }
  only({"ship", "losses"});
  BoardingSegment b{c.at("ship").non_empty_string(), {}};
  if (auto l = c.find("losses")) b.losses = string_list(*l);
  return b;
}

nlohmann::json order_body_to_json(const OrderBody& body) {
  return std::visit(
      [](const auto& b) -> nlohmann::json {
        using T = std::decay_t<decltype(b)>;
        if constexpr (std::is_same_v<T, ChangeSpeed>)
          return {{"order", "change_speed"}, {"speed", b.speed}};
        else if constexpr (std::is_same_v<T, ChangeHeading>) {
          if (!b.face.empty()) return {{"order", "change_heading"}, {"face", b.face}};
          if (!b.heading_deg) return {{"order", "change_heading"}};
          return {{"order", "change_heading"}, {"heading", heading_to_json(*b.heading_deg)}};
        } else if constexpr (std::is_same_v<T, RaiseShields>) {
          nlohmann::json j = {{"order", "raise_shields"}};
          if (b.value) j["value"] = *b.value;
          return j;
        } else if constexpr (std::is_same_v<T, BeamAttack>) {
          nlohmann::json j = {{"order", "attack"}, {"attack", "beam"}, {"target", b.target}, {"refire", b.refire}};
          if (b.in_range) j["in_range"] = *b.in_range;
          return j;
        } else if constexpr (std::is_same_v<T, LaunchTorpedo>) {
          nlohmann::json j = {
              {"order", "attack"}, {"attack", "torpedo"}, {"headings_after_flips", b.headings_after_flips}};
          if (!b.torpedo.empty()) j["torpedo"] = b.torpedo;
          if (b.placed) j["placed"] = pose_to_json(*b.placed);
          if (b.run) j["run"] = table_run_to_json(*b.run);
          if (b.shape) j["shape"] = model::shape_to_json(*b.shape);
          return j;
        } else if constexpr (std::is_same_v<T, Transport>) {
          nlohmann::json j = {{"order", "attack"}, {"attack", "transport"}, {"target", b.target}, {"crew", b.crew}};
          if (b.in_range) j["in_range"] = *b.in_range;
          return j;
        } else {
          nlohmann::json j = {{"order", "activate"}, {"disk", b.disk}};
          if (b.row) j["row"] = *b.row;
          if (!b.ready_target.empty()) j["ready"] = b.ready_target;
          return j;
        }
      },
      body);
}

}  // namespace

Action parse_action(const io::JsonCursor& c) {
  io::JsonCursor what = c.at("do");
  std::string name = what.string();
  auto names = action_names();
  if (std::find(names.begin(), names.end(), name) == names.end()) {
    std::string list;
    for (auto n : names) list += (list.empty() ? "" : ", ") + std::string(n);
    what.fail(in_quotes(name) + " is not an action (one of: " + list + ")");
  }
  Action a;
  a.body = parse_body(c, name);
  if (needs_player(a.body))
    a.player = c.at("player").non_empty_string();
  else
    a.player = c.string_or("player", "");
  if (auto drops = c.find("drops"))
    for (std::size_t i = 0; i < drops->size(); ++i) a.drops.push_back(parse_drop_entry(drops->at(i)));
  return a;
}

nlohmann::json action_to_json(const Action& action) {
  nlohmann::json j = {{"do", action_name(action.body)}};
  if (!action.player.empty()) j["player"] = action.player;
  std::visit(
      [&](const auto& b) {
        using T = std::decay_t<decltype(b)>;
        if constexpr (std::is_same_v<T, RevealConceal>) {
          j["reveal"] = b.reveal;
          j["conceal"] = b.conceal;
        } else if constexpr (std::is_same_v<T, PlaceOrders>) {
          j["ship"] = b.ship;
          j["orders"] = nlohmann::json::array();
          for (OrderKind k : b.orders) j["orders"].push_back(to_string(k));
        } else if constexpr (std::is_same_v<T, ExecuteOrder>) {
          j["ship"] = b.ship;
          j.update(order_body_to_json(b.body));
        } else if constexpr (std::is_same_v<T, Move>) {
          j["ship"] = b.ship;
          if (b.evasive)
            j["evasive"] = {{"after_flip", b.evasive->after_flip},
                            {"heading", heading_to_json(b.evasive->heading_deg)}};
          if (b.reposition) j["reposition"] = pose_to_json(*b.reposition);
          if (b.run) j["run"] = table_run_to_json(*b.run);
        } else if constexpr (std::is_same_v<T, MoveTorpedoes>) {
          j["headings"] = b.headings;
          if (!b.runs.empty()) {
            j["runs"] = nlohmann::json::object();
            for (const auto& [id, run] : b.runs) j["runs"][id] = table_run_to_json(run);
          }
        } else if constexpr (std::is_same_v<T, TurnAtFullStop>) {
          j["ship"] = b.ship;
          j["heading"] = heading_to_json(b.heading_deg);
        } else if constexpr (std::is_same_v<T, BoardingSegment>) {
          j["ship"] = b.ship;
          j["losses"] = b.losses;
        } else if constexpr (std::is_same_v<T, Displaced>) {
          j["disk"] = b.disk;
          j["pose"] = pose_to_json(b.pose);
        } else if constexpr (std::is_same_v<T, RevealOrder> || std::is_same_v<T, DeclineOrders> ||
                             std::is_same_v<T, RaiseCloak> || std::is_same_v<T, DropCloak>) {
          j["ship"] = b.ship;
        }
      },
      action.body);
  if (!action.drops.empty()) {
    j["drops"] = nlohmann::json::array();
    for (const SeenDrop& d : action.drops) j["drops"].push_back(seen_drop_to_json(d));
  }
  return j;
}

SeenDrop parse_seen_drop(const io::JsonCursor& cursor) {
  return parse_drop_entry(cursor);
}

nlohmann::json seen_drop_to_json(const SeenDrop& d) {
  nlohmann::json dj = nlohmann::json::object();
  if (d.purpose) dj["purpose"] = *d.purpose;
  if (d.subject) dj["subject"] = *d.subject;
  if (d.hits) dj["hits"] = *d.hits;
  if (d.crits) dj["crits"] = *d.crits;
  return dj;
}

}  // namespace diskref::rules
