#include "engine/rules/torpedoes.h"

#include <algorithm>

#include "engine/rules/damage.h"
#include "engine/rules/refusal.h"
#include "engine/rules/state_queries.h"
#include "engine/rules/table_geometry.h"
#include "engine/rules/text.h"

namespace diskref::rules {

bool torpedo_can_strike(const Ctx& ctx, const ShipState& ship) {
  return !ship.destroyed && (!ship.cloaked || ctx.params().torpedoes_hit_cloaked);
}

namespace {

// The ship the torpedo overlaps most deeply at `pose`, or nullptr.
ShipState* struck_ship(Ctx& ctx, const Torpedo& torpedo, const geom::Pose& pose) {
  geom::PlacedShape t{torpedo.shape, pose};
  ShipState* best = nullptr;
  double deepest = 0;
  for (ShipState& s : ctx.state.ships) {
    if (!torpedo_can_strike(ctx, s)) continue;
    double d = geom::signed_distance(t, placed(s)).distance;
    if (d <= 0 && (best == nullptr || d < deepest)) {
      best = &s;
      deepest = d;
    }
  }
  return best;
}

void remove_torpedo(GameState& state, const std::string& id) {
  std::erase_if(state.torpedoes, [&](const Torpedo& t) { return t.id == id; });
}

std::string fresh_torpedo_id(GameState& state) {
  for (;;) {
    std::string id = "torpedo-" + std::to_string(state.next_torpedo++);
    bool taken = find_ship(state, id) || find_disk(state, id) || find_torpedo(state, id) || find_terrain(state, id);
    if (!taken) return id;
  }
}

geom::FlipOutput torpedo_path(const Ctx& ctx, const Torpedo& torpedo, int flips, double heading_deg) {
  geom::FlipInput in;
  in.mover = placed(torpedo);
  in.flips = flips;
  in.heading_deg = heading_deg;
  in.play_area_mm = ctx.state.play_area_mm;
  return geom::flip_path(in);
}

// What a torpedo met at one landing of its run: the ship it struck (ruled on the table, or the
// deepest overlap by exact geometry) and whether it left the play area.
struct LandingCall {
  bool outside = false;
  bool ruled = false;
  std::string ship;  // ruled: the ship struck ("" for none)
};

// Puts the torpedo at a landing; returns false when the torpedo is gone (left the table or struck).
bool land(Ctx& ctx, const std::string& id, const geom::Pose& landing, const LandingCall& call) {
  Torpedo* torpedo = find_torpedo(ctx.state, id);
  if (torpedo == nullptr) return false;
  torpedo->pose = landing;
  if (call.outside) {
    ctx.emit(event::TorpedoGone{id}, id + " leaves the play area");
    remove_torpedo(ctx.state, id);
    return false;
  }
  ShipState* ship = nullptr;
  if (!call.ruled) {
    ship = struck_ship(ctx, *torpedo, landing);
  } else if (!call.ship.empty()) {
    ship = find_ship(ctx.state, call.ship);
    if (ship == nullptr)
      refuse(RefusalKind::unknown_name, "no ship " + in_quotes(call.ship) + " for " + id + " to strike");
    if (!torpedo_can_strike(ctx, *ship)) ship = nullptr;
  }
  if (ship != nullptr) {
    torpedo_strikes(ctx, id, *ship);
    return false;
  }
  return true;
}

// The call at landing `flip` (1-based) of a run the table showed.
LandingCall table_call(const Ctx& ctx, const TableRun& run, int flip) {
  LandingCall call;
  const geom::Vec2 c = run.landings[static_cast<std::size_t>(flip - 1)].position;
  if (!run.rulings) {
    call.outside = c.x < 0 || c.y < 0 || c.x > ctx.state.play_area_mm.x || c.y > ctx.state.play_area_mm.y;
    return call;
  }
  call.ruled = true;
  call.outside = run.rulings->left_play_area_at && *run.rulings->left_play_area_at == flip;
  for (const Contact& contact : run.rulings->contacts)
    if (contact.flip == flip) call.ship = contact.disk;
  return call;
}

void check_run(const TableRun& run, const std::string& id) {
  for (const geom::Pose& p : run.landings)
    if (!geom::is_valid(p)) refuse(RefusalKind::illegal_value, "a landing of " + id + " is not a finite pose");
}

}  // namespace

void torpedo_strikes(Ctx& ctx, const std::string& torpedo_id, ShipState& ship) {
  Torpedo torpedo = *find_torpedo(ctx.state, torpedo_id);
  remove_torpedo(ctx.state, torpedo_id);
  ctx.emit(event::TorpedoContact{torpedo_id, ship.id, torpedo.launcher},
           torpedo_id + " (from " + torpedo.launcher + ") makes contact with " + ship.id);
  weapon_damage(ctx, ship, torpedo.damage, "torpedo " + torpedo_id);
}

void launch_torpedo(Ctx& ctx, ShipState& ship, const LaunchTorpedo& order) {
  const ShipCard& card = card_of(ctx.data, ship);
  if (!card.torpedo) refuse(RefusalKind::order_not_available, ship.id + " carries no torpedoes");
  if (ship.cloaked && !ctx.params().cloaked_can_launch)
    refuse(RefusalKind::cloaked, "a cloaked ship cannot launch torpedoes (docs/rules.md, open parameter 21)");
  const TorpedoData& data = *card.torpedo;
  if (static_cast<int>(order.headings_after_flips.size()) > data.movement - 1)
    refuse(RefusalKind::illegal_value, "a torpedo with movement " + std::to_string(data.movement) +
                                           " turns after at most " + std::to_string(data.movement - 1) + " flips");
  // The bay is "the small depression along the front": the torpedo starts touching the middle of
  // the ship's front, facing the ship's heading.
  const geom::Pose& ship_pose = ship.pose;
  geom::Vec2 dir = ship_pose.heading_dir();
  double front = geom::dot(geom::support(placed(ship), dir) - ship_pose.position, dir);
  double back = -geom::support_local(order.shape ? *order.shape : data.shape, {-1, 0}).x;
  Torpedo torpedo;
  if (order.torpedo.empty()) {
    torpedo.id = fresh_torpedo_id(ctx.state);
  } else {
    // The torpedo disk the player put in the bay (spec §9): named by its disk.
    if (find_ship(ctx.state, order.torpedo) || find_disk(ctx.state, order.torpedo) ||
        find_torpedo(ctx.state, order.torpedo) || find_terrain(ctx.state, order.torpedo))
      refuse(RefusalKind::bad_choice, in_quotes(order.torpedo) + " is already in play: launch another torpedo disk");
    torpedo.id = order.torpedo;
  }
  torpedo.launcher = ship.id;
  torpedo.pose = {ship_pose.position + (front + back) * dir, ship_pose.rotation};
  if (order.placed) {
    if (!geom::is_valid(*order.placed)) refuse(RefusalKind::illegal_value, "the torpedo's place is not a finite pose");
    torpedo.pose = *order.placed;
  }
  torpedo.shape = order.shape ? *order.shape : data.shape;
  torpedo.movement = data.movement;
  torpedo.damage = data.damage;
  torpedo.moves_left = ctx.params().torpedo_end_of_phase_moves;
  ctx.state.torpedoes.push_back(torpedo);
  ctx.emit(event::TorpedoLaunched{ship.id, torpedo.id, torpedo.pose.position.x, torpedo.pose.position.y},
           ship.id + " launches " + torpedo.id);
  if (order.run) {
    check_run(*order.run, torpedo.id);
    if (order.run->rulings) ctx.ruled.insert(torpedo.id);
    for (int flip = 1; flip <= static_cast<int>(order.run->landings.size()); ++flip)
      if (!land(ctx, torpedo.id, order.run->landings[static_cast<std::size_t>(flip - 1)],
                table_call(ctx, *order.run, flip)))
        return;
    return;
  }
  // "When the torpedo is launched, you may change its heading after each flip."
  double heading = ship.pose.heading_deg();
  for (int flip = 1; flip <= data.movement; ++flip) {
    if (flip >= 2 && static_cast<std::size_t>(flip - 2) < order.headings_after_flips.size())
      heading = order.headings_after_flips[static_cast<std::size_t>(flip - 2)];
    const Torpedo* t = find_torpedo(ctx.state, torpedo.id);
    geom::FlipOutput path = torpedo_path(ctx, *t, 1, heading);
    if (!land(ctx, torpedo.id, path.landings.front(), {path.leaves_play_area, false, ""})) return;
  }
}

void move_all_torpedoes(Ctx& ctx, const MoveTorpedoes& action) {
  if (ctx.state.step != Step::execute || ctx.state.phase.stage != PhaseStage::torpedoes)
    refuse(RefusalKind::wrong_step, "torpedoes move at the end of an orders phase, after every ship has acted");
  for (const auto& [id, heading] : action.headings)
    if (find_torpedo(ctx.state, id) == nullptr)
      refuse(RefusalKind::unknown_name, "no torpedo " + in_quotes(id) + " in flight");
  for (const auto& [id, run] : action.runs) {
    if (find_torpedo(ctx.state, id) == nullptr)
      refuse(RefusalKind::unknown_name, "no torpedo " + in_quotes(id) + " in flight");
    check_run(run, id);
    if (run.rulings) ctx.ruled.insert(id);
  }
  // "On its three subsequent movements, you may change its heading at the beginning of each move."
  struct Plan {
    std::string id;
    geom::FlipOutput path;
    const TableRun* run = nullptr;  // as the table showed it, when it did
  };
  std::vector<Plan> plans;
  int most_flips = 0;
  for (Torpedo& t : ctx.state.torpedoes) {
    auto it = action.headings.find(t.id);
    if (it != action.headings.end()) t.pose.rotation = geom::Rot::from_degrees(it->second);
    auto run = action.runs.find(t.id);
    if (run != action.runs.end()) {
      plans.push_back({t.id, {}, &run->second});
      most_flips = std::max(most_flips, static_cast<int>(run->second.landings.size()));
      continue;
    }
    plans.push_back({t.id, torpedo_path(ctx, t, t.movement, t.pose.heading_deg()), nullptr});
    most_flips = std::max(most_flips, t.movement);
  }
  ctx.emit(event::TorpedoesMove{plans.size()},
           std::to_string(plans.size()) + " torpedo" + (plans.size() == 1 ? "" : "es") + " move simultaneously");
  // "During torpedo movement, all torpedoes move simultaneously": flip by flip, all torpedoes.
  std::vector<bool> alive(plans.size(), true);
  for (int flip = 1; flip <= most_flips; ++flip) {
    for (std::size_t i = 0; i < plans.size(); ++i) {
      const auto& landings = plans[i].run ? plans[i].run->landings : plans[i].path.landings;
      if (!alive[i] || static_cast<int>(landings.size()) < flip) continue;
      LandingCall call;
      if (plans[i].run)
        call = table_call(ctx, *plans[i].run, flip);
      else
        call.outside = plans[i].path.first_flip_outside && *plans[i].path.first_flip_outside == flip;
      alive[i] = land(ctx, plans[i].id, landings[static_cast<std::size_t>(flip - 1)], call);
    }
  }
  for (std::size_t i = 0; i < plans.size(); ++i) {
    Torpedo* t = find_torpedo(ctx.state, plans[i].id);
    if (!alive[i] || t == nullptr) continue;
    if (--t->moves_left <= 0) {
      ctx.emit(event::TorpedoExpired{t->id}, t->id + " expires and is removed from the table");
      remove_torpedo(ctx.state, plans[i].id);
    }
  }
}

void resolve_resting_contacts(Ctx& ctx) {
  for (bool struck = true; struck;) {
    struck = false;
    for (const Torpedo& t : ctx.state.torpedoes) {
      if (ctx.ruled.count(t.id)) continue;
      ShipState* ship = struck_ship(ctx, t, t.pose);
      if (ship != nullptr && ctx.ruled.count(ship->id)) continue;
      if (ship != nullptr) {
        torpedo_strikes(ctx, t.id, *ship);
        struck = true;
        break;  // the torpedo list changed
      }
    }
  }
}

}  // namespace diskref::rules
