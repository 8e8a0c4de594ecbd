#include "referee/inputs.h"

#include <cmath>

#include <nlohmann/json.hpp>

#include "engine/io/input_error.h"
#include "engine/io/jsonl.h"
#include "engine/model/bounds.h"
#include "engine/rules/action_json.h"

namespace diskref::referee {
namespace {

VerdictKind parse_kind(const io::JsonCursor& c) {
  std::string k = c.one_of({"torpedo_contact", "overlap", "edge", "range"});
  if (k == "torpedo_contact") return VerdictKind::torpedo_contact;
  if (k == "overlap") return VerdictKind::overlap;
  if (k == "edge") return VerdictKind::edge;
  return VerdictKind::range;
}

Decision parse_decision(const io::JsonCursor& c, std::initializer_list<std::string_view> also) {
  std::vector<std::string_view> allowed{"kind", "with", "call"};
  allowed.insert(allowed.end(), also.begin(), also.end());
  for (const std::string& key : c.keys())
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) c.at(key).fail("unknown member of a decision");
  Decision d;
  d.kind = parse_kind(c.at("kind"));
  d.with = c.at("with").non_empty_string();
  d.yes = c.at("call").one_of({"yes", "no"}) == "yes";
  return d;
}

nlohmann::json decision_to_json(const Decision& d) {
  return {{"kind", to_string(d.kind)}, {"with", d.with}, {"call", d.yes ? "yes" : "no"}};
}

}  // namespace

const char* to_string(VerdictKind kind) {
  switch (kind) {
    case VerdictKind::torpedo_contact:
      return "torpedo_contact";
    case VerdictKind::overlap:
      return "overlap";
    case VerdictKind::edge:
      return "edge";
    case VerdictKind::range:
      return "range";
  }
  return "?";
}

Input parse_input(const io::JsonCursor& c) {
  if (!c.json().is_object()) c.fail("an input is a JSON object {\"t\": SECONDS, \"do\": ...}");
  Input in;
  in.where = c.file();
  // Where it was first given, kept by a recording: its messages name that place again.
  if (auto from = c.find("from")) in.where = from->non_empty_string();
  in.t = model::bounds::time_s(c.at("t"));
  std::string what = c.at("do").non_empty_string();
  // The members other than "t" and "from" are a play action's (or one of the referee's own).
  nlohmann::json body = c.json();
  body.erase("t");
  body.erase("from");
  io::JsonCursor b(body, c.file(), c.path());
  auto only = [&](std::initializer_list<std::string_view> keys) {
    std::vector<std::string_view> all{"do", "note"};
    all.insert(all.end(), keys.begin(), keys.end());
    for (const std::string& key : b.keys())
      if (std::find(all.begin(), all.end(), key) == all.end())
        b.at(key).fail("unknown member for a \"" + what + "\" input");
  };
  if (what == "drops") {
    only({"drops"});
    in.kind = Input::Kind::drops;
    auto drops = b.at("drops");
    if (drops.size() == 0) drops.fail("give at least one drop");
    for (std::size_t i = 0; i < drops.size(); ++i) in.drops.push_back(rules::parse_seen_drop(drops.at(i)));
    return in;
  }
  if (what == "leave_in_place") {
    only({"player"});
    in.kind = Input::Kind::leave_in_place;
    if (auto player = b.find("player")) in.player = player->non_empty_string();
    return in;
  }
  if (what == "decide") {
    in.kind = Input::Kind::decide;
    in.decision = parse_decision(b, {"do", "note"});
    return in;
  }
  if (what == "choose") {
    only({"choice", "player"});
    in.kind = Input::Kind::choose;
    in.choice = b.at("choice").non_empty_string();
    if (auto player = b.find("player")) in.player = player->non_empty_string();
    return in;
  }
  if (what == "counter") {
    only({"counter", "shows"});
    in.kind = Input::Kind::counter;
    if (auto name = b.find("counter")) in.counter.counter = name->non_empty_string();
    in.counter.shows = *model::shows_from_string(b.at("shows").one_of({"hit", "blank", "critical"}));
    return in;
  }
  if (what == "correct") {
    only({"input", "with", "entry", "decide", "drops"});
    in.kind = Input::Kind::correct;
    if (auto k = b.find("input")) {
      if (b.has("entry") || b.has("decide"))
        b.fail("a correction replaces an input or decides an entry again, not both");
      in.correction.input = static_cast<std::size_t>(k->int_in(0, 10'000'000));
      // has() counts a null member as absent; here null is the value that drops the input.
      if (!b.json().contains("with"))
        b.fail("say what input " + std::to_string(*in.correction.input) + " becomes: \"with\": {...} or null");
      if (!b.json().at("with").is_null()) {
        nlohmann::json replacement = b.at("with").json();
        if (!replacement.is_object()) b.at("with").fail("an input object, or null to drop it");
        replacement["t"] = in.t;  // placeholder: the replaced input keeps its own time
        Input r = parse_input(io::JsonCursor(replacement, c.file(), c.path() + ".with"));
        if (r.kind == Input::Kind::correct) b.at("with").fail("a correction cannot be replaced by a correction");
        in.correction.replacement = std::make_shared<const Input>(std::move(r));
      }
      return in;
    }
    in.correction.entry = static_cast<std::size_t>(b.at("entry").int_in(0, 10'000'000));
    if (b.has("decide") == b.has("drops"))
      b.fail(
          "a correction of an entry either decides its verdict again (\"decide\") or gives the drops it read "
          "(\"drops\")");
    if (auto drops = b.find("drops")) {
      if (drops->size() == 0) drops->fail("give at least one drop");
      for (std::size_t i = 0; i < drops->size(); ++i)
        in.correction.drops.push_back(rules::parse_seen_drop(drops->at(i)));
      return in;
    }
    in.correction.decision = parse_decision(b.at("decide"), {});
    return in;
  }
  for (const char* table_only : {"move", "move_torpedoes", "displaced"})
    if (what == table_only) b.at("do").fail("\"" + what + "\" is read from the table, never entered (spec §9)");
  in.kind = Input::Kind::action;
  in.action = rules::parse_action(b);
  // A torpedo launched on the table: where it was put, its shape and its headings are what the
  // table shows (its `torpedo`, when named, is checked against the disk put in the bay).
  if (const auto* exec = std::get_if<rules::ExecuteOrder>(&in.action.body))
    if (const auto* launch = std::get_if<rules::LaunchTorpedo>(&exec->body); launch != nullptr && !launch->run)
      for (const char* member : {"placed", "shape", "headings_after_flips"})
        if (b.has(member) && !(b.at(member).json().is_array() && b.at(member).json().empty()))
          b.at(member).fail(
              std::string("is read from the table, never entered without the launch's \"run\" (spec §9)"));
  return in;
}

