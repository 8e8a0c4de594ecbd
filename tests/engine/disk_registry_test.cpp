#include "engine/model/disk_registry.h"

#include <cmath>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "engine/io/input_error.h"

namespace diskref::model {
namespace {

using ::testing::HasSubstr;

const char* kDisksSpecExample = R"({
  "disks": [
    {"name": "enterprise", "kind": "ship", "thickness_mm": 2.0,
     "shape": {"type": "flatted_circle", "diameter_mm": 63.5, "flat_to_flat_mm": 57.2},
     "tags": [{"id": 10, "face": "up",   "size_mm": 24, "heading_offset_deg": 0},
              {"id": 11, "face": "down", "size_mm": 24, "heading_offset_deg": 0}]},
    {"name": "torpedo-1", "kind": "torpedo",
     "shape": {"type": "circle", "diameter_mm": 25.4},
     "tags": [{"id": 40, "face": "up", "size_mm": 9.5, "heading_offset_deg": 0}]},
    {"name": "range", "kind": "template",
     "shape": {"type": "rect", "length_mm": 88.9, "width_mm": 25.4},
     "tags": [{"id": 60, "face": "up", "size_mm": 12, "heading_offset_deg": 0}]}
  ]
})";

DiskRegistry parse(const std::string& text) {
  auto doc = nlohmann::json::parse(text);
  return parse_disk_registry(io::JsonCursor(doc, "disks.json"));
}

std::string registry_error_of(const std::string& text) {
  try {
    parse(text);
  } catch (const io::InputError& e) {
    return e.what();
  }
  return "(no error)";
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return text.replace(at, from.size(), to);
}

TEST(DiskRegistry, ParsesTheSpecExample) {
  DiskRegistry r = parse(kDisksSpecExample);
  ASSERT_EQ(r.disks().size(), 3u);
  const DiskSpec* e = r.find("enterprise");
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->kind, DiskKind::ship);
  auto f = std::get<geom::FlattedCircle>(e->shape);
  EXPECT_DOUBLE_EQ(f.flat_to_flat_mm, 57.2);
  EXPECT_DOUBLE_EQ(r.find("torpedo-1")->thickness_mm, 2.0) << "thickness defaults to 2 mm";
  auto ref = r.find_tag(11);
  ASSERT_TRUE(ref.has_value());
  EXPECT_EQ(r.disks()[ref->disk_index].name, "enterprise");
  EXPECT_EQ(r.tag(*ref).face, Face::down);
  EXPECT_FALSE(r.find_tag(12).has_value());
  EXPECT_EQ(r.find("range")->kind, DiskKind::template_);
}

TEST(DiskRegistry, RoundTripsThroughJson) {
  DiskRegistry r = parse(kDisksSpecExample);
  auto again = parse(disk_registry_to_json(r).dump());
  EXPECT_EQ(disk_registry_to_json(again), disk_registry_to_json(r));
}

TEST(DiskRegistry, RefusesDuplicatesAndReservedIds) {
  EXPECT_THAT(registry_error_of(replaced(kDisksSpecExample, "\"torpedo-1\"", "\"enterprise\"")),
              HasSubstr("disks.json: disks[1].name: disk name \"enterprise\" is used twice (first at disks[0].name)"));
  EXPECT_THAT(registry_error_of(replaced(kDisksSpecExample, "\"id\": 40", "\"id\": 11")),
              HasSubstr("disks[1].tags[0].id: tag id 11 is used twice (first at disks[0].tags[1].id)"));
  EXPECT_THAT(registry_error_of(replaced(kDisksSpecExample, "\"id\": 60", "\"id\": 2")),
              HasSubstr("disks[2].tags[0].id: tag ids 0, 1, 2, 3 are the corner markers"));
  EXPECT_THAT(registry_error_of(replaced(kDisksSpecExample, "\"face\": \"down\"", "\"face\": \"up\"")),
              HasSubstr("disks[0].tags[1]: disk \"enterprise\" already has a tag on this face"));
}

