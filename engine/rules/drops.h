#pragma once
// Every random drop of damage counters (damage, the critical check, the collision check, initiative
// tie-breaks, boarding) goes through one interface, DropSource. Two sources implement it:
//   - SeenDrops: the results the referee saw on the table, given with the action;
//   - VirtualDrops: a seeded PRNG whose state lives in the game state (DropState::rng), so a game
//     replays identically from its seed. No global RNG, no clock.
// A counter has two faces: "HIT!" and, on its back, a critical type (step 3: "The back of every
// damage counter describes a type of critical result").

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/rules/actions.h"

namespace diskref::rules {

enum class DropPurpose { damage, critical, collision, initiative, boarding };
std::string_view to_string(DropPurpose purpose);

struct DropRequest {
  DropPurpose purpose = DropPurpose::damage;
  std::string subject;  // the ship (damage, critical, collision, initiative) or player (boarding)
  int counters = 0;
  // Critical check only: one counter of each critical type, in this order. The outcome tells which
  // of them show their critical face.
  std::vector<std::string> typed_counters;
};

struct DropOutcome {
  std::vector<bool> critical;  // per counter: true = critical face up, false = "HIT!" up
  bool seen = false;           // from the table (true) or virtual (false)

  int hits() const;
  int crits() const;
  // Critical check: the types showing their critical face.
  std::vector<std::string> crit_types(const DropRequest& request) const;
};

class DropSource {
 public:
  virtual ~DropSource() = default;
  // Throws NeedsMore (a NeededDrop, need.h) when the drop is not given yet, Refused (bad_drop) when
  // the given one does not fit.
  virtual DropOutcome drop(const DropRequest& request) = 0;
};

// The initial state of the game's PRNG (engine/random/splitmix64.h) for a seed.
std::uint64_t rng_state_from_seed(std::uint64_t seed);

class VirtualDrops : public DropSource {
 public:
  // `rng_state` is the game state's DropState::rng (advanced in place); each counter shows "HIT!"
  // with probability `hit_face_odds` (docs/rules.md, open parameter 8).
  VirtualDrops(std::uint64_t& rng_state, double hit_face_odds) : rng_(rng_state), hit_odds_(hit_face_odds) {}
  DropOutcome drop(const DropRequest& request) override;

 private:
  std::uint64_t& rng_;
  double hit_odds_;
};

class SeenDrops : public DropSource {
 public:
  // Uses `seen` in order; once they run out, asks `fallback` (virtual drops) or says the drop is
  // needed (NeedsMore) when there is none. `crit_type_ids` are the known critical types.
  SeenDrops(std::vector<SeenDrop> seen, DropSource* fallback, std::vector<std::string> crit_type_ids)
      : seen_(std::move(seen)), fallback_(fallback), crit_ids_(std::move(crit_type_ids)) {}
  DropOutcome drop(const DropRequest& request) override;
  // Refuses (unused_drops) when the action gave drops it did not need.
  void check_all_used() const;

 private:
  std::vector<SeenDrop> seen_;
  std::size_t next_ = 0;
  DropSource* fallback_;
  std::vector<std::string> crit_ids_;
};

// "critical check of tderet (5 typed counters)" -- for messages.
std::string describe(const DropRequest& request);

}  // namespace diskref::rules
