#include "engine/rules/events.h"

#include <nlohmann/json.hpp>

namespace diskref::rules {

nlohmann::json event_to_json(const Event& event) {
  nlohmann::json out = {{"event", event.type}, {"text", event.text}};
  for (const auto& [key, value] : event.detail.items()) out[key] = value;
  return out;
}

}  // namespace diskref::rules
