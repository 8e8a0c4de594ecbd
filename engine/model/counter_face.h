#pragma once
// What a damage counter's face shows (diskref's addition to spec §4: disks of kind "counter").
//
// Every random drop of the game (damage, the critical check, the collision check, initiative,
// boarding) is made by dropping counters on the table. A counter carries a tag on each face, and
// each tag says what its face shows:
//   "shows": "hit"                        the "HIT!" face (the front of a Red Alert counter)
//   "shows": "blank"                      a face that scores nothing (a game whose counters have one)
//   "shows": "critical", "crit": TYPE     a critical type (the back of a Red Alert counter: "The back of
//                                         every damage counter describes a type of critical result")
// So that the camera can always tell which face is up, a counter has exactly two faces, both
// tagged, showing different things, and at most one of them a critical. Whether TYPE is one of the
// game's critical types is checked where the registry meets the game data (the referee's game
// file), naming the registry's file and place.

#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

#include "engine/io/json_cursor.h"
#include "engine/model/disk_kind.h"

namespace diskref::model {

struct DiskSpec;

struct CounterFace {
  enum class Shows { hit, blank, critical };
  Shows shows = Shows::hit;
  std::string crit;  // Shows::critical: the critical type's id (the game data's crit_types)

  bool operator==(const CounterFace&) const = default;
};

// Both faces of a counter.
struct CounterFaces {
  CounterFace up, down;
  const CounterFace& operator[](Face face) const { return face == Face::up ? up : down; }
};

std::string_view to_string(CounterFace::Shows shows);
std::optional<CounterFace::Shows> shows_from_string(std::string_view text);
// "HIT!", "blank", "bridge critical": for messages and the screen.
std::string describe(const CounterFace& face);

// A tag's "shows" and "crit" members (the cursor is the tag object). Throws InputError at the
// member that is wrong: an unknown "shows", a critical without "crit", a "crit" on another face.
CounterFace parse_counter_face(const io::JsonCursor& tag);
// Writes "shows" (and "crit") into a tag's JSON object.
void write_counter_face(const CounterFace& face, nlohmann::json& tag);

// What the face `up` of a counter shows; null when `disk` is no counter or that face has no tag.
const CounterFace* counter_face(const DiskSpec& disk, Face up);
// The critical type a counter's critical face shows (its "type" for a critical check); empty when
// it has none.
std::string counter_crit_type(const DiskSpec& disk);

// A counter's faces from its tags (the cursor is the disk's object, its tags already read into
// `disk`): exactly two tags on its two faces, each saying what it shows, different from each
// other, at most one critical. Throws InputError naming the place.
CounterFaces parse_counter_faces(const DiskSpec& disk, const io::JsonCursor& cursor);

}  // namespace diskref::model
