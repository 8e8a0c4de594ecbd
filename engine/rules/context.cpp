#include "engine/rules/context.h"

#include <nlohmann/json.hpp>

namespace diskref::rules {

DropOutcome Ctx::drop(const DropRequest& request) {
  DropOutcome outcome = drops.drop(request);
  ++state.drops.made;
  nlohmann::json detail = {{"purpose", to_string(request.purpose)},
                           {"subject", request.subject},
                           {"counters", request.counters},
                           {"hits", outcome.hits()},
                           {"source", outcome.seen ? "table" : "virtual"}};
  std::string text =
      describe(request) + ": " + std::to_string(outcome.hits()) + " hit" + (outcome.hits() == 1 ? "" : "s");
  if (!request.typed_counters.empty()) {
    auto types = outcome.crit_types(request);
    detail["crits"] = types;
    text += ", criticals showing:";
    if (types.empty()) text += " none";
    for (const auto& t : types) text += " " + t;
  } else {
    detail["crits"] = outcome.crits();
  }
  emit("drop", text + (outcome.seen ? " (seen on the table)" : " (virtual)"), std::move(detail));
  return outcome;
}

}  // namespace diskref::rules