nlohmann::json input_to_json(const Input& in) {
  nlohmann::json j;
  switch (in.kind) {
    case Input::Kind::action:
      j = rules::action_to_json(in.action);
      break;
    case Input::Kind::drops: {
      j = {{"do", "drops"}, {"drops", nlohmann::json::array()}};
      for (const rules::SeenDrop& d : in.drops) j["drops"].push_back(rules::seen_drop_to_json(d));
      break;
    }
    case Input::Kind::leave_in_place:
      j = {{"do", "leave_in_place"}};
      break;
    case Input::Kind::choose:
      j = {{"do", "choose"}, {"choice", in.choice}};
      break;
    case Input::Kind::decide:
      j = decision_to_json(in.decision);
      j["do"] = "decide";
      break;
    case Input::Kind::correct:
      j = {{"do", "correct"}};
      if (in.correction.input) {
        j["input"] = *in.correction.input;
        if (in.correction.replacement) {
          nlohmann::json w = input_to_json(*in.correction.replacement);
          w.erase("t");
          j["with"] = w;
        } else {
          j["with"] = nullptr;
        }
      } else {
        j["entry"] = in.correction.entry.value_or(0);
        if (in.correction.decision) j["decide"] = decision_to_json(*in.correction.decision);
        if (!in.correction.drops.empty()) {
          j["drops"] = nlohmann::json::array();
          for (const rules::SeenDrop& d : in.correction.drops) j["drops"].push_back(rules::seen_drop_to_json(d));
        }
      }
      break;
    case Input::Kind::counter:
      j = {{"do", "counter"}};
      if (!in.counter.counter.empty()) j["counter"] = in.counter.counter;
      j["shows"] = std::string(model::to_string(in.counter.shows));
      break;
  }
  if (!in.player.empty() && (in.kind == Input::Kind::leave_in_place || in.kind == Input::Kind::choose))
    j["player"] = in.player;
  nlohmann::json out = {{"t", in.t}};
  out.update(j);
  return out;
}

nlohmann::json input_to_json_with_place(const Input& in) {
  nlohmann::json j = input_to_json(in);
  if (!in.where.empty()) j["from"] = in.where;
  return j;
}

std::vector<Input> load_inputs(const std::filesystem::path& file) {
  std::vector<Input> out;
  io::read_jsonl(file, [&](const io::JsonCursor& line) {
    Input in = parse_input(line);
    if (!out.empty() && in.t < out.back().t)
      line.at("t").fail("goes back in time (" + std::to_string(in.t) + " s after " + std::to_string(out.back().t) +
                        " s): inputs are in time order");
    out.push_back(std::move(in));
  });
  return out;
}

}  // namespace diskref::referee
