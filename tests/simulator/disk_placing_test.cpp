// Disks placed a chosen margin apart (simulator/disk_placing.h), as the sample photo and the photo
// bench place them: what is measured between the placed outlines is what was asked, in any
// direction, and a disk the registry lacks is named.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "engine/geometry/distance.h"
#include "engine/geometry/range.h"
#include "engine/io/json_cursor.h"
#include "simulator/disk_placing.h"

namespace diskref::simulator {
namespace {

model::DiskRegistry ship_and_torpedo() {
  const nlohmann::json disks = {
      {"disks",
       {{{"name", "enterprise"},
         {"kind", "ship"},
         {"shape", {{"type", "flatted_circle"}, {"diameter_mm", 63.5}, {"flat_to_flat_mm", 57.2}}},
         {"tags", {{{"id", 10}, {"face", "up"}, {"size_mm", 24}, {"heading_offset_deg", 0}}}}},
        {{"name", "torpedo"},
         {"kind", "torpedo"},
         {"shape", {{"type", "circle"}, {"diameter_mm", 25.4}}},
         {"tags", {{{"id", 40}, {"face", "up"}, {"size_mm", 9.5}, {"heading_offset_deg", 0}}}}}}}};
  return model::parse_disk_registry(io::JsonCursor(disks, "disks.json"));
}

TEST(DiskPlacing, TheRangeMarginAskedIsTheOneMeasuredInEveryDirection) {
  const model::DiskRegistry registry = ship_and_torpedo();
  const geom::Rect kTemplate{88.9, 25.4};
  const PlacedDisk enterprise{"enterprise", 300, 200, 35};
  for (const double direction : {0.0, 37.0, 90.0, 200.0, 315.0}) {
    for (const double margin : {-4.0, 0.0, 2.5}) {
      PlacedDisk torpedo{"torpedo", 0, 0, 0};
      place_at_range_margin(registry, enterprise, torpedo, direction, margin, kTemplate);
      EXPECT_NEAR(geom::range_check(placed(registry, enterprise), placed(registry, torpedo), kTemplate).margin_mm,
                  margin, 1e-6)
          << direction << " deg";
    }
  }
}

TEST(DiskPlacing, TheSeparationAskedIsTheOneMeasuredOverlapsIncluded) {
  const model::DiskRegistry registry = ship_and_torpedo();
  const PlacedDisk enterprise{"enterprise", 300, 200, 35};
  for (const double direction : {10.0, 135.0, 270.0}) {
    for (const double separation : {-3.0, 0.5, 20.0}) {
      PlacedDisk torpedo{"torpedo", 0, 0, 0};
      place_at_separation(registry, enterprise, torpedo, direction, separation);
      EXPECT_NEAR(geom::signed_distance(placed(registry, enterprise), placed(registry, torpedo)).distance, separation,
                  1e-6)
          << direction << " deg";
    }
  }
}

TEST(DiskPlacing, ADiskTheRegistryLacksIsNamed) {
  try {
    placed(ship_and_torpedo(), PlacedDisk{"bortas", 0, 0, 0});
    FAIL() << "a disk not in the registry was placed";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("bortas"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace diskref::simulator
