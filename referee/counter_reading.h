#pragma once
// Reading a drop of damage counters from the table (the counters of spec §4's addition, kind
// "counter"): which counters belong to the drop asked for, what each shows, and what the referee
// must be asked because the camera cannot say it.
//
// Which counters: those that moved since the drop was asked for (`baseline`, the table then) —
// visible now somewhere new or on their other face, or seen somewhere new and not seen since —
// and lie in the drop zone when the game marks one (their centre inside it), anywhere on the play
// area otherwise. Counters left lying from an earlier drop have not moved: they are not counted
// again.
//
// A counter is read only when the camera vouches that it lies flat on the table by itself:
//   - its tag is seen now (the tracker takes only tags that are square on the table plane: one
//     tilted in a tumble or lifted is not seen), and it is still;
//   - it lies wholly inside the play area (and the drop zone);
//   - its outline overlaps no other disk's (a ship, a torpedo, another counter, as the table has
//     them): a counter that does lies on or against it, tilted, or another lies on it;
//   - nothing the tracker cannot explain lies against it (a counter on its edge touching it, the
//     rim of one under it, ...): a `foreign` part the tracker measured at full resolution and says
//     lies against it, or one it did not measure so (a hand's size, an older recording) within
//     kUnreadNearMm of its outline.
// A counter the tracker sees tilted at rest (on its edge, leaning: model::TiltedRest) is of the drop
// when it came to lie so after the drop was asked for; it is named and asked about, never read. The
// part it makes in the picture, against a flat counter, is no counter under that one when every
// counter of the drop is seen (flat or tilted) and none seen when the drop was asked for has gone
// out of sight: only a counter never seen could lie there, as under any counter.
// Any other counter of the drop is named with why, and the referee is asked about it alone; a
// counter asked for that is not seen at all is asked about as "not seen" (for a critical check, by
// its type), naming the counters that went out of sight since the drop was asked for. Nothing is
// guessed: the drop is given to the rules only once every counter asked for is read or answered.
// More counters moved than asked for, two of one critical type, or one of a type the check does not
// drop, make the drop unreadable as a whole: the referee gives it.
//
// Pure data in, data out (no OpenCV, no clock).

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "engine/geometry/pose.h"
#include "engine/model/counter_face.h"
#include "engine/model/disk_registry.h"
#include "engine/model/track_frame.h"
#include "engine/rules/actions.h"
#include "engine/rules/refusal.h"
#include "referee/game_file.h"

