#pragma once
// What happened: the log an applied action yields. Each event is a sentence for people (`text`) and
// what happened as a value (`what`): one plain struct per kind, grouped in event_flow.h,
// event_orders.h, event_motion.h and event_combat.h, each naming its kind ("hits", "critical",
// "destroyed", ...) in a `kind` member, the stable key for programs. The log's JSON is made at the
// edge (engine/rules/event_json.h); a program reads the fields:
//
//   if (const auto* c = e.as<event::Collision>()) ... c->with ...

#include <string>
#include <string_view>
#include <variant>

#include "engine/rules/event_combat.h"
#include "engine/rules/event_flow.h"
#include "engine/rules/event_motion.h"
#include "engine/rules/event_orders.h"

namespace diskref::rules {

using EventBody = std::variant<
    // the game's course
    event::Turn, event::Reveal, event::Step, event::OrdersPlaced, event::Phase, event::Initiative,
    event::InitiativeKept, event::Option, event::Acts, event::Defer, event::OrderRevealed, event::OrderExecuted,
    event::Declined, event::OrdersRemoved, event::ShipDone, event::PhaseEnd, event::TorpedoStage, event::Boarding,
    event::GameOver,
    // orders and disks
    event::Speed, event::Heading, event::Shields, event::CloakRaised, event::CloakDropped, event::DiskActivated,
    event::DiskReadied, event::CrewOrders, event::Transported,
    // motion
    event::Move, event::FlipCount, event::Evasive, event::Displaced, event::Collision, event::NoCollision,
    event::Repositioned, event::NotRepositioned, event::Obstruction, event::TorpedoLaunched, event::TorpedoesMove,
    event::TorpedoGone, event::TorpedoContact, event::TorpedoExpired,
    // combat
    event::Drop, event::InRange, event::BeamFired, event::Hits, event::Damage, event::Destroyed, event::NoCritical,
    event::Critical, event::CrewRemoved, event::MaxSpeed, event::BoardingDrop, event::BoardingSegment,
    event::CrewKilled, event::BoardingOver, event::Control>;

struct Event {
  std::string text;
  EventBody what;

  // "collision", "hits", ...: the kind of `what`.
  std::string_view kind() const;
  // The event as a T, or null when it is of another kind.
  template <class T>
  const T* as() const {
    return std::get_if<T>(&what);
  }
  // Whether the event is of one of these kinds.
  template <class... T>
  bool is() const {
    return (std::holds_alternative<T>(what) || ...);
  }
};

}  // namespace diskref::rules
