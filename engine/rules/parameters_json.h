#pragma once
// The open parameters in JSON (data/rules/parameters.json, a script's "parameters"): each member
// is either a plain value or {"value": ..., "open_parameter": N, "why": "..."}; unknown names are
// refused with the list of known ones.

#include <nlohmann/json_fwd.hpp>

#include "engine/io/json_cursor.h"
#include "engine/rules/parameters.h"

namespace diskref::rules {

// Sets the parameters named in `section` (an object); others keep their values.
void apply_parameters(Parameters& params, const io::JsonCursor& section);

// Every parameter the engine reads, as plain values.
nlohmann::json parameters_to_json(const Parameters& params);

}  // namespace diskref::rules
