#include "engine/model/counter_face.h"

#include <nlohmann/json.hpp>

#include "engine/model/disk_registry.h"

namespace diskref::model {

std::string_view to_string(CounterFace::Shows shows) {
  switch (shows) {
    case CounterFace::Shows::hit:
      return "hit";
    case CounterFace::Shows::blank:
      return "blank";
    case CounterFace::Shows::critical:
      return "critical";
  }
  return "?";
}

std::optional<CounterFace::Shows> shows_from_string(std::string_view text) {
  for (auto s : {CounterFace::Shows::hit, CounterFace::Shows::blank, CounterFace::Shows::critical})
    if (to_string(s) == text) return s;
  return std::nullopt;
}

std::string describe(const CounterFace& face) {
  switch (face.shows) {
    case CounterFace::Shows::hit:
      return "HIT!";
    case CounterFace::Shows::blank:
      return "blank";
    case CounterFace::Shows::critical:
      return face.crit + " critical";
  }
  return "?";
}

CounterFace parse_counter_face(const io::JsonCursor& tag) {
  CounterFace face;
  if (!tag.has("shows"))
    tag.fail(
        "a counter's tag says what its face shows: \"shows\": \"hit\", \"blank\" or \"critical\" (with \"crit\": its "
        "type)");
  face.shows = *shows_from_string(tag.at("shows").one_of({"hit", "blank", "critical"}));
  if (face.shows == CounterFace::Shows::critical) {
    face.crit = tag.at("crit").non_empty_string();
  } else if (auto crit = tag.find("crit")) {
    crit->fail("only a face that shows \"critical\" names a critical type");
  }
  return face;
}

void write_counter_face(const CounterFace& face, nlohmann::json& tag) {
  tag["shows"] = std::string(to_string(face.shows));
  if (face.shows == CounterFace::Shows::critical) tag["crit"] = face.crit;
}

const CounterFace* counter_face(const DiskSpec& disk, Face up) {
  if (!disk.faces) return nullptr;
  return &(*disk.faces)[up];
}

std::string counter_crit_type(const DiskSpec& disk) {
  if (!disk.faces) return "";
  for (const CounterFace* f : {&disk.faces->up, &disk.faces->down})
    if (f->shows == CounterFace::Shows::critical) return f->crit;
  return "";
}

CounterFaces parse_counter_faces(const DiskSpec& disk, const io::JsonCursor& cursor) {
  const std::string who = "counter \"" + disk.name + "\"";
  auto tags = cursor.at("tags");
  if (disk.tags.size() != 2)
    tags.fail(who + " has " + std::to_string(disk.tags.size()) +
              " tag(s): a counter needs a tag on each of its two faces, so that the camera reads whichever lands up");
  const CounterFace first = parse_counter_face(tags.at(std::size_t{0}));
  const CounterFace second = parse_counter_face(tags.at(std::size_t{1}));
  if (first == second)
    tags.at(1).fail(who + ": both faces show " + describe(first) + ": a drop could not tell them apart");
  if (first.shows == CounterFace::Shows::critical && second.shows == CounterFace::Shows::critical)
    tags.at(1).fail(who + ": both faces show a critical; a counter has at most one critical face (its type)");
  CounterFaces faces;
  (disk.tags[0].face == Face::up ? faces.up : faces.down) = first;
  (disk.tags[1].face == Face::up ? faces.up : faces.down) = second;
  return faces;
}

}  // namespace diskref::model
