#pragma once
// One thing that happened in a session, as the screen's event log shows it and a recording keeps
// it (events.jsonl: {"t", "frame", "severity", "text"}): a disk appeared, was lost, the camera
// moved, a recording's video fell behind.

#include <string>

#include <nlohmann/json_fwd.hpp>

namespace diskref::recording {

enum class Severity { info, warning };

struct Event {
  double t = 0;          // seconds, the source's clock (video time or since the camera opened)
  long long frame = -1;  // source frame, -1 when not tied to a frame
  Severity severity = Severity::info;
  std::string text;
};

nlohmann::json to_json(const Event& event);

}  // namespace diskref::recording
