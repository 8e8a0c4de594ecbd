#include "engine/rules/action_json.h"

#include <type_traits>

#include "engine/rules/rules_json.h"
#include "engine/rules/text.h"
#include "engine/rules/state_json.h"

namespace diskref::rules {

namespace {

SeenDrop parse_drop(const io::JsonCursor& c) {
  c.allow_only({"purpose", "subject", "hits", "crits", "note"});
  SeenDrop d;
  if (auto p = c.find("purpose")) d.purpose = p->one_of({"damage", "critical", "collision", "initiative", "boarding"});
  if (auto s = c.find("subject")) d.subject = s->non_empty_string();
  if (auto h = c.find("hits")) d.hits = h->int_in(0, 1000);
  if (auto k = c.find("crits")) d.crits = string_list(*k);
  if (!d.hits && !d.crits) c.fail("a drop gives \"hits\" or \"crits\"");
  return d;
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
      return ChangeHeading{c.at("heading").number(), ""};
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
    case OrderKind::attack: break;
  }
  std::string attack = c.at("attack").one_of({"beam", "torpedo", "transport"});
  if (attack == "beam") {
    allow({"attack", "target", "refire"});
    return BeamAttack{c.at("target").non_empty_string(), c.boolean_or("refire", false)};
  }
  if (attack == "torpedo") {
    allow({"attack", "headings_after_flips"});
    LaunchTorpedo t;
    if (auto h = c.find("headings_after_flips"))
      for (std::size_t i = 0; i < h->size(); ++i) t.headings_after_flips.push_back(h->at(i).number());
    return t;
  }
  allow({"attack", "target", "crew"});
  return Transport{c.at("target").non_empty_string(), string_list(c.at("crew"))};
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
    only({"ship", "evasive", "reposition"});
    Move m{c.at("ship").non_empty_string(), std::nullopt, std::nullopt};
    if (auto e = c.find("evasive")) {
      e->allow_only({"after_flip", "heading"});
      m.evasive = Evasive{e->at("after_flip").int_in(0, 1000), e->at("heading").number()};
    }
    if (auto r = c.find("reposition")) m.reposition = parse_pose(*r);
    return m;
  }
  if (name == "move_torpedoes") {
    only({"headings"});
    MoveTorpedoes m;
    if (auto h = c.find("headings"))
      for (const std::string& key : h->keys()) m.headings[key] = h->at(key).number();
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
    return TurnAtFullStop{c.at("ship").non_empty_string(), c.at("heading").number()};
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
        if constexpr (std::is_same_v<T, ChangeSpeed>) return {{"order", "change_speed"}, {"speed", b.speed}};
        else if constexpr (std::is_same_v<T, ChangeHeading>) {
          if (!b.face.empty()) return {{"order", "change_heading"}, {"face", b.face}};
          return {{"order", "change_heading"}, {"heading", b.heading_deg}};
        } else if constexpr (std::is_same_v<T, RaiseShields>) {
          nlohmann::json j = {{"order", "raise_shields"}};
          if (b.value) j["value"] = *b.value;
          return j;
        } else if constexpr (std::is_same_v<T, BeamAttack>)
          return {{"order", "attack"}, {"attack", "beam"}, {"target", b.target}, {"refire", b.refire}};
        else if constexpr (std::is_same_v<T, LaunchTorpedo>)
          return {{"order", "attack"}, {"attack", "torpedo"}, {"headings_after_flips", b.headings_after_flips}};
        else if constexpr (std::is_same_v<T, Transport>)
          return {{"order", "attack"}, {"attack", "transport"}, {"target", b.target}, {"crew", b.crew}};
        else {
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
  if (needs_player(a.body)) a.player = c.at("player").non_empty_string();
  else a.player = c.string_or("player", "");
  if (auto drops = c.find("drops"))
    for (std::size_t i = 0; i < drops->size(); ++i) a.drops.push_back(parse_drop(drops->at(i)));
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
          if (b.evasive) j["evasive"] = {{"after_flip", b.evasive->after_flip}, {"heading", b.evasive->heading_deg}};
          if (b.reposition) j["reposition"] = pose_to_json(*b.reposition);
        } else if constexpr (std::is_same_v<T, MoveTorpedoes>) {
          j["headings"] = b.headings;
        } else if constexpr (std::is_same_v<T, TurnAtFullStop>) {
          j["ship"] = b.ship;
          j["heading"] = b.heading_deg;
        } else if constexpr (std::is_same_v<T, BoardingSegment>) {
          j["ship"] = b.ship;
          j["losses"] = b.losses;
        } else if constexpr (std::is_same_v<T, RevealOrder> || std::is_same_v<T, DeclineOrders> ||
                             std::is_same_v<T, RaiseCloak> || std::is_same_v<T, DropCloak>) {
          j["ship"] = b.ship;
        }
      },
      action.body);
  if (!action.drops.empty()) {
    j["drops"] = nlohmann::json::array();
    for (const SeenDrop& d : action.drops) {
      nlohmann::json dj = nlohmann::json::object();
      if (d.purpose) dj["purpose"] = *d.purpose;
      if (d.subject) dj["subject"] = *d.subject;
      if (d.hits) dj["hits"] = *d.hits;
      if (d.crits) dj["crits"] = *d.crits;
      j["drops"].push_back(dj);
    }
  }
  return j;
}

}  // namespace diskref::rules
