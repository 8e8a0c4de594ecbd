#include "engine/rules/events.h"

namespace diskref::rules {

std::string_view Event::kind() const {
  return std::visit([](const auto& e) { return std::string_view(std::decay_t<decltype(e)>::kind); }, what);
}

}  // namespace diskref::rules
