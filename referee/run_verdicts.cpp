#include "referee/run_verdicts.h"

#include <cmath>

#include <nlohmann/json.hpp>

#include "engine/geometry/flip_path.h"
#include "engine/rules/table_geometry.h"

namespace diskref::referee {
namespace {

double round2(double v) {
  return std::round(v * 100.0) / 100.0;
}

// Every disk in play other than the mover, with its shape where the books have it.
struct Other {
  std::string name;
  geom::PlacedShape placed;
  bool torpedo = false;
  bool ship = false;
};

std::vector<Other> others(const RunContext& c) {
  std::vector<Other> out;
  for (const rules::ShipState& s : c.books->ships)
    if (!s.destroyed && s.id != c.mover) out.push_back({s.id, rules::placed(s), false, true});
  for (const rules::Terrain& t : c.books->terrain)
    if (t.in_play && t.id != c.mover) out.push_back({t.id, rules::placed(t), false, false});
  for (const rules::Torpedo& t : c.books->torpedoes)
    if (t.id != c.mover) out.push_back({t.id, rules::placed(t), true, false});
  return out;
}

}  // namespace

std::vector<Verdict> run_verdicts(const MoveReading& reading, const RunContext& c) {
  std::vector<Verdict> out;
  if (reading.landings.empty()) return out;
  const double sigma_mover = c.sigma ? c.sigma(c.mover) : 0.0;
  // Contacts: a ship meets torpedoes at its landings; a torpedo meets ships.
  for (const Other& o : others(c)) {
    bool met = c.mover_is_torpedo ? o.ship : o.torpedo;
    if (!met) continue;
    // Reported at the landing where it came closest; a contact strikes at the first landing that
    // makes one.
    Verdict best;
    bool have = false;
    int first_yes = 0;
    for (std::size_t i = 0; i < reading.landings.size(); ++i) {
      const ReadLanding& l = reading.landings[i];
      double sep = geom::signed_distance({c.shape, l.pose}, o.placed).distance;
      double sigma = combined_sigma(std::max(l.sigma_mm, sigma_mover), c.sigma ? c.sigma(o.name) : 0.0);
      Call call = call_margin(-sep, sigma);
      if (call == Call::yes && first_yes == 0) first_yes = static_cast<int>(i) + 1;
      if (!have || sep < best.margin_mm) {
        best = {VerdictKind::torpedo_contact, o.name, sep, sigma, call, static_cast<int>(i) + 1, false, c.mover};
        have = true;
      }
    }
    if (have && best.call == Call::yes) best.flip = first_yes;
    if (have && best.margin_mm < c.near_mm) out.push_back(best);
  }
  // Overlaps where it ends: every ship or terrain disk near (a torpedo ends where it strikes).
  if (!c.mover_is_torpedo) {
    const ReadLanding& end = reading.landings.back();
    for (const Other& o : others(c)) {
      if (o.torpedo) continue;
      double sep = geom::signed_distance({c.shape, end.pose}, o.placed).distance;
      if (sep >= c.near_mm) continue;
      double sigma = combined_sigma(std::max(end.sigma_mm, sigma_mover), c.sigma ? c.sigma(o.name) : 0.0);
      out.push_back({VerdictKind::overlap, o.name, sep, sigma, call_margin(-sep, sigma), 0, false, c.mover});
    }
  }
  // The edge: the landing centre nearest it (negative: outside); out at the first landing beyond.
  Verdict edge{VerdictKind::edge, "play_area", 0, 0, Call::no, 0, false, c.mover};
  int first_out = 0;
  for (std::size_t i = 0; i < reading.landings.size(); ++i) {
    const ReadLanding& l = reading.landings[i];
    double m = geom::play_area_margin(l.pose.position, c.books->play_area_mm);
    double sigma = std::max(l.sigma_mm, sigma_mover);
    if (first_out == 0 && call_margin(-m, sigma) == Call::yes) first_out = static_cast<int>(i) + 1;
    if (i == 0 || m < edge.margin_mm) {
      edge.margin_mm = m;
      edge.sigma_mm = sigma;
      edge.flip = static_cast<int>(i) + 1;
    }
  }
  edge.call = call_margin(-edge.margin_mm, edge.sigma_mm);
  if (edge.call == Call::yes) edge.flip = first_out;
  out.push_back(edge);
  return out;
}

Verdict range_verdict(const geom::PlacedShape& from, double sigma_from, const std::string& to_name,
                      const geom::PlacedShape& to, double sigma_to, const geom::Rect& range_template, int multiplier) {
  geom::RangeOutput r = geom::range_check(from, to, range_template, multiplier);
  double sigma = combined_sigma(sigma_from, sigma_to);
  return {VerdictKind::range, to_name, r.margin_mm, sigma, call_margin(r.margin_mm, sigma), 0, false, ""};
}

rules::TableRulings rulings_from(std::vector<Verdict>& verdicts, const std::vector<Decision>& decisions,
                                 std::vector<Verdict>& undecided) {
  rules::TableRulings rulings;
  for (Verdict& v : verdicts) {
    for (const Decision& d : decisions)
      if (d.kind == v.kind && d.with == v.with) {
        v.call = d.yes ? Call::yes : Call::no;
        v.decided = true;
      }
    if (v.call == Call::too_close) {
      undecided.push_back(v);
      continue;
    }
    if (v.call != Call::yes) continue;
    switch (v.kind) {
      case VerdictKind::torpedo_contact:
        rulings.contacts.push_back({v.flip, v.with});
        break;
      case VerdictKind::overlap:
        rulings.end_overlaps.push_back(v.with);
        break;
      case VerdictKind::edge:
        rulings.left_play_area_at = v.flip;
        break;
      case VerdictKind::range:
        break;
    }
  }
  return rulings;
}

nlohmann::json verdict_to_json(const Verdict& v) {
  nlohmann::json j = {{"kind", to_string(v.kind)},
                      {"with", v.with},
                      {"margin_mm", round2(v.margin_mm)},
                      {"sigma_mm", round2(v.sigma_mm)},
                      {"call", to_key(v.call)}};
  if (v.flip > 0) j["flip"] = v.flip;
  if (!v.mover.empty()) j["disk"] = v.mover;
  if (v.decided) j["decided_by"] = "referee";
  return j;
}

}  // namespace diskref::referee
