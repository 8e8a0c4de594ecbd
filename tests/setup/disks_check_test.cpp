// The disks step on rendered tables whose disks were made wrong on purpose: a down face glued
// turned (found from flips, with the heading offset that corrects it), a sheet printed at the wrong
// scale, a camera too far for the torpedoes' tags. Each is said with its fix; a good table is ready.

#include <cstdio>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "calibration/camera_model.h"
#include "setup/disks_check.h"
#include "tests/setup/setup_scene.h"

namespace diskref::setup {
namespace {

// Tracks the whole render with the scene's own table and registry (as the kit says it is), the
// disks made as `make` changes them.
DisksCheck check_render(const nlohmann::json& doc, const std::function<void(std::vector<model::DiskSpec>&)>& make) {
  simulator::Scenario scenario = testing::parse_scene(doc);
  const model::TableSpec table = scenario.table;
  const model::DiskRegistry registry = scenario.registry;
  std::vector<model::DiskSpec> made = registry.disks();
  make(made);
  scenario.registry = model::DiskRegistry(made);
  simulator::SessionRenderer renderer(scenario);
  DisksCheck check(table, registry, scenario.rig.camera);
  for (int f = 0; f < renderer.frame_count(); ++f) check.add_frame(renderer.frame(f), f, renderer.frame_time(f));
  return check;
}

model::TagSpec& tag(std::vector<model::DiskSpec>& disks, const std::string& name, model::Face face) {
  for (model::DiskSpec& d : disks)
    if (d.name == name)
      for (model::TagSpec& t : d.tags)
        if (t.face == face) return t;
  throw std::runtime_error(name);
}

TEST(DisksCheck, ADownFaceGluedTurnedIsFoundFromFlipsWithTheOffsetThatCorrectsIt) {
  nlohmann::json doc = testing::setup_scene_json(4.0);
  doc["events"] = {{{"t", 0.6}, {"flip", {{"disk", "enterprise"}, {"count", 2}, {"pause_s", 0.6}}}},
                   {{"t", 0.6}, {"flip", {{"disk", "defiant"}, {"count", 1}}}}};
  // Enterprise's down face as made: its tag turned 8 degrees (heading_offset 8 describes it); the
  // registry says 0. Defiant's is right.
  DisksCheck check = check_render(
      doc, [](std::vector<model::DiskSpec>& d) { tag(d, "enterprise", model::Face::down).heading_offset_deg = 8; });
  const std::string text = testing::all_text(check.advice());
  EXPECT_NE(text.find("enterprise's down face reads"), std::string::npos) << text;
  EXPECT_NE(text.find("clockwise of its up face (over 2 flips)"), std::string::npos) << text;
  EXPECT_NE(text.find("set tag 11's heading_offset_deg to"), std::string::npos) << text;
  EXPECT_NE(text.find("defiant: both faces agree to"), std::string::npos) << text;
  const auto offsets = check.suggested_offsets();
  ASSERT_EQ(offsets.count(11), 1u);
  std::printf("enterprise's down face, glued 8.0 degrees turned: measured %.2f degrees over 2 flips\n", offsets.at(11));
  EXPECT_NEAR(offsets.at(11), 8.0, 1.0);
  EXPECT_EQ(offsets.count(13), 0u);
  // Corrected, the registry describes the disk as made.
  const model::DiskRegistry corrected = with_offsets(testing::parse_scene(doc).registry, offsets);
  EXPECT_NEAR(corrected.tag(*corrected.find_tag(11)).heading_offset_deg, 8.0, 1.0);
}

TEST(DisksCheck, ASheetPrintedAtAnotherScaleIsSaidWithItsScale) {
  // Defiant's tags printed with "fit to page": 20 mm instead of the registry's 24.
  DisksCheck check = check_render(testing::setup_scene_json(0.6), [](std::vector<model::DiskSpec>& d) {
    tag(d, "defiant", model::Face::up).size_mm = 20;
  });
  EXPECT_FALSE(check.ready());
  const std::string text = testing::all_text(check.advice());
  EXPECT_NE(text.find("defiant's tag reads 20."), std::string::npos) << text;
  EXPECT_NE(text.find("the registry says 24 mm: it was printed at 8"), std::string::npos) << text;
  EXPECT_NE(text.find("print the kit again at 100 % (no \"fit to page\")"), std::string::npos) << text;
}

TEST(DisksCheck, ACameraTooFarForTheTorpedoesTagsSaysWhatWouldRead) {
  nlohmann::json doc = testing::setup_scene_json(0.6);
  doc["camera"]["pose"]["height_mm"] = 1150;  // the 9.5 mm torpedo tag: about 1.8 px per cell
  DisksCheck check = check_render(doc, [](auto&) {});
  EXPECT_FALSE(check.ready());
  const std::string text = testing::all_text(check.advice());
  // Seen now and then at 1.8 px per cell (or not at all: then it says it cannot be read by this camera).
  const bool said = text.find("torpedo-1: its tag reads at only 1.") != std::string::npos ||
                    text.find("torpedo-1 cannot be read by this camera") != std::string::npos;
  EXPECT_TRUE(said) << text;
  EXPECT_NE(text.find("bring the camera 2"), std::string::npos) << text;  // 2x % closer
}

TEST(DisksCheck, AGoodTableIsReadyEveryDiskNamed) {
  DisksCheck check = check_render(testing::setup_scene_json(0.6), [](auto&) {});
  EXPECT_TRUE(check.ready()) << testing::all_text(check.advice());
  for (const DiskSeen& d : check.disks()) {
    EXPECT_TRUE(d.seen()) << d.name;
    EXPECT_GE(d.px_per_cell, 2.5) << d.name;
  }
}

}  // namespace
}  // namespace diskref::setup
