#pragma once
// Reading one disk's move from where the camera saw it rest (spec §9): the flips counted, each
// landing matched to its flip, the legal landings beside them and the drift per flip.
//
// A flip lands one flip length ahead with the other face up, so every rest is a landing. Rests
// closer together than half a flip are one landing (the disk was turned in place there, or seen
// twice). Between two rests n flip lengths apart lie n flips: the n - 1 landings between were not
// seen (covered by a hand) and are estimated on the line between, with an uncertainty of half the
// off-path tolerance. The flips are counted from the distances and checked against the faces: a
// face that does not fit, or a distance far from a whole number of flips, leaves the move
// uncounted (the caller warns; nothing is guessed).

#include <optional>
#include <string>
#include <vector>

#include "engine/geometry/pose.h"
#include "engine/model/disk_kind.h"

namespace diskref::referee {

struct Rest {
  geom::Pose pose;
  model::Face face = model::Face::up;
  double sigma_mm = 0;
  double t = 0;
};

// Where the rules let a move turn: a ship goes straight (evasive action may turn it once, which the
// rules then judge); a torpedo may turn after each flip of its launch, or at the start of a run.
enum class Turns { once, every_flip, at_start };

struct ReadingInput {
  Rest start;               // where its books put it when it began
  std::vector<Rest> rests;  // where the camera saw it rest, in time order; the last is where it lies
  double flip_length_mm = 0;
  int expected_flips = 0;  // its speed (or movement)
  Turns turns = Turns::once;
  double off_path_tolerance_mm = 3.0;
  double turn_tolerance_deg = 8.0;
  bool start_face_known = true;  // false: the start was not seen (the faces cannot check the count)
};

struct ReadLanding {
  std::optional<Rest> seen;  // absent: not seen
  geom::Pose pose;           // as seen (last, after any turn there), or estimated between its neighbours
  double sigma_mm = 0;
  double arrival_heading_deg = 0;  // the heading it landed with: the direction of that flip
};

struct MoveReading {
  int flips = 0;
  bool counted = true;
  std::string uncounted_why;          // when !counted
  std::vector<ReadLanding> landings;  // one per flip; the last is `end`
  Rest end;                           // where it lies
  std::optional<int> turned_after;    // it turned after this many flips (a ship's evasive action)
  double turned_to_deg = 0;
  std::vector<geom::Pose> legal;                // expected_flips legal landings (spec §9 legal_landings)
  std::vector<std::optional<double>> drift_mm;  // per flip; absent where unseen or beyond the legal
  double max_drift_mm = 0;
  double moved_mm = 0;    // start centre to end centre
  double turned_deg = 0;  // start heading to end heading (signed, -180..180]
};

MoveReading read_move(const ReadingInput& input);

}  // namespace diskref::referee
