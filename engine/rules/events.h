#pragma once
// What happened: the log an applied action yields. `type` is a stable key for programs
// ("hits", "critical", "destroyed", ...), `text` a sentence for people, `detail` the numbers.

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace diskref::rules {

struct Event {
  std::string type;
  std::string text;
  nlohmann::json detail = nlohmann::json::object();
};

nlohmann::json event_to_json(const Event& event);

}  // namespace diskref::rules
