#pragma once
// Small JSON readers shared by the rules' loaders (data files, scripts, the state): lists of ids and
// order names. Each throws InputError at the offending element.

#include <string>
#include <vector>

#include "engine/io/json_cursor.h"
#include "engine/rules/order_kind.h"
#include "engine/rules/text.h"

namespace diskref::rules {

// An array of non-empty strings.
inline std::vector<std::string> string_list(const io::JsonCursor& array) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < array.size(); ++i) out.push_back(array.at(i).non_empty_string());
  return out;
}

// "change_speed", "change_heading", "raise_shields", "attack" or "activate".
inline OrderKind parse_order_kind(const io::JsonCursor& c) {
  std::string name = c.string();
  auto kind = order_kind_from_string(name);
  if (!kind)
    c.fail(in_quotes(name) + " is not an order (change_speed, change_heading, raise_shields, attack, activate)");
  return *kind;
}

}  // namespace diskref::rules