TEST(DiskRegistry, RefusesBadShapes) {
  EXPECT_THAT(registry_error_of(replaced(kDisksSpecExample, "\"flat_to_flat_mm\": 57.2", "\"flat_to_flat_mm\": 70")),
              HasSubstr("disks[0].shape.flat_to_flat_mm: flat_to_flat_mm (70.000000) must not be larger than"));
  EXPECT_THAT(registry_error_of(replaced(kDisksSpecExample, "\"diameter_mm\": 25.4", "\"diameter_mm\": -25.4")),
              HasSubstr("disks[1].shape.diameter_mm: must be between 0.1 and 5000 mm"));
  EXPECT_THAT(registry_error_of(replaced(kDisksSpecExample, "\"type\": \"circle\"", "\"type\": \"hexagon\"")),
              HasSubstr("disks[1].shape.type: \"hexagon\" is not one of: circle, flatted_circle, rect"));
  EXPECT_THAT(registry_error_of(replaced(kDisksSpecExample, "\"kind\": \"torpedo\"", "\"kind\": \"starbase\"")),
              HasSubstr("disks[1].kind: \"starbase\" is not one of"));
}

TEST(DiskRegistry, TagMustFitOnItsDisk) {
  // Spec §2: a 63.5 mm disk takes at most a 24.9 mm tag.
  geom::Shape disk = geom::Circle{63.5};
  EXPECT_EQ(tag_fit_problem(disk, TagSpec{10, Face::up, 24.9, 0}), "");
  EXPECT_NE(tag_fit_problem(disk, TagSpec{10, Face::up, 25.0, 0}), "");
  // On a flatted disk the flats bind when the tag is turned so that its side faces a flat.
  geom::Shape flatted = geom::FlattedCircle{63.5, 40.0};
  EXPECT_NE(tag_fit_problem(flatted, TagSpec{10, Face::up, 24, 0}), "");
  EXPECT_EQ(tag_fit_problem(flatted, TagSpec{10, Face::up, 22, 0}), "");
  EXPECT_THAT(registry_error_of(replaced(kDisksSpecExample, "\"size_mm\": 9.5", "\"size_mm\": 20")),
              HasSubstr("disks[1].tags[0].size_mm: disk \"torpedo-1\": printed tag (36.0 mm square"));
  // ...and says how large a tag may be: 25.4 / (1.8 sqrt 2) = 9.98 mm on a 25.4 mm torpedo.
  EXPECT_THAT(registry_error_of(replaced(kDisksSpecExample, "\"size_mm\": 9.5", "\"size_mm\": 20")),
              HasSubstr("the largest that fits is 9.9 mm"));
  EXPECT_NEAR(largest_fitting_tag_mm(geom::Circle{25.4}, TagSpec{10, Face::up, 1, 0}), 25.4 / (1.8 * std::sqrt(2.0)),
              0.01);
}

TEST(DiskRegistry, ColourExtension) {
  DiskRegistry r =
      parse(replaced(kDisksSpecExample, "\"kind\": \"torpedo\",", "\"kind\": \"torpedo\", \"color\": \"#ff8800\","));
  EXPECT_EQ(r.find("torpedo-1")->color_rgb, 0xff8800u);
  EXPECT_THAT(registry_error_of(
                  replaced(kDisksSpecExample, "\"kind\": \"torpedo\",", "\"kind\": \"torpedo\", \"color\": \"red\",")),
              HasSubstr("disks[1].color: must be a colour written \"#rrggbb\""));
  // sscanf("%6x") would have read 0x12345 and stopped at the g.
  EXPECT_THAT(registry_error_of(replaced(kDisksSpecExample, "\"kind\": \"torpedo\",",
                                         "\"kind\": \"torpedo\", \"color\": \"#12345g\",")),
              HasSubstr("six hexadecimal digits (got \"#12345g\")"));
  EXPECT_EQ(
      parse(replaced(kDisksSpecExample, "\"kind\": \"torpedo\",", "\"kind\": \"torpedo\", \"color\": \"#A0b1C2\","))
          .find("torpedo-1")
          ->color_rgb,
      0xa0b1c2u);
}

TEST(DiskRegistry, RefusesImpossibleSizes) {
  // A disk 2 km thick would be silently never tracked (its tag far above the table).
  EXPECT_THAT(registry_error_of(replaced(kDisksSpecExample, "\"thickness_mm\": 2.0", "\"thickness_mm\": 2e6")),
              HasSubstr("disks[0].thickness_mm: must be between 0 and 200 mm, what a disk's thickness"));
  EXPECT_THAT(registry_error_of(replaced(kDisksSpecExample, "\"diameter_mm\": 25.4", "\"diameter_mm\": 1e307")),
              HasSubstr("disks[1].shape.diameter_mm: must be between 0.1 and 5000 mm"));
  EXPECT_THAT(registry_error_of(replaced(kDisksSpecExample, "\"size_mm\": 9.5, \"heading_offset_deg\": 0",
                                         "\"size_mm\": 9.5, \"heading_offset_deg\": 1e300")),
              HasSubstr("disks[1].tags[0].heading_offset_deg: must be between -36000 and 36000 degrees"));
}

