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
  return model::parse_disk_registry(io::JsonCursor(kitchen_registry_json(), "disks.json"));
}

// klingon is in the registry but not on the table.
const std::vector<RenderedDisk>& kTable = kKitchenTable;

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
      EXPECT_NEAR(answers[1]["separation_mm"].get<double>(), true_separation, 3 * separation_sigma + 0.01)
          << answers[1].dump();
      EXPECT_EQ(answers[2]["end_overlaps"], nlohmann::ordered_json::array({"tderet"})) << answers[2].dump();
      EXPECT_EQ(answers[2]["call"], "yes");
      EXPECT_FALSE(answers[2].contains("leaves_play_area"));
      EXPECT_EQ(answers[3]["call"], "cannot tell");
      EXPECT_EQ(answers[3]["unseen"], nlohmann::ordered_json::array({"klingon"}));
      EXPECT_EQ(ruling.annotated.size(), camera.size);
      EXPECT_EQ(ruling.exit_code, 0);
      if (tilt == 45.0 && !with_focal) {
        cv::imwrite((std::filesystem::path(DISKREF_BINARY_DIR) / "photo_ruling_annotated.png").string(),
                    ruling.annotated);
      }
    }
  }
}

// Whether the annotated photo has the outline's green within `radius` px of `pixel`.
bool outline_near(const cv::Mat& annotated, cv::Point2d pixel, int radius) {
  for (int dy = -radius; dy <= radius; ++dy) {
    for (int dx = -radius; dx <= radius; ++dx) {
      const cv::Point p(cvRound(pixel.x) + dx, cvRound(pixel.y) + dy);
      if (!cv::Rect(0, 0, annotated.cols, annotated.rows).contains(p)) continue;
      const cv::Vec3b bgr = annotated.at<cv::Vec3b>(p);
      if (bgr[1] > 170 && bgr[0] < 90 && bgr[2] < 90) return true;
    }
  }
  return false;
}

