#include "recording/session_event.h"

#include <nlohmann/json.hpp>

namespace diskref::recording {

nlohmann::json to_json(const Event& e) {
  nlohmann::json j = {{"t", e.t}, {"severity", e.severity == Severity::warning ? "warning" : "info"}, {"text", e.text}};
  if (e.frame >= 0) j["frame"] = e.frame;
  return j;
}

}  // namespace diskref::recording