// Damage counters (diskref's addition to spec §4): each face's tag says what it shows.
const char* kCounters = R"({
  "disks": [
    {"name": "counter-bridge", "kind": "counter",
     "shape": {"type": "circle", "diameter_mm": 38.1},
     "tags": [{"id": 100, "face": "up", "size_mm": 14.5, "shows": "hit"},
              {"id": 101, "face": "down", "size_mm": 14.5, "shows": "critical", "crit": "bridge"}]}
  ]
})";

TEST(DiskRegistryCounters, EachFaceSaysWhatItShows) {
  DiskRegistry r = parse(kCounters);
  const DiskSpec* c = r.find("counter-bridge");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->kind, DiskKind::counter);
  ASSERT_NE(counter_face(*c, Face::up), nullptr);
  EXPECT_EQ(counter_face(*c, Face::up)->shows, CounterFace::Shows::hit);
  EXPECT_EQ(describe(*counter_face(*c, Face::up)), "HIT!");
  EXPECT_EQ(counter_face(*c, Face::down)->shows, CounterFace::Shows::critical);
  EXPECT_EQ(describe(*counter_face(*c, Face::down)), "bridge critical");
  EXPECT_EQ(counter_crit_type(*c), "bridge");
  // Written back and read again, the same.
  DiskRegistry again = parse(disk_registry_to_json(r).dump());
  EXPECT_EQ(*counter_face(*again.find("counter-bridge"), Face::down), *counter_face(*c, Face::down));
  // A ship has no counter faces.
  EXPECT_EQ(counter_face(*parse(kDisksSpecExample).find("enterprise"), Face::up), nullptr);
}

TEST(DiskRegistryCounters, ACounterThatCannotBeReadBothWaysIsRefusedWithItsPlace) {
  EXPECT_THAT(registry_error_of(replaced(kCounters, ", \"shows\": \"hit\"", "")),
              HasSubstr("disks[0].tags[0]: a counter's tag says what its face shows"));
  EXPECT_THAT(registry_error_of(replaced(kCounters, "\"shows\": \"hit\"", "\"shows\": \"miss\"")),
              HasSubstr("disks[0].tags[0].shows: \"miss\" is not one of"));
  EXPECT_THAT(registry_error_of(replaced(kCounters, ", \"crit\": \"bridge\"", "")), HasSubstr("disks[0].tags[1]"));
  EXPECT_THAT(registry_error_of(replaced(kCounters, "\"shows\": \"hit\"", "\"shows\": \"hit\", \"crit\": \"bridge\"")),
              HasSubstr("disks[0].tags[0].crit: only a face that shows \"critical\" names a critical type"));
  // One face only: the camera could not read the other way up.
  EXPECT_THAT(
      registry_error_of(replaced(kCounters, R"(,
              {"id": 101, "face": "down", "size_mm": 14.5, "shows": "critical", "crit": "bridge"})",
                                 "")),
      HasSubstr(
          "disks[0].tags: counter \"counter-bridge\" has 1 tag(s): a counter needs a tag on each of its two faces"));
  EXPECT_THAT(
      registry_error_of(replaced(kCounters, "\"shows\": \"critical\", \"crit\": \"bridge\"", "\"shows\": \"hit\"")),
      HasSubstr("disks[0].tags[1]: counter \"counter-bridge\": both faces show HIT!"));
  EXPECT_THAT(
      registry_error_of(replaced(kCounters, "\"shows\": \"hit\"", "\"shows\": \"critical\", \"crit\": \"helm\"")),
      HasSubstr("at most one critical face"));
  // Only counters say what a face shows.
  EXPECT_THAT(
      registry_error_of(replaced(kDisksSpecExample, "\"size_mm\": 9.5,", "\"size_mm\": 9.5, \"shows\": \"hit\",")),
      HasSubstr("disks[1].tags[0].shows: only a counter's faces say what they show (disk \"torpedo-1\" is a torpedo)"));
  // Its tag must fit it, as every disk's.
  EXPECT_THAT(registry_error_of(replaced(kCounters, "\"id\": 100, \"face\": \"up\", \"size_mm\": 14.5",
                                         "\"id\": 100, \"face\": \"up\", \"size_mm\": 16")),
              HasSubstr("the largest that fits is 14.9 mm"));
}

}  // namespace
}  // namespace diskref::model
