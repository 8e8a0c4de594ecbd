// diskref check's scene loader and answers (spec §6): the example's numbers, and every kind of
// bad scene refused with the file, the JSON path and the problem.

#include "engine/model/scene_check.h"

#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "engine/io/input_error.h"

namespace diskref::model {
namespace {

const std::string kDisks = R"(
  "disks": [
    {"name": "enterprise", "kind": "ship",
     "shape": {"type": "flatted_circle", "diameter_mm": 63.5, "flat_to_flat_mm": 57.2},
     "x": 100, "y": 200, "heading": 90},
    {"name": "tderet", "kind": "ship", "shape": {"type": "circle", "diameter_mm": 63.5},
     "x": 100, "y": 330, "heading": 270},
    {"name": "t1", "kind": "torpedo", "shape": {"type": "circle", "diameter_mm": 25.4},
     "x": 150, "y": 257.2, "heading": 0},
    {"name": "range", "kind": "template", "shape": {"type": "rect", "length_mm": 88.9, "width_mm": 25.4},
     "x": 100, "y": 264, "heading": 90}
  ])";

Scene scene_from(const std::string& text) {
  nlohmann::json doc = io::parse_json_text(text, "scene.json");
  return parse_scene(io::JsonCursor(doc, "scene.json"));
}

nlohmann::ordered_json answers_for(const std::string& questions) {
  return answer_scene(scene_from("{" + kDisks + R"(, "questions": [)" + questions + "]}"));
}

TEST(SceneCheck, SpecExampleToTheHundredth) {
  // The spec's scene, verbatim, and its answers, verbatim.
  Scene scene = scene_from(R"({
  "play_area_mm": [914.4, 914.4],
  "disks": [
    {"name": "enterprise", "kind": "ship",
     "shape": {"type": "flatted_circle", "diameter_mm": 63.5, "flat_to_flat_mm": 57.2},
     "x": 100, "y": 200, "heading": 90},
    {"name": "tderet", "kind": "ship", "shape": {"type": "circle", "diameter_mm": 63.5},
     "x": 100, "y": 330, "heading": 270}
  ],
  "questions": [
    {"id": "q1", "range":   {"from": "enterprise", "to": "tderet",
                             "template": {"length_mm": 88.9, "width_mm": 25.4}}},
    {"id": "q2", "overlap": {"a": "enterprise", "b": "tderet"}},
    {"id": "q3", "move":    {"disk": "enterprise", "flips": 3}}
  ]})");
  nlohmann::ordered_json expected = nlohmann::ordered_json::parse(R"({"answers": [
  {"id": "q1", "in_range": true, "gap_mm": 69.65, "reach_mm": 92.46, "margin_mm": 22.81},
  {"id": "q2", "overlap": false, "separation_mm": 69.65},
  {"id": "q3", "landings": [{"x": 100, "y": 257.2, "heading": 90},
                            {"x": 100, "y": 314.4, "heading": 90},
                            {"x": 100, "y": 371.6, "heading": 90}],
   "torpedo_contacts": [], "end_overlaps": ["tderet"], "leaves_play_area": false}
]})");
  nlohmann::ordered_json got = answer_scene(scene);
  ASSERT_EQ(got["answers"].size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    // Every key of the spec's answer is there with the spec's value (extensions are extra keys),
    // in the spec's order.
    const auto& want = expected["answers"][i];
    std::vector<std::string> got_keys;
    for (const auto& [key, value] : got["answers"][i].items()) got_keys.push_back(key);
    std::size_t position = 0;
    for (const auto& [key, value] : want.items()) {
      ASSERT_TRUE(got["answers"][i].contains(key)) << key;
      EXPECT_EQ(got["answers"][i][key], value) << key;
      while (position < got_keys.size() && got_keys[position] != key) ++position;
      EXPECT_LT(position, got_keys.size()) << key << " out of the spec's order";
    }
  }
  // Printed as the spec prints it: integers without ".0", one answer per line.
  std::string text = format_answers(got);
  EXPECT_NE(text.find(R"({"id": "q1", "in_range": true, "gap_mm": 69.65, "reach_mm": 92.46, "margin_mm": 22.81)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find(R"({"x": 100, "y": 257.2, "heading": 90})"), std::string::npos) << text;
}

TEST(SceneCheck, TorpedoContactsAndTemplatesInMoves) {
  // enterprise flips along +y; landing 1 (100, 257.2) is 50 mm from the torpedo at (150, 257.2):
  // radii 31.75 + 12.7 = 44.45, so 5.55 mm clear. Heading 0 instead: landing 1 at (157.2, 200).
  auto a = answers_for(R"({"id": "m", "move": {"disk": "enterprise", "flips": 1}})")["answers"][0];
  EXPECT_TRUE(a["torpedo_contacts"].empty());
  EXPECT_EQ(a["nearest_torpedo"]["separation_mm"], 5.55);
  // The template lies across the path but is not an obstacle.
  EXPECT_TRUE(a["end_overlaps"].empty());
  // The torpedo turned to 180 lands at (124.6, 257.2), its left edge at 111.9, inside the template
  // (x <= 112.7) but clear of the ships: no end overlap, and the template is not even listed.
  auto b = answers_for(R"({"id": "m", "move": {"disk": "t1", "flips": 1, "heading": 180}})")["answers"][0];
  EXPECT_EQ(b["landings"][0]["x"], 124.6);
  EXPECT_EQ(b["landings"][0]["heading"], 180);
  EXPECT_TRUE(b["end_overlaps"].empty());
  EXPECT_EQ(b["end_separations"].size(), 2u);
  for (const auto& e : b["end_separations"]) EXPECT_NE(e["disk"], "range");
}

TEST(SceneCheck, PlacedTemplateQuestion) {
  // The template from y = 219.55 to 308.45 along x = 100: 9.05 mm into enterprise's flat
  // (y <= 228.6) and 10.2 mm into tderet (y >= 298.25).
  auto a = answers_for(
      R"({"id": "t", "template_check": {"template": "range", "from": "enterprise", "to": "tderet"}})")["answers"][0];
  EXPECT_EQ(a["overlaps_both"], true);
  EXPECT_EQ(a["separation_from_mm"], -9.05);
  EXPECT_EQ(a["separation_to_mm"], -10.2);
  EXPECT_EQ(a["margin_mm"], 9.05);
}

struct BadScene {
  const char* name;
  std::string text;
  std::string path;
  std::string problem_part;
};

std::string scene_with(const std::string& disks, const std::string& questions) {
  return R"({"disks": [)" + disks + R"(], "questions": [)" + questions + "]}";
}
const std::string kShip =
    R"({"name": "a", "kind": "ship", "shape": {"type": "circle", "diameter_mm": 60}, "x": 0, "y": 0, "heading": 0})";
const std::string kShipB =
    R"({"name": "b", "kind": "ship", "shape": {"type": "circle", "diameter_mm": 60}, "x": 90, "y": 0, "heading": 0})";

TEST(SceneCheck, RefusesBadScenesNamingPathAndProblem) {
  const BadScene cases[] = {
      // JSON has no NaN: a NaN in the file is a JSON syntax error, reported with line and column.
      {"NaN",
       scene_with(
           R"({"name": "a", "kind": "ship", "shape": {"type": "circle", "diameter_mm": 60}, "x": NaN, "y": 0, "heading": 0})",
           ""),
       "", "not valid JSON"},
      {"string for a number",
       scene_with(
           R"({"name": "a", "kind": "ship", "shape": {"type": "circle", "diameter_mm": "60"}, "x": 0, "y": 0, "heading": 0})",
           ""),
       "disks[0].shape.diameter_mm", "number"},
      {"negative size",
       scene_with(
           R"({"name": "a", "kind": "ship", "shape": {"type": "circle", "diameter_mm": -60}, "x": 0, "y": 0, "heading": 0})",
           ""),
       "disks[0].shape.diameter_mm", "between 0.1 and 5000 mm"},
      {"flat to flat too big",
       scene_with(
           R"({"name": "a", "kind": "ship", "shape": {"type": "flatted_circle", "diameter_mm": 60, "flat_to_flat_mm": 61}, "x": 0, "y": 0, "heading": 0})",
           ""),
       "disks[0].shape.flat_to_flat_mm", "larger than diameter_mm"},
      {"unknown shape",
       scene_with(R"({"name": "a", "kind": "ship", "shape": {"type": "hexagon"}, "x": 0, "y": 0, "heading": 0})", ""),
       "disks[0].shape.type", "hexagon"},
      {"unknown kind",
       scene_with(
           R"({"name": "a", "kind": "starbase", "shape": {"type": "circle", "diameter_mm": 60}, "x": 0, "y": 0, "heading": 0})",
           ""),
       "disks[0].kind", "starbase"},
      {"duplicate name", scene_with(kShip + "," + kShip, ""), "disks[1].name", "duplicate disk name \"a\""},
      {"unknown disk member",
       scene_with(
           R"({"name": "a", "kind": "ship", "colour": "red", "shape": {"type": "circle", "diameter_mm": 60}, "x": 0, "y": 0, "heading": 0})",
           ""),
       "disks[0]", "unknown member \"colour\""},
      {"missing heading",
       scene_with(R"({"name": "a", "kind": "ship", "shape": {"type": "circle", "diameter_mm": 60}, "x": 0, "y": 0})",
                  ""),
       "disks[0]", "heading"},
      {"unknown disk name", scene_with(kShip + "," + kShipB, R"({"id": "q", "overlap": {"a": "a", "b": "c"}})"),
       "questions[0].overlap.b", "unknown disk \"c\""},
      {"same disk twice", scene_with(kShip + "," + kShipB, R"({"id": "q", "overlap": {"a": "a", "b": "a"}})"),
       "questions[0].overlap.b", "different disk"},
      {"negative flips", scene_with(kShip, R"({"id": "q", "move": {"disk": "a", "flips": -1}})"),
       "questions[0].move.flips", "between 0 and"},
      {"fractional flips", scene_with(kShip, R"({"id": "q", "move": {"disk": "a", "flips": 2.5}})"),
       "questions[0].move.flips", "integer"},
      {"unknown question type", scene_with(kShip, R"({"id": "q", "distance": {"a": "a", "b": "a"}})"),
       "questions[0].distance", "unknown question type \"distance\""},
      {"two question types",
       scene_with(kShip + "," + kShipB,
                  R"({"id": "q", "overlap": {"a": "a", "b": "b"}, "move": {"disk": "a", "flips": 1}})"),
       "questions[0].overlap", "both"},
      {"no question type", scene_with(kShip, R"({"id": "q"})"), "questions[0]", "needs one of"},
      {"missing id", scene_with(kShip, R"({"move": {"disk": "a", "flips": 1}})"), "questions[0]", "id"},
      {"duplicate id",
       scene_with(kShip,
                  R"({"id": "q", "move": {"disk": "a", "flips": 1}}, {"id": "q", "move": {"disk": "a", "flips": 2}})"),
       "questions[1].id", "duplicate question id"},
      {"misspelt template member",
       scene_with(
           kShip + "," + kShipB,
           R"({"id": "q", "range": {"from": "a", "to": "b", "template": {"length_mm": 88.9, "widht_mm": 25.4}}})"),
       "questions[0].range.template", "unknown member \"widht_mm\""},
      {"zero template width",
       scene_with(kShip + "," + kShipB,
                  R"({"id": "q", "range": {"from": "a", "to": "b", "template": {"length_mm": 88.9, "width_mm": 0}}})"),
       "questions[0].range.template.width_mm", "between 0.1 and 5000 mm"},
      {"template check on a ship",
       scene_with(kShip + "," + kShipB, R"({"id": "q", "template_check": {"template": "a", "from": "a", "to": "b"}})"),
       "questions[0].template_check.template", "kind \"template\""},
      {"bad play area", R"({"play_area_mm": [914.4, -1], "disks": [], "questions": []})", "play_area_mm[1]",
       "between 10 and 20000 mm"},
      {"unknown top-level member", R"({"disks": [], "questions": [], "extra": 1})", "", "unknown member \"extra\""},
  };
  for (const BadScene& c : cases) {
    try {
      scene_from(c.text);
      ADD_FAILURE() << c.name << ": accepted";
    } catch (const io::InputError& e) {
      EXPECT_EQ(e.file(), "scene.json") << c.name;
      EXPECT_EQ(e.path(), c.path) << c.name << ": " << e.what();
      EXPECT_NE(e.problem().find(c.problem_part), std::string::npos) << c.name << ": " << e.what();
    } catch (const std::exception& e) {
      ADD_FAILURE() << c.name << ": not an InputError: " << e.what();
    }
  }
}

}  // namespace
}  // namespace diskref::model
