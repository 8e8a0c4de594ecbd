#include "referee/referee_log.h"

#include <cmath>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "engine/rules/action_json.h"

namespace diskref::referee {
namespace {

double r2(double v) {
  return std::round(v * 100.0) / 100.0;
}
double r3(double v) {
  return std::round(v * 1000.0) / 1000.0;
}

double heading(const geom::Pose& p) {
  double h = r2(p.heading_deg());
  return h >= 360.0 ? 0.0 : h;
}

nlohmann::json pose_json(const geom::Pose& p) {
  return {{"x", r2(p.position.x)}, {"y", r2(p.position.y)}, {"heading", heading(p)}};
}

}  // namespace

nlohmann::json rest_to_json(const Rest& r) {
  nlohmann::json j = pose_json(r.pose);
  j["face"] = model::to_string(r.face);
  j["t"] = r3(r.t);
  j["sigma_mm"] = r2(r.sigma_mm);
  return j;
}

nlohmann::json observed_to_json(const Observed& o) {
  nlohmann::json j = {{"disk", o.disk}};
  if (o.start) {
    j["start"] = pose_json(o.start->pose);
    j["start"]["sigma_mm"] = r2(o.start->sigma_mm);
  }
  if (!o.landings.empty() || !o.legal_landings.empty()) {
    nlohmann::json landings = nlohmann::json::array();
    for (const auto& l : o.landings) landings.push_back(l ? rest_to_json(*l) : nlohmann::json(nullptr));
    j["landings"] = landings;
    nlohmann::json legal = nlohmann::json::array();
    for (const geom::Pose& p : o.legal_landings) legal.push_back(pose_json(p));
    j["legal_landings"] = legal;
    nlohmann::json drift = nlohmann::json::array();
    for (const auto& d : o.drift_mm) drift.push_back(d ? nlohmann::json(r2(*d)) : nlohmann::json(nullptr));
    j["drift_mm"] = drift;
  }
  if (o.end) {
    j["end"] = pose_json(o.end->pose);
    j["end"]["sigma_mm"] = r2(o.end->sigma_mm);
  }
  if (o.placed) {
    j["placed"] = pose_json(o.placed->pose);
    j["placed"]["sigma_mm"] = r2(o.placed->sigma_mm);
  }
  nlohmann::json verdicts = nlohmann::json::array();
  for (const Verdict& v : o.verdicts) verdicts.push_back(verdict_to_json(v));
  j["verdicts"] = verdicts;
  return j;
}

nlohmann::json drop_read_to_json(const DropRead& d) {
  nlohmann::json j = counter_reading_to_json(d.counters);
  j["reading"] = d.reading;
  j["t"] = r3(d.t);
  j["drop"] = rules::seen_drop_to_json(d.drop);
  if (d.overruled_by) j["overruled_by_input"] = *d.overruled_by;
  if (!d.corrected.is_null()) j["corrected"] = d.corrected;
  return j;
}

nlohmann::json entry_to_json(const Entry& e) {
  switch (e.kind) {
    case Entry::Kind::action: {
      nlohmann::json j = {{"t", r3(e.t)}};
      j.update(rules::log_entry_to_json(e.play));
      if (e.observed) j["observed"] = observed_to_json(*e.observed);
      if (!e.inputs.empty()) j["inputs"] = e.inputs;
      j["reading"] = e.reading;
      if (!e.drops_read.empty()) {
        nlohmann::json drops = nlohmann::json::array();
        for (const DropRead& d : e.drops_read) drops.push_back(drop_read_to_json(d));
        j["drops_read"] = drops;
      }
      return j;
    }
    case Entry::Kind::warning: {
      nlohmann::json j = {{"t", r3(e.t)},
                          {"reading", e.reading},
                          {"warning",
                           {{"kind", e.warning.kind},
                            {"disk", e.warning.disk},
                            {"distance_mm", r2(e.warning.distance_mm)},
                            {"text", e.warning.text}}}};
      if (e.gap) {
        j["warning"]["from"] = r3(e.gap->from);
        j["warning"]["to"] = r3(e.gap->to);
        j["warning"]["seconds"] = r3(e.gap->to - e.gap->from);
      }
      if (!e.unseen.empty()) {
        nlohmann::json disks = nlohmann::json::array();
        for (const UnseenMove& u : e.unseen)
          disks.push_back({{"name", u.disk},
                           {"before", rest_to_json(u.before)},
                           {"found", rest_to_json(u.found)},
                           {"distance_mm", r2(u.distance_mm)},
                           {"turned_deg", r2(u.turned_deg)}});
        j["warning"]["disks"] = disks;
      }
      if (!e.inputs.empty()) j["inputs"] = e.inputs;
      return j;
    }
    case Entry::Kind::waiting: {
      nlohmann::json w = {{"for", e.waiting.need}, {"disk", e.waiting.disk}, {"text", e.waiting.text}};
      if (e.waiting.drop)
        w["drop"] = {{"purpose", e.waiting.drop->purpose},
                     {"subject", e.waiting.drop->subject},
                     {"counters", e.waiting.drop->counters},
                     {"index", e.waiting.drop->index}};
      if (!e.waiting.options.empty()) w["options"] = e.waiting.options;
      nlohmann::json j = {{"t", r3(e.t)}, {"reading", e.reading}, {"waiting", w}};
      if (!e.inputs.empty()) j["inputs"] = e.inputs;
      return j;
    }
    case Entry::Kind::setup: {
      nlohmann::json disks = nlohmann::json::array();
      for (const SetupDisk& d : e.setup) {
        nlohmann::json j = {{"name", d.name}};
        if (d.rest)
          j.update(rest_to_json(*d.rest));
        else
          j["on_table"] = false;
        if (d.expected) {
          j["expected"] = pose_json(*d.expected);
          if (d.rest) j["off_by_mm"] = r2(geom::distance(d.rest->pose.position, d.expected->position));
        }
        disks.push_back(j);
      }
      return {{"t", r3(e.t)}, {"reading", e.reading}, {"setup", {{"disks", disks}}}};
    }
    case Entry::Kind::correction:
      return {{"t", r3(e.t)}, {"correction", e.correction}};
  }
  return nullptr;
}

const char* entry_tone(const Entry& e) {
  switch (e.kind) {
    case Entry::Kind::warning:
      return "warning";
    case Entry::Kind::correction:
      return "correction";
    case Entry::Kind::setup:
      return "setup";
    case Entry::Kind::waiting:
      return "waiting";
    case Entry::Kind::action:
      return e.play.refusal ? "refusal" : "info";
  }
  return "info";
}

std::string entry_text(const Entry& e) {
  switch (e.kind) {
    case Entry::Kind::action: {
      std::string out;
      auto add = [&out](const std::string& part) {
        if (!part.empty()) out += (out.empty() ? "" : "; ") + part;
      };
      if (e.play.refusal) {
        add(fmt::format("refused ({}): {}", rules::to_string(e.play.refusal->kind), e.play.refusal->reason));
      } else {
        for (const rules::Event& ev : e.play.events) add(ev.text);
      }
      for (const DropRead& d : e.drops_read)
        add(fmt::format("{} drop read from the table: {}{}", d.counters.need.purpose, d.counters.tally(),
                        d.overruled_by           ? fmt::format(" (overruled by the referee, input {})", *d.overruled_by)
                        : !d.corrected.is_null() ? std::string(" (corrected by the referee)")
                                                 : std::string("")));
      if (e.observed)
        for (const Verdict& v : e.observed->verdicts) {
          if (v.kind == VerdictKind::edge && v.call == Call::no) continue;  // every move's "inside the play area"
          add(fmt::format("{} {} {}{}: {} (margin {:.1f} ± {:.1f} mm){}", v.mover.empty() ? e.observed->disk : v.mover,
                          to_string(v.kind), v.with, v.flip > 0 ? fmt::format(" at flip {}", v.flip) : "",
                          to_string(v.call), v.margin_mm, v.sigma_mm, v.decided ? ", the referee's call" : ""));
        }
      return out;
    }
    case Entry::Kind::warning:
      return fmt::format("WARNING {}: {}", e.warning.kind, e.warning.text);
    case Entry::Kind::waiting:
      return "WAITING for the referee: " + e.waiting.text;
    case Entry::Kind::setup: {
      std::string out = "the table as the game begins:";
      for (const SetupDisk& d : e.setup)
        out += d.rest ? fmt::format(" {} at ({:.1f}, {:.1f}) mm, {:.1f} deg;", d.name, d.rest->pose.position.x,
                                    d.rest->pose.position.y, d.rest->pose.heading_deg())
                      : fmt::format(" {} not on the table;", d.name);
      out.pop_back();
      return out;
    }
    case Entry::Kind::correction:
      return "correction: " + e.correction.dump();
  }
  return {};
}

}  // namespace diskref::referee
