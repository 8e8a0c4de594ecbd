#pragma once
// Test support: the events of a text/event-stream (the live feed's /feed/v1/events), as a client
// reads them: whole or as they arrive.

#include <algorithm>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace diskref::testing {

struct SseEvent {
  std::string type;
  nlohmann::json data;
};

// Splits a text/event-stream into its events (comments and keep-alives left out).
inline std::vector<SseEvent> parse_sse(const std::string& stream) {
  std::vector<SseEvent> events;
  std::size_t at = 0;
  for (auto end = stream.find("\n\n"); end != std::string::npos; at = end + 2, end = stream.find("\n\n", at)) {
    std::string type, data;
    std::size_t line_at = at;
    while (line_at < end) {
      const auto nl = std::min(stream.find('\n', line_at), end);
      const std::string line = stream.substr(line_at, nl - line_at);
      if (line.rfind("event: ", 0) == 0) type = line.substr(7);
      if (line.rfind("data: ", 0) == 0) data = line.substr(6);
      line_at = nl + 1;
    }
    if (!type.empty()) events.push_back({type, nlohmann::json::parse(data)});
  }
  return events;
}

// The events complete in `received` so far, taken out of it (an event still arriving stays).
inline std::vector<SseEvent> take_sse_events(std::string& received) {
  const auto end = received.rfind("\n\n");
  if (end == std::string::npos) return {};
  std::vector<SseEvent> events = parse_sse(received.substr(0, end + 2));
  received.erase(0, end + 2);
  return events;
}

}  // namespace diskref::testing
