#pragma once
// Why an action was refused. A refused action changes nothing; the reason says what rule or input
// stopped it, so a UI or the play command can show it and the game goes on.
//
// Two kinds are not "not legal" but "not yet": missing_drop and choice_needed are how apply_action
// says what an action still needs (need.h: a drop, a choice, a placement). A caller that would
// wait for it asks `needs` (apply.h), which gives the need as a typed value.

#include <exception>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace diskref::rules {

enum class RefusalKind {
  game_over,            // the game has ended
  wrong_step,           // not allowed in this step, phase or stage
  unknown_name,         // no such player, ship, disk, torpedo or terrain
  not_yours,            // the player does not control that ship or disk
  not_your_option,      // another ship holds the option, or another ship is acting
  cannot_defer,         // the last ship to go cannot defer; a ship that started acting cannot defer
  already_done,         // orders already placed, order already revealed, ship already moved, ...
  order_not_available,  // no such order pending for this ship this phase
  illegal_value,        // a value the rule does not allow (speed change of 3, shields above maximum, ...)
  out_of_range,         // the range template cannot touch both disks
  shields_up,           // transporting needs both shields at 0
  disk_not_ready,       // concealed, activated or removed from play
  cloaked,              // cloaked ships cannot fire or be fired upon
  missing_drop,         // the action needs a drop the referee did not give (table drops): a NeededDrop
  unused_drops,         // the action gave more drops than it needed
  bad_drop,             // a given drop does not fit what is asked
  choice_needed,        // a player's choice is needed (reposition, combat loss, ...): a NeededChoice or NeededPlacement
  bad_choice,           // the given choice is not allowed
};

std::string_view to_string(RefusalKind kind);

// What a missing drop is (RefusalKind::missing_drop), so that a screen can ask for it: counters
// dropped for `purpose` ("damage", "critical", ...) of `subject`; for a critical check, one counter
// of each of `typed_counters`' critical types.
struct NeededDrop {
  std::string purpose;
  std::string subject;
  int counters = 0;
  std::vector<std::string> typed_counters;
  std::size_t index = 0;  // the drop's place among the action's drops
};

struct Refusal {
  RefusalKind kind = RefusalKind::wrong_step;
  std::string reason;
  std::optional<NeededDrop> needed_drop;  // missing_drop
  // choice_needed, where the choice is among named disks (a crew a boarding side loses): them.
  std::vector<std::string> options;
  // bad_drop: the given drop that does not fit what is asked; unused_drops: the first given drop
  // the action did not use. An index among the action's `drops`, so that a caller that gathered
  // them from several places (a line, another line, the table) can say which one is wrong.
  std::optional<std::size_t> drop;
};

// Thrown inside the rules and caught by apply_action, which then discards its working copy of the
// state: the public interface returns a Refusal value and the caller's state is untouched.
class Refused : public std::exception {
 public:
  explicit Refused(Refusal refusal) : refusal_(std::move(refusal)) {}
  const Refusal& refusal() const { return refusal_; }
  const char* what() const noexcept override { return refusal_.reason.c_str(); }

 private:
  Refusal refusal_;
};

[[noreturn]] inline void refuse(RefusalKind kind, std::string reason) {
  throw Refused({kind, std::move(reason), std::nullopt, {}, std::nullopt});
}

// A given drop, the action's `drops[drop]`, is wrong (bad_drop) or more than needed (unused_drops).
[[noreturn]] inline void refuse_drop(RefusalKind kind, std::string reason, std::size_t drop) {
  throw Refused({kind, std::move(reason), std::nullopt, {}, drop});
}

}  // namespace diskref::rules
