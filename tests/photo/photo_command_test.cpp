// `diskref photo` run as a user runs it: a rendered photo with EXIF, the disks file, questions on
// the command line; JSON on stdout, the annotated photo written; bad input refused with status 2
// and the file and problem named.
#include <fstream>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <opencv2/imgcodecs.hpp>

#include "tests/calibration/command_runner.h"
#include "tests/photo/exif_block.h"
#include "tests/photo/rendered_photo.h"

namespace diskref::photo {
namespace {

using ::testing::HasSubstr;

class PhotoCommand : public testing::CommandTest {
 protected:
  void SetUp() override {
    CommandTest::SetUp();
    PhotoCamera camera;
    camera.tilt_deg = 35;
    camera.azimuth_deg = 120;
    camera.look_at = {0, 75};
    const cv::Mat image =
        render_photo({{"enterprise", 0, 0, 90, 63.5, 24, 2, 10}, {"tderet", 0, 150, 270, 63.5, 24, 2, 11}}, camera);
    std::vector<std::uint8_t> jpeg;
    cv::imencode(".jpg", image, jpeg, {cv::IMWRITE_JPEG_QUALITY, 95});
    jpeg = with_exif(jpeg, ExifSpec{1, 5.1, 26, "Test", "Phone"});
    std::ofstream(path("table.jpg"), std::ios::binary)
        .write(reinterpret_cast<const char*>(jpeg.data()), std::streamsize(jpeg.size()));
    std::ofstream(path("disks.json")) << R"({"disks": [
      {"name": "enterprise", "kind": "ship", "shape": {"type": "circle", "diameter_mm": 63.5},
       "tags": [{"id": 10, "face": "up", "size_mm": 24}]},
      {"name": "tderet", "kind": "ship", "shape": {"type": "circle", "diameter_mm": 63.5},
       "tags": [{"id": 11, "face": "up", "size_mm": 24}]}]})";
  }
};

TEST_F(PhotoCommand, AnswersOnStdoutAndDrawsTheAnnotatedPhoto) {
  const auto r = run("photo " + path("table.jpg") + " --disks " + path("disks.json") +
                     " --range enterprise tderet --overlap enterprise tderet --move enterprise 1 --range tderet "
                     "enterprise --annotated " +
                     path("out.png"));
  ASSERT_EQ(r.status, 0) << r.err;
  const nlohmann::json answer = nlohmann::json::parse(r.out);
  ASSERT_EQ(answer["answers"].size(), 4u) << r.out;
  // Ranges, then overlaps, then moves, each in the order given; a repeated option adds a question.
  EXPECT_EQ(answer["answers"][0]["id"], "range-1");
  EXPECT_EQ(answer["answers"][0]["call"], "yes");
  EXPECT_EQ(answer["answers"][1]["id"], "range-2");
  EXPECT_EQ(answer["answers"][2]["id"], "overlap-1");
  EXPECT_EQ(answer["answers"][2]["call"], "no");
  EXPECT_EQ(answer["answers"][3]["id"], "move-1");
  EXPECT_EQ(answer["photo"]["camera"]["focal_from"], "exif");
  EXPECT_EQ(answer["photo"]["camera"]["model"], "Test Phone");
  EXPECT_EQ(cv::imread(path("out.png")).size(), cv::Size(2000, 1500));
}

TEST_F(PhotoCommand, BadInputIsRefusedWithStatusTwoNamingTheProblem) {
  const auto unknown =
      run("photo " + path("table.jpg") + " --disks " + path("disks.json") + " --range enterprise voyager");
  EXPECT_EQ(unknown.status, 2);
  EXPECT_THAT(unknown.err, HasSubstr("voyager"));
  std::ofstream(path("notes.jpg")) << "not a picture";
  const auto not_image = run("photo " + path("notes.jpg") + " --disks " + path("disks.json"));
  EXPECT_EQ(not_image.status, 2);
  EXPECT_THAT(not_image.err, HasSubstr("notes.jpg: not a JPEG, PNG or WebP"));
  const auto bad_flips =
      run("photo " + path("table.jpg") + " --disks " + path("disks.json") + " --move enterprise two");
  EXPECT_EQ(bad_flips.status, 2);
  EXPECT_THAT(bad_flips.err, HasSubstr("--move"));
}

// The example photo shipped for users to try (sample_photos/dispute, docs/guide/photo-disputes.md)
// is answered as its truth.json says, with the command the guide gives.
TEST_F(PhotoCommand, TheShippedExamplePhotoIsAnsweredAsItsTruthSays) {
  const std::string folder = std::string(DISKREF_SOURCE_DIR) + "/sample_photos/dispute/";
  const auto r = run("photo " + folder + "photo.jpg --disks " + folder +
                     "disks.json --range enterprise tderet --overlap tderet torpedo-1");
  ASSERT_EQ(r.status, 0) << r.err;
  const nlohmann::json answer = nlohmann::json::parse(r.out);
  const nlohmann::json truth = nlohmann::json::parse(std::ifstream(folder + "truth.json"));
  ASSERT_EQ(answer["answers"].size(), truth["answers"].size()) << r.out;
  for (std::size_t i = 0; i < truth["answers"].size(); ++i) {
    const nlohmann::json& given = answer["answers"][i];
    const nlohmann::json& truly = truth["answers"][i];
    EXPECT_EQ(given["call"], truly["call"]) << truly["question"];
    const double true_margin = truly.contains("margin_mm") ? truly["margin_mm"] : truly["separation_mm"];
    EXPECT_NEAR(given["decisive_margin_mm"].get<double>(), true_margin, 3 * given["sigma_mm"].get<double>() + 0.01)
        << truly["question"];
  }
  EXPECT_EQ(answer["unseen"], nlohmann::json::array({"range"}));
}

}  // namespace
}  // namespace diskref::photo
