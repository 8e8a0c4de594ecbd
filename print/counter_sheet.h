#pragma once
// Damage counters (spec §4's addition, kind "counter") as printed by `diskref tags`. A counter has
// a tag on each face, so it is printed as every two-faced disk is (tag_sheet.cpp's folding pair:
// both faces joined by a hinge as long as the counter is thick, cut and fold lines): what this
// adds is the word inside each face saying what it shows ("HIT!", the critical type) where other
// disks say "up"/"down", and whether the counters can be read by a given camera: a counter read
// wrong is a wrong drop, so a camera that cannot read them is refused, with the camera that would.

#include <optional>
#include <string>
#include <vector>

#include "engine/model/disk_registry.h"
#include "print/tag_sheet.h"

namespace diskref::print {

// What `face` of a counter shows, as printed inside it: "HIT!", the critical type's id, "blank".
// nullopt when `disk` is no counter or that face has no tag.
std::optional<std::string> counter_face_word(const model::DiskSpec& disk, model::Face face);

// The label line under a counter's piece: "up HIT! (tag 40), down bridge critical (tag 41)".
// nullopt when `disk` is no counter.
std::optional<std::string> counter_faces_line(const model::DiskSpec& disk);

// One line per counter face whose tag `camera` (straight above) sees with fewer than
// kMinPixelsPerCell pixels a cell, saying which camera height and which resolution would read it.
std::vector<std::string> counter_read_problems(const model::DiskRegistry& registry, const ViewingCamera& camera);

}  // namespace diskref::print