TEST(RuleOnPhoto, DrawsEachDiskWhereItReallyIs) {
  PhotoCamera camera;
  camera.tilt_deg = 40;
  camera.azimuth_deg = 70;
  camera.look_at = {10, 60};
  const PhotoRuling ruling = rule_on_photo(photo_of(camera, true), test_registry(), kQuestions);
  cv::Matx33d r;
  cv::Vec3d t;
  camera.pose(r, t);
  cv::Vec3d rvec;
  cv::Rodrigues(r, rvec);
  int near = 0, total = 0;
  for (const RenderedDisk& disk : kTable) {
    for (int k = 0; k < 8; ++k) {
      const double a = k * std::numbers::pi / 4, radius = disk.diameter_mm / 2;
      std::vector<cv::Point3d> rim{{disk.x + radius * std::cos(a), disk.y + radius * std::sin(a), disk.height_mm}};
      std::vector<cv::Point2d> pixel;
      cv::projectPoints(rim, rvec, t, camera.camera_matrix(), cv::noArray(), pixel);
      ++total;
      near += outline_near(ruling.annotated, pixel[0], 3) ? 1 : 0;
    }
  }
  // Letters or a margin's line may cover a point of an outline, not many.
  EXPECT_GE(near, total - 3) << near << " of " << total;
  // And the check can fail: the plain photo has no outline there.
  EXPECT_FALSE(
      outline_near(render_photo(kTable, camera), cv::Point2d(camera.size.width / 2.0, camera.size.height / 2.0), 3));
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

TEST(RuleOnPhoto, AMarginWithinTwoSigmaIsTooCloseToCall) {
  // tderet 0.1 mm inside range (reach 92.46 mm, gap 92.36 mm): the photo cannot tell.
  std::vector<RenderedDisk> table = kTable;
  table[1].y = 63.5 + 92.36;
  PhotoCamera camera;
  camera.size = {1200, 900};
  camera.tilt_deg = 30;
  camera.look_at = {10, 60};
  Photo photo;
  photo.image = render_photo(table, camera);
  photo.source = "close.jpg";
  const PhotoRuling ruling = rule_on_photo(photo, test_registry(), kQuestions);
  const auto& range = ruling.answer["answers"][0];
  EXPECT_LT(std::abs(range["decisive_margin_mm"].get<double>()), 2 * range["sigma_mm"].get<double>()) << range.dump();
  EXPECT_EQ(range["call"], "too close to call") << range.dump();
  // The band the call was made on is said with it, so a page can show that band and no other.
  EXPECT_EQ(ruling.answer.value("call_sigmas", 0.0), 2.0) << ruling.answer.dump();
}

TEST(RuleOnPhoto, SaysWhenThePhotoIsTooOblique) {
  PhotoCamera camera;
  camera.tilt_deg = 66;
  camera.distance_mm = 350;
  camera.look_at = {10, 60};
  PhotoOptions options;
  options.precision_mm = 0.01;
  const PhotoRuling ruling = rule_on_photo(photo_of(camera, true), test_registry(), kQuestions, options);
  bool said = false;
  for (const auto& note : ruling.answer["notes"]) {
    const std::string text = note.get<std::string>();
    said = said || (text.find("degrees from straight above") != std::string::npos &&
                    text.find("take it more from above") != std::string::npos);
  }
  EXPECT_TRUE(said) << ruling.answer["notes"].dump(1);
}

TEST(RuleOnPhoto, ReadsA48MpxPhoto) {
  // A phone's full resolution: quads looked for at half size, corners refined at full size. The
  // render is enlarged four times (its tags as a 48 Mpx phone sees them from 1.8 m).
  PhotoCamera camera;
  camera.tilt_deg = 30;
  camera.look_at = {10, 60};
  camera.distance_mm = 1200;
  cv::Mat large;
  cv::resize(render_photo(kTable, camera), large, cv::Size(8000, 6000), 0, 0, cv::INTER_CUBIC);
  Photo photo;
  photo.image = large;
  photo.source = "large.jpg";
  photo.exif.focal_length_35mm = camera.focal_35mm;
  const PhotoRuling ruling = rule_on_photo(photo, test_registry(), kQuestions);
  EXPECT_EQ(ruling.answer["photo"]["quad_decimate"], 2.0);
  EXPECT_EQ(ruling.answer["disks"].size(), 3u) << ruling.answer.dump(1);
  EXPECT_EQ(ruling.answer["answers"][0]["call"], "yes") << ruling.answer["answers"][0].dump();
}

TEST(RuleOnPhoto, ChecksATemplateLyingInThePhoto) {
  // The range template itself (a registry disk of kind template) laid between the two ships,
  // 6.2 mm into each.
  nlohmann::json doc = model::disk_registry_to_json(test_registry());
  doc["disks"].push_back({{"name", "template"},
                          {"kind", "template"},
                          {"thickness_mm", 1.5},
                          {"shape", {{"type", "rect"}, {"length_mm", 88.9}, {"width_mm", 25.4}}},
                          {"tags", {{{"id", 60}, {"face", "up"}, {"size_mm", 12}}}}});
  const model::DiskRegistry registry = model::parse_disk_registry(io::JsonCursor(doc, "disks.json"));
  const std::vector<RenderedDisk> table{{"enterprise", 0, 0, 90, 63.5, 24, 2, 10},
                                        {"tderet", 0, 140, 270, 63.5, 24, 2, 11},
                                        {"template", 0, 70, 90, 0, 12, 1.5, 60, 88.9, 25.4}};
  PhotoCamera camera;
  camera.tilt_deg = 30;
  camera.azimuth_deg = 160;
  camera.look_at = {0, 70};
  Photo photo;
  photo.image = render_photo(table, camera);
  photo.source = "template.jpg";
  photo.exif.focal_length_35mm = camera.focal_35mm;
  const nlohmann::json questions = nlohmann::json::parse(
      R"([{"id": "t1", "template_check": {"template": "template", "from": "enterprise", "to": "tderet"}}])");
  const PhotoRuling ruling = rule_on_photo(photo, registry, questions);
  const auto& answer = ruling.answer["answers"][0];
  EXPECT_EQ(answer["overlaps_both"], true) << answer.dump();
  EXPECT_NEAR(answer["margin_mm"].get<double>(), 6.2, 3 * answer["sigma_mm"].get<double>() + 0.01) << answer.dump();
  EXPECT_EQ(answer["call"], "yes");
}

TEST(RuleOnPhoto, RefusesAQuestionNamingNoDisk) {
  PhotoCamera camera;
  const nlohmann::json questions =
      nlohmann::json::parse(R"([{"id": "q1", "overlap": {"a": "enterprise", "b": "voyager"}}])");
  try {
    rule_on_photo(photo_of(camera, true), test_registry(), questions);
    FAIL();
  } catch (const io::InputError& error) {
    EXPECT_NE(std::string(error.what()).find("voyager"), std::string::npos) << error.what();
  }
}

TEST(RuleOnPhoto, RefusesACalibrationOfAnotherShapeSayingBothSizes) {
  Photo photo = photo_of(PhotoCamera{}, false);
  photo.source = "table.jpg";
  PhotoOptions options;
  options.lens = calib::CameraModel{};
  options.lens->image_size = {1920, 1080};
  options.lens->camera_matrix = cv::Matx33d(1400, 0, 959.5, 0, 1400, 539.5, 0, 0, 1);
  try {
    rule_on_photo(photo, test_registry(), kQuestions, options);
    FAIL();
  } catch (const PhotoRefused& refused) {
    const std::string what = refused.what();
    EXPECT_NE(what.find("table.jpg: the calibration: image_size: is 1920x1080"), std::string::npos) << what;
    EXPECT_NE(what.find("but the photo is 2000x1500"), std::string::npos) << what;
    EXPECT_EQ(what.find("{}"), std::string::npos) << what;
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
