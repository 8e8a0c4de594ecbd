// The kit made from a game file alone: what it holds (every ship with both faces, the torpedoes its
// ships launch, the range template; tag ids and sizes), what the camera planner says of it (a
// camera too far is a problem with its fix), its pages read back by the detector at their size with
// every disk named inside its cut line, and the setup's folder kept and taken up again.

#include <fstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <opencv2/imgproc.hpp>
#include "tests/setup/setup_scene.h"

#include "engine/io/input_error.h"
#include "setup/kit.h"
#include "setup/setup_state.h"
#include "vision/apriltag_detector.h"

namespace diskref::setup {
namespace {

namespace fs = std::filesystem;

fs::path game() {
  return fs::path(DISKREF_SOURCE_DIR) / "sample_videos" / "skirmish" / "game.json";
}

fs::path temp_dir(const std::string& name) {
  fs::path d = fs::temp_directory_path() / ("diskref-kit-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

TEST(Kit, HoldsEveryPieceOfTheGameWithItsTagsAsLargeAsTheyFit) {
  const Kit kit = make_kit(game(), KitOptions{});
  const model::DiskRegistry& r = kit.registry;
  // Two ships (the game's), three torpedoes for each (both carry them), the range template.
  ASSERT_EQ(r.disks().size(), 9u);
  std::set<int> ids;
  for (const model::DiskSpec& d : r.disks()) {
    for (const model::TagSpec& t : d.tags) {
      EXPECT_TRUE(ids.insert(t.id).second) << "tag " << t.id << " twice";
      EXPECT_GE(t.id, 10);
      // The largest half millimetre that fits its disk.
      EXPECT_TRUE(model::tag_fit_problem(d.shape, t).empty()) << d.name;
      model::TagSpec bigger = t;
      bigger.size_mm += 0.5;
      EXPECT_FALSE(model::tag_fit_problem(d.shape, bigger).empty()) << d.name;
    }
  }
  for (const char* ship : {"enterprise", "tderet"}) {
    const model::DiskSpec* d = r.find(ship);
    ASSERT_NE(d, nullptr);
    EXPECT_EQ(d->kind, model::DiskKind::ship);
    ASSERT_EQ(d->tags.size(), 2u) << "a ship flips: both faces";
    EXPECT_EQ(d->tags[0].size_mm, 24.5);
  }
  EXPECT_NE(r.find("enterprise")->color_rgb, r.find("tderet")->color_rgb) << "the two sides' ships differ in colour";
  for (int i = 1; i <= 6; ++i) {
    const model::DiskSpec* t = r.find("torpedo-" + std::to_string(i));
    ASSERT_NE(t, nullptr) << i;
    EXPECT_EQ(t->tags.size(), 2u) << "a torpedo flips: both faces";
    EXPECT_EQ(t->tags[0].size_mm, 9.5);
  }
  const model::DiskSpec* range = r.find("range");
  ASSERT_NE(range, nullptr);
  EXPECT_EQ(range->tags.size(), 1u);
  const geom::Rect rect = std::get<geom::Rect>(range->shape);
  EXPECT_EQ(rect.length_mm, 88.9);
  EXPECT_EQ(rect.width_mm, 25.4);
  // The table: the game's play area, 40 mm markers (no camera to size them for).
  EXPECT_EQ(kit.table.play_area_mm.x, 914.4);
  EXPECT_EQ(kit.table.corner_markers[2].size_mm, 40);
  EXPECT_NE(testing::all_text(kit.advice).find("no camera given"), std::string::npos);
}

TEST(Kit, ACameraTooFarForTheTagsIsAProblemWithItsFix) {
  KitOptions o;
  o.camera = model::PinholeCamera{1920, 1080, 70, 1800};
  const Kit kit = make_kit(game(), o);
  std::vector<Advice> problems;
  for (const Advice& a : kit.advice)
    if (a.level == Advice::Level::problem) problems.push_back(a);
  // The torpedoes' 9.5 mm tags and the template's 14 mm one.
  ASSERT_EQ(problems.size(), 2u) << testing::all_text(kit.advice);
  EXPECT_EQ(problems[1].text.rfind("range (tag 26): 14 mm tag reads at 2.13 px per cell", 0), 0u) << problems[1].text;
  EXPECT_NE(problems[0].text.find(
                "torpedo-1, torpedo-2, torpedo-3, torpedo-4, torpedo-5 and torpedo-6 (tags 14 to 25): 9.5 mm tags"),
            std::string::npos)
      << problems[0].text;
  EXPECT_NE(problems[0].fix.find("no height works for this camera"), std::string::npos) << problems[0].fix;
  EXPECT_NE(problems[0].fix.find("a 4K camera has 2160"), std::string::npos) << problems[0].fix;
  // A 4K camera 1.4 m up does it all.
  o.camera = model::PinholeCamera{3840, 2160, 70, 1400};
  for (const Advice& a : make_kit(game(), o).advice) EXPECT_NE(a.level, Advice::Level::problem) << a.text;
}

TEST(Kit, MarkersGrowForACameraThatSeesThemSmall) {
  KitOptions o;
  o.camera = model::PinholeCamera{1280, 720, 90, 2000};
  const Kit kit = make_kit(game(), o);
  const double size = kit.table.corner_markers[0].size_mm;
  EXPECT_GT(size, 40);
  // At least 1.6 x 2.5 px per cell where it is, and the next smaller step would not be.
  const model::CameraPlan plan =
      model::plan_camera(model::straight_above_play_area(*o.camera, kit.table), kit.table, nullptr);
  for (const model::TagReading& t : plan.tags) EXPECT_GE(t.px_per_cell, 4.0) << t.what;
}

TEST(Kit, BadGameFilesAreNamedWithThePlaceAndTheProblem) {
  const fs::path dir = temp_dir("bad");
  std::ifstream in(game());
  nlohmann::json g;
  in >> g;
  g["data"] = {(fs::path(DISKREF_SOURCE_DIR) / "data" / "rules").string()};
  g["terrain"] = {{{"id", "moon"}, {"kind", "planet"}}};
  std::ofstream(dir / "no-shape.json") << g.dump();
  try {
    make_kit(dir / "no-shape.json", KitOptions{});
    FAIL() << "a terrain piece without a shape";
  } catch (const io::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("no-shape.json: terrain[0]: terrain \"moon\" has no shape: give it \"shape\""),
              std::string::npos)
        << e.what();
  }
  nlohmann::json script = {{"setup", g}, {"actions", nlohmann::json::array()}};
  std::ofstream(dir / "script.json") << script.dump();
  EXPECT_THROW(make_kit(dir / "script.json", KitOptions{}), io::InputError);
  fs::remove_all(dir);
}

// The kit's pages at 150 DPI: every tag of the registry and every corner marker is read by the
// detector once, at its size; every disk is named inside its cut line on each of its faces.
TEST(Kit, ItsPagesReadBackAtTheirSizeWithEveryDiskNamed) {
  const Kit kit = make_kit(game(), KitOptions{});
  print::SheetOptions sheet;
  sheet.dpi = 150;
  std::vector<print::SheetPlacement> placed;
  const std::vector<cv::Mat> pages = kit_pages(kit, sheet, "diskref ui --setup mytable --camera 0", &placed);
  ASSERT_GE(pages.size(), 4u);
  vision::AprilTagDetector detector;
  std::map<int, int> read;
  for (std::size_t p = 1; p < pages.size(); ++p) {
    cv::Mat gray;
    cv::cvtColor(pages[p], gray, cv::COLOR_BGR2GRAY);
    for (const vision::TagDetection& d : detector.detect(gray)) {
      ++read[d.id];
      const double side_mm = cv::norm(d.corners[1] - d.corners[0]) / (150 / 25.4);
      const auto ref = kit.registry.find_tag(d.id);
      const double expected =
          ref ? kit.registry.tag(*ref).size_mm : kit.table.corner_markers[static_cast<std::size_t>(d.id)].size_mm;
      EXPECT_NEAR(side_mm, expected, 0.5) << "tag " << d.id;
    }
  }
  for (const model::DiskSpec& d : kit.registry.disks())
    for (const model::TagSpec& t : d.tags) EXPECT_EQ(read[t.id], 1) << d.name << " tag " << t.id;
  for (int m = 0; m < 4; ++m) EXPECT_EQ(read[m], 1) << "marker " << m;
  std::map<std::string, int> named;
  for (const print::SheetPlacement& p : placed)
    for (const auto& l : p.inside_labels) ++named[l.text];
  for (const model::DiskSpec& d : kit.registry.disks())
    EXPECT_GE(named[d.name], static_cast<int>(d.tags.size())) << d.name;
}

TEST(SetupState, IsKeptInItsFolderAndTakenUpAgain) {
  const fs::path dir = temp_dir("state");
  SetupState s = open_setup(dir, game());
  EXPECT_EQ(s.next_step(), Step::play_area);
  s.play_area_mm = geom::Vec2{600, 500};
  s.camera = model::PinholeCamera{1920, 1080, 70, 950};
  s.mark_done(Step::play_area, {{"play_area_mm", {600, 500}}});
  s.mark_done(Step::camera, {});
  s.mark_done(Step::kit, {{"disks", 9}});
  s.mark_done(Step::calibration, {{"rms_px", 0.1}});
  save_setup(s);
  SetupState again = open_setup(dir, std::nullopt);
  EXPECT_EQ(again.game_file, fs::absolute(game()).lexically_normal());
  EXPECT_EQ(again.play_area_mm->y, 500);
  EXPECT_EQ(again.camera->height_mm, 950);
  EXPECT_EQ(again.next_step(), Step::table);
  // Redoing the camera undoes what rests on it.
  again.undo_from(Step::camera);
  EXPECT_EQ(again.next_step(), Step::camera);
  EXPECT_TRUE(again.is_done(Step::play_area));
  EXPECT_FALSE(again.is_done(Step::calibration));
  // Another game in the same folder is refused; a damaged file is named.
  EXPECT_THROW(open_setup(dir, dir / "other.json"), io::InputError);
  std::ofstream(dir / "setup.json") << R"({"setup": 1, "game": "x.json", "steps": {"dance": {}}})";
  try {
    open_setup(dir, std::nullopt);
    FAIL();
  } catch (const io::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("setup.json: steps.dance: not a setup step"), std::string::npos) << e.what();
  }
  EXPECT_THROW(open_setup(temp_dir("empty"), std::nullopt), io::InputError);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace diskref::setup
