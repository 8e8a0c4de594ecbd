#pragma once
// Inside the referee: where an input's member is, for messages, and a refusal that names where
// the drop it is about came from.

#include <string>
#include <vector>

#include "engine/rules/refusal.h"
#include "referee/inputs.h"

namespace diskref::referee {

// Where an input's member is, for messages: "inputs.jsonl: line 11: member \"drops\"".
inline std::string member_place(const Input& in, const char* member) {
  return in.where + ": member \"" + member + "\"";
}

// A refusal about one given drop (bad_drop, unused_drops) names where that drop came from.
inline rules::Refusal naming_the_drop(rules::Refusal refusal, const std::vector<std::string>& sources) {
  if (refusal.drop && *refusal.drop < sources.size()) refusal.reason = sources[*refusal.drop] + ": " + refusal.reason;
  return refusal;
}

}  // namespace diskref::referee
