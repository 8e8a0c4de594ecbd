// A dispute settled from one rendered phone photo (photo/photo_ruling.h): the disks placed, the
// questions answered with the margins the true scene has (within their sigma), the unseen named,
// bad questions and photos without tags refused.
#include "photo/photo_ruling.h"

#include <cmath>
#include <filesystem>

#include <gtest/gtest.h>
#include <opencv2/imgcodecs.hpp>

#include "engine/geometry/distance.h"
#include "engine/geometry/range.h"
#include "engine/io/input_error.h"
#include "tests/photo/rendered_photo.h"

namespace diskref::photo {
namespace {

model::DiskRegistry test_registry() {
  const auto disk = [](const char* name, const char* kind, double diameter, int id, double tag, double thickness) {
    return nlohmann::json{{"name", name},
                          {"kind", kind},
                          {"thickness_mm", thickness},
                          {"shape", {{"type", "circle"}, {"diameter_mm", diameter}}},
                          {"tags", {{{"id", id}, {"face", "up"}, {"size_mm", tag}}}}};
  };
  const nlohmann::json doc{{"disks",
                            {disk("enterprise", "ship", 63.5, 10, 24, 2), disk("tderet", "ship", 63.5, 11, 24, 2),
                             disk("torpedo-1", "torpedo", 25.4, 40, 9.5, 1), disk("klingon", "ship", 63.5, 12, 24, 2)}}};
  return model::parse_disk_registry(io::JsonCursor(doc, "disks.json"));
}

// enterprise faces tderet 150 mm away (range margin 92.46 - 86.5 = 5.96 mm); the torpedo lies
// beside enterprise; klingon is not on the table.
const std::vector<RenderedDisk> kTable{{"enterprise", 0, 0, 90, 63.5, 24, 2, 10},
                                       {"tderet", 0, 150, 270, 63.5, 24, 2, 11},
                                       {"torpedo-1", 55, 30, 10, 25.4, 9.5, 1, 40}};

const nlohmann::json kQuestions = nlohmann::json::parse(R"([
  {"id": "q1", "range": {"from": "enterprise", "to": "tderet", "template": {"length_mm": 88.9, "width_mm": 25.4}}},
  {"id": "q2", "overlap": {"a": "enterprise", "b": "torpedo-1"}},
  {"id": "q3", "move": {"disk": "enterprise", "flips": 2}},
  {"id": "q4", "range": {"from": "enterprise", "to": "klingon", "template": {"length_mm": 88.9, "width_mm": 25.4}}}
])");

geom::PlacedShape truth(const RenderedDisk& d) {
  return {geom::Circle{d.diameter_mm}, geom::Pose::from_degrees(d.x, d.y, d.heading_deg)};
}

Photo photo_of(const PhotoCamera& camera, bool with_focal) {
  Photo photo;
  photo.image = render_photo(kTable, camera);
  photo.source = "table.jpg";
  if (with_focal) photo.exif.focal_length_35mm = camera.focal_35mm;
  return photo;
}

TEST(RuleOnPhoto, AnswersAsTheTrueSceneDoesWithinSigma) {
  const model::DiskRegistry registry = test_registry();
  const double true_range = geom::range_check(truth(kTable[0]), truth(kTable[1]), geom::Rect{88.9, 25.4}, 1).margin_mm;
  const double true_separation = geom::signed_distance(truth(kTable[0]), truth(kTable[2])).distance;
  for (double tilt : {25.0, 45.0}) {
    for (bool with_focal : {true, false}) {
      PhotoCamera camera;
      camera.tilt_deg = tilt;
      camera.azimuth_deg = 200;
      camera.look_at = {10, 60};
      SCOPED_TRACE(::testing::Message() << "tilt " << tilt << (with_focal ? ", EXIF focal" : ", focal fitted"));
      const PhotoRuling ruling = rule_on_photo(photo_of(camera, with_focal), registry, kQuestions);
      const auto& a = ruling.answer;
      ASSERT_EQ(a["disks"].size(), 3u) << a.dump(1);
      EXPECT_EQ(a["unseen"], nlohmann::ordered_json::array({"klingon"}));
      EXPECT_EQ(a["photo"]["camera"]["focal_from"], with_focal ? "exif" : "fitted");
      EXPECT_NEAR(a["photo"]["camera"]["tilt_deg"].get<double>(), tilt, 2);
      const auto& answers = a["answers"];
      ASSERT_EQ(answers.size(), 4u);
      const double range_sigma = answers[0]["sigma_mm"].get<double>();
      EXPECT_GT(range_sigma, 0);
      EXPECT_NEAR(answers[0]["margin_mm"].get<double>(), true_range, 3 * range_sigma + 0.01) << answers[0].dump();
      EXPECT_EQ(answers[0]["call"], "yes");
      const double separation_sigma = answers[1]["sigma_mm"].get<double>();
      EXPECT_NEAR(answers[1]["separation_mm"].get<double>(), true_separation, 3 * separation_sigma + 0.01) << answers[1].dump();
      EXPECT_EQ(answers[2]["end_overlaps"], nlohmann::ordered_json::array({"tderet"})) << answers[2].dump();
      EXPECT_EQ(answers[2]["call"], "yes");
      EXPECT_FALSE(answers[2].contains("leaves_play_area"));
      EXPECT_EQ(answers[3]["call"], "cannot tell");
      EXPECT_EQ(answers[3]["unseen"], nlohmann::ordered_json::array({"klingon"}));
      EXPECT_EQ(ruling.annotated.size(), camera.size);
      EXPECT_EQ(ruling.exit_code, 0);
      if (tilt == 45.0 && !with_focal) {
        cv::imwrite((std::filesystem::path(DISKREF_BINARY_DIR) / "photo_ruling_annotated.png").string(), ruling.annotated);
      }
    }
  }
}

TEST(RuleOnPhoto, SaysWhyWhenTheTagsAreTooSmallForThePrecision) {
  PhotoCamera camera;
  camera.size = {800, 600};
  camera.distance_mm = 700;
  camera.tilt_deg = 30;
  PhotoOptions options;
  options.precision_mm = 0.05;
  const PhotoRuling ruling = rule_on_photo(photo_of(camera, true), test_registry(), kQuestions, options);
  bool said = false;
  for (const auto& note : ruling.answer["notes"]) {
    const std::string text = note.get<std::string>();
    if (text.rfind("q1: the tags are", 0) == 0 && text.find("hold the phone closer") != std::string::npos) said = true;
  }
  EXPECT_TRUE(said) << ruling.answer["notes"].dump(1);
}

TEST(RuleOnPhoto, RefusesAQuestionNamingNoDisk) {
  PhotoCamera camera;
  const nlohmann::json questions = nlohmann::json::parse(R"([{"id": "q1", "overlap": {"a": "enterprise", "b": "voyager"}}])");
  try {
    rule_on_photo(photo_of(camera, true), test_registry(), questions);
    FAIL();
  } catch (const io::InputError& error) {
    EXPECT_NE(std::string(error.what()).find("voyager"), std::string::npos) << error.what();
  }
}

TEST(RuleOnPhoto, RefusesAPhotoWithoutTags) {
  Photo photo;
  photo.image = cv::Mat(600, 800, CV_8UC3, cv::Scalar(70, 95, 120));
  photo.source = "empty.jpg";
  try {
    rule_on_photo(photo, test_registry(), kQuestions);
    FAIL();
  } catch (const PhotoRefused& refused) {
    EXPECT_NE(std::string(refused.what()).find("empty.jpg: no tag of"), std::string::npos) << refused.what();
  }
}

}  // namespace
}  // namespace diskref::photo
