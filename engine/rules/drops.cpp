#include "engine/rules/drops.h"

#include <algorithm>

#include "engine/random/splitmix64.h"
#include "engine/rules/need.h"
#include "engine/rules/refusal.h"
#include "engine/rules/text.h"

namespace diskref::rules {

std::string_view to_string(DropPurpose purpose) {
  switch (purpose) {
    case DropPurpose::damage:
      return "damage";
    case DropPurpose::critical:
      return "critical";
    case DropPurpose::collision:
      return "collision";
    case DropPurpose::initiative:
      return "initiative";
    case DropPurpose::boarding:
      return "boarding";
  }
  return "?";
}

int DropOutcome::crits() const {
  return static_cast<int>(std::count(critical.begin(), critical.end(), true));
}
int DropOutcome::hits() const {
  return static_cast<int>(critical.size()) - crits();
}

std::vector<std::string> DropOutcome::crit_types(const DropRequest& request) const {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < critical.size() && i < request.typed_counters.size(); ++i)
    if (critical[i]) out.push_back(request.typed_counters[i]);
  return out;
}

std::string describe(const DropRequest& request) {
  std::string text = std::string(to_string(request.purpose)) + " drop for " + request.subject + " (" +
                     std::to_string(request.counters) + " counter" + (request.counters == 1 ? "" : "s");
  if (!request.typed_counters.empty()) text += ", one of each critical type";
  return text + ")";
}

std::uint64_t rng_state_from_seed(std::uint64_t seed) {
  // One splitmix64 step decorrelates neighbouring seeds (0, 1, 2, ...).
  std::uint64_t s = seed;
  return random::splitmix64_next(s);
}

DropOutcome VirtualDrops::drop(const DropRequest& request) {
  DropOutcome out;
  out.seen = false;
  out.critical.reserve(static_cast<std::size_t>(request.counters));
  for (int i = 0; i < request.counters; ++i)
    out.critical.push_back(!(random::unit_interval(random::splitmix64_next(rng_)) < hit_odds_));
  return out;
}

namespace {

// The given drop as faces for `request`, or a bad_drop refusal naming what is wrong.
DropOutcome outcome_from_seen(const SeenDrop& seen, const DropRequest& request, std::size_t index,
                              const std::vector<std::string>& crit_ids) {
  std::string where = "drop " + std::to_string(index) + " (" + describe(request) + ")";
  if (seen.purpose && *seen.purpose != to_string(request.purpose))
    refuse_drop(RefusalKind::bad_drop, where + ": it says purpose " + in_quotes(*seen.purpose), index);
  if (seen.subject && *seen.subject != request.subject)
    refuse_drop(RefusalKind::bad_drop, where + ": it says it is for " + in_quotes(*seen.subject), index);
  DropOutcome out;
  out.seen = true;
  out.critical = std::vector<bool>(static_cast<std::size_t>(request.counters), false);
  if (seen.crits) {
    const auto& named = *seen.crits;
    if (static_cast<int>(named.size()) > request.counters)
      refuse_drop(RefusalKind::bad_drop, where + ": names " + std::to_string(named.size()) + " criticals", index);
    for (std::size_t i = 0; i < named.size(); ++i) {
      if (std::find(crit_ids.begin(), crit_ids.end(), named[i]) == crit_ids.end())
        refuse_drop(RefusalKind::bad_drop, where + ": " + in_quotes(named[i]) + " is not a critical type", index);
      if (std::find(named.begin(), named.begin() + static_cast<long>(i), named[i]) !=
              named.begin() + static_cast<long>(i) &&
          !request.typed_counters.empty())
        refuse_drop(RefusalKind::bad_drop,
                    where + ": " + in_quotes(named[i]) + " named twice (one counter of each type)", index);
    }
    if (!request.typed_counters.empty()) {
      for (std::size_t i = 0; i < request.typed_counters.size(); ++i)
        out.critical[i] = std::find(named.begin(), named.end(), request.typed_counters[i]) != named.end();
    } else {
      for (std::size_t i = 0; i < named.size(); ++i) out.critical[i] = true;
    }
    if (seen.hits && *seen.hits != out.hits())
      refuse_drop(RefusalKind::bad_drop, where + ": hits and crits disagree", index);
    return out;
  }
  if (!seen.hits) refuse_drop(RefusalKind::bad_drop, where + ": give \"hits\" or \"crits\"", index);
  int hits = *seen.hits;
  if (hits < 0 || hits > request.counters)
    refuse_drop(RefusalKind::bad_drop,
                where + ": " + std::to_string(hits) + " hits from " + std::to_string(request.counters) + " counters",
                index);
  if (!request.typed_counters.empty() && hits != request.counters)
    refuse_drop(RefusalKind::bad_drop, where + ": name the critical types showing (\"crits\": [...])", index);
  for (int i = 0; i < request.counters - hits; ++i) out.critical[static_cast<std::size_t>(i)] = true;
  return out;
}

}  // namespace

DropOutcome SeenDrops::drop(const DropRequest& request) {
  if (next_ < seen_.size()) {
    std::size_t index = next_++;
    return outcome_from_seen(seen_[index], request, index, crit_ids_);
  }
  if (fallback_ != nullptr) return fallback_->drop(request);
  need_drop(NeededDrop{std::string(to_string(request.purpose)), request.subject, request.counters,
                       request.typed_counters, next_},
            "needs a " + describe(request) + ": give the result seen on the table as drop " + std::to_string(next_));
}

void SeenDrops::check_all_used() const {
  if (next_ < seen_.size())
    refuse_drop(RefusalKind::unused_drops,
                std::to_string(seen_.size()) + " drops given, " + std::to_string(next_) +
                    " needed: the game and the table are out of step",
                next_);
}

}  // namespace diskref::rules
