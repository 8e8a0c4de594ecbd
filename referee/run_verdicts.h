#pragma once
// The verdicts a move read from the table needs (spec §9 `verdicts`): torpedo contacts at the
// landing where each came closest, overlaps where it ends, the play area's edge; and the range of
// an attack. Each has its margin, the margin's uncertainty from the disks' measured sigma, and the
// call (call.h): yes, no, or too close to call, which the referee then decides.

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "engine/geometry/range.h"
#include "engine/rules/actions.h"
#include "engine/rules/state.h"
#include "referee/call.h"
#include "referee/inputs.h"
#include "referee/move_reading.h"

namespace diskref::referee {

struct Verdict {
  VerdictKind kind = VerdictKind::overlap;
  std::string with;      // the other disk, or "play_area"
  double margin_mm = 0;  // a separation (negative: overlapping), an edge distance (negative: outside), a range margin
  double sigma_mm = 0;
  Call call = Call::no;  // yes: contact, overlap, out, in range
  int flip = 0;          // the landing it was taken at (1-based); 0: not at a landing
  bool decided = false;  // the referee's own call (too close to call, or overruled)
  std::string mover;     // the disk whose move it is about (several torpedoes run at once)
};

// The 1-sigma position uncertainty of a disk now (from the tracker), 0 when unknown.
using SigmaOf = std::function<double(const std::string& disk)>;

struct RunContext {
  std::string mover;
  geom::Shape shape;
  bool mover_is_torpedo = false;
  const rules::GameState* books = nullptr;  // the other disks where the books have them
  SigmaOf sigma;
  double near_mm = 10.0;  // overlap verdicts for every disk this close to where it ends (spec §9)
};

std::vector<Verdict> run_verdicts(const MoveReading& reading, const RunContext& context);

// The range between two placed disks with the template (reach multiplier: 1 base, 2 "+1 range").
Verdict range_verdict(const geom::PlacedShape& from, double sigma_from, const std::string& to_name,
                      const geom::PlacedShape& to, double sigma_to, const geom::Rect& range_template, int multiplier);

// The rulings the verdicts give, with the referee's decisions standing over the calls they name.
// `undecided` receives the verdicts too close to call that no decision covers: until they are
// decided the rulings cannot be given.
rules::TableRulings rulings_from(std::vector<Verdict>& verdicts, const std::vector<Decision>& decisions,
                                 std::vector<Verdict>& undecided);

nlohmann::json verdict_to_json(const Verdict& verdict);

}  // namespace diskref::referee