namespace diskref::referee {

// How close (mm) something unexplained that the tracker did not measure at full resolution may lie
// to a counter's outline before the counter is not read: the table watch cannot tell what lies
// within about one of its shrunk pixels (up to ~10 mm on a 1080p camera over a metre-wide table)
// and 3 mm of a known disk from the disk itself.
inline constexpr double kUnreadNearMm = 15.0;

// The referee's word on one counter (input `{"do": "counter", "counter": NAME, "shows": ...}`).
// A counter of the drop that could not be read takes it by its name; a counter asked for that is
// not seen takes answers naming a counter that is not among those read (for a critical check, one
// of its type), or naming none (not for a critical check), in the order given.
struct CounterAnswer {
  std::string counter;
  model::CounterFace::Shows shows = model::CounterFace::Shows::hit;
  std::size_t input = 0;  // the input it came from
};

// One counter of the drop, with the evidence it was read from.
struct CounterSeen {
  std::string name;
  std::optional<geom::Pose> pose;  // where it lies (table frame), when known
  double sigma_mm = 0;
  model::Face face = model::Face::up;        // the face up, as last seen
  std::optional<model::CounterFace> shows;   // what that face shows
  std::optional<model::CounterFaces> faces;  // what each of its faces shows (the registry's)
  std::string crit_type;                     // its critical face's type
  bool visible = false;                      // its tag is seen now (lying flat)
  std::optional<double> tilt_deg;            // seen tilted at rest instead: how far from flat (pose: where its tag is)
  double tag_z_mm = 0;                       // ...and how high its tag's middle is (the screen draws it there)
  bool readable = false;
  std::string why;  // when not readable
  // What it was asked about, when that is a thing on the table, for the screen and the evidence to
  // show: the outline (table frame, mm) of the disk it overlaps, where the table has it, or of the
  // unexplained part against it (the part's box when it has no outline); empty otherwise.
  std::vector<geom::Vec2> why_outline_mm;
  std::optional<model::CounterFace::Shows> answered;  // the referee's word on it
};

// One counter the drop asks for: who fills it and what it shows.
struct DropSlot {
  std::string crit_type;                           // a critical check's slot: the type it needs; empty otherwise
  std::string counter;                             // the counter filling it; empty: none seen
  std::optional<model::CounterFace::Shows> shows;  // read, or answered
  bool answered = false;
  std::string question;                 // while open: what the referee is asked
  std::vector<std::string> candidates;  // "not seen": the counters it may be (gone from sight)
  std::string ask_as;                   // "not seen": the counter an answer may name (a candidate, or one of its type)
  std::optional<model::CounterFaces> ask_faces;  // ...and what its faces show
};

struct CounterReadingInput {
  rules::NeededDrop need;      // counters < 0: no drop asked for, every counter that came to rest
  model::TrackFrame now;       // the table as it lies
  model::TrackFrame baseline;  // the table when the drop was asked for
  const model::DiskRegistry* registry = nullptr;
  geom::Vec2 play_area_mm{914.4, 914.4};
  std::optional<DropZone> zone;
  std::vector<CounterAnswer> answers;
  double moved_mm = 1.5;              // a counter further than this (and 3 sigma) from its old place moved
  double turned_deg = 3.0;            // ...or turned more than this
  double overlap_tolerance_mm = 1.0;  // outlines overlapping by more than this (and 2 sigma) touch
};

struct CounterReading {
  rules::NeededDrop need;
  std::vector<CounterSeen> counters;  // the counters of this drop (moved since it was asked for)
  std::vector<DropSlot> slots;        // one per counter asked for, in the drop's order
  std::vector<std::string> ignored;   // counters that moved but lie outside the drop zone
  std::vector<std::string> notes;     // unexplained things in the drop's area
  std::string problem;                // the drop cannot be read as a whole: the referee gives it

  // Every slot read or answered, and no problem: the drop is known.
  bool complete() const;
  // Nothing of the drop on the table yet (no counter moved, nothing answered).
  bool nothing_dropped() const;
  // The drop as the rules take it (when complete): hits, or a critical check's types showing.
  rules::SeenDrop drop() const;
  int hits() const;                        // slots showing HIT! so far
  std::vector<std::string> crits() const;  // a critical check's slots showing their critical so far
  // "2 HIT! of 4 counters", "bridge critical (1 of 5 counters)": what is read so far.
  std::string tally() const;
  // The first thing the referee is asked ("counter-7 leans on enterprise: what does it show?"), or
  // the problem; empty when complete.
  std::string question() const;
  // Open questions, one line each.
  std::vector<std::string> questions() const;
};

// "damage drop for tderet (4 counters)", "critical drop for tderet (5 counters, one of each type)".
std::string describe_need(const rules::NeededDrop& need);
// What a counter is labelled with on a screen or a picture: the word of the face read ("HIT!", a
// critical's type), the referee's word on it ("... (referee)"), or "? NAME" when it is asked about.
std::string counter_label(const CounterSeen& counter);

// The counters registered (kind counter), for callers that skip the reading without any.
bool has_counters(const model::DiskRegistry& registry);

CounterReading read_counters(const CounterReadingInput& in);

// The reading as a log entry's evidence (referee_log.h): the drop asked for, every counter with its
// pose, face, what it shows, readable or why not, and the slots.
nlohmann::json counter_reading_to_json(const CounterReading& reading);

}  // namespace diskref::referee
