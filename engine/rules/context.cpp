#include "engine/rules/context.h"

#include <optional>

namespace diskref::rules {

DropOutcome Ctx::drop(const DropRequest& request) {
  DropOutcome outcome = drops.drop(request);
  ++state.drops.made;
  event::Drop what{request.purpose, request.subject, request.counters, outcome.hits(),
                   outcome.seen,    outcome.crits(), std::nullopt};
  std::string text =
      describe(request) + ": " + std::to_string(outcome.hits()) + " hit" + (outcome.hits() == 1 ? "" : "s");
  if (!request.typed_counters.empty()) {
    auto types = outcome.crit_types(request);
    what.crit_types = types;
    text += ", criticals showing:";
    if (types.empty()) text += " none";
    for (const auto& t : types) text += " " + t;
  }
  emit(std::move(what), text + (outcome.seen ? " (seen on the table)" : " (virtual)"));
  return outcome;
}

}  // namespace diskref::rules
