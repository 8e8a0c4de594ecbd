#pragma once
// An event as the log writes it: {"event": kind, "text": ..., and the event's members}. The only
// place events become JSON.

#include <nlohmann/json.hpp>

#include "engine/rules/events.h"

namespace diskref::rules {

nlohmann::json event_to_json(const Event& event);

}  // namespace diskref::rules
