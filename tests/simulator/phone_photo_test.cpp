// A phone photo (simulator/phone_photo.h) is what it says: the tags lie where the truth's corners
// project, the file is a JPEG a decoder reads with the EXIF block it was given, 4:2:0 as phones
// write it, and the hand's shake smears the picture along the shake's direction only. Small
// pictures (3 Mpx): the renderer does the same at 48.

#include <cmath>
#include <cstdio>

#include <gtest/gtest.h>
#include <libexif/exif-data.h>
#include <nlohmann/json.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "engine/io/json_cursor.h"
#include "photo/photo_decode.h"
#include "simulator/coarse_rays.h"
#include "simulator/lens_rays.h"
#include "simulator/phone_exif.h"
#include "simulator/phone_photo.h"
#include "vision/apriltag_detector.h"

namespace diskref::simulator {
namespace {

PhoneScene two_ships_and_a_torpedo() {
  const nlohmann::json disks = {
      {"disks",
       {{{"name", "enterprise"},
         {"kind", "ship"},
         {"thickness_mm", 3.0},
         {"shape", {{"type", "flatted_circle"}, {"diameter_mm", 63.5}, {"flat_to_flat_mm", 57.2}}},
         {"tags", {{{"id", 10}, {"face", "up"}, {"size_mm", 24}, {"heading_offset_deg", 0}}}}},
        {{"name", "reliant"},
         {"kind", "ship"},
         {"thickness_mm", 2.0},
         {"shape", {{"type", "flatted_circle"}, {"diameter_mm", 63.5}, {"flat_to_flat_mm", 57.2}}},
         {"tags", {{{"id", 12}, {"face", "up"}, {"size_mm", 24}, {"heading_offset_deg", 0}}}}},
        {{"name", "torpedo"},
         {"kind", "torpedo"},
         {"shape", {{"type", "circle"}, {"diameter_mm", 25.4}}},
         {"tags", {{{"id", 40}, {"face", "up"}, {"size_mm", 9.5}, {"heading_offset_deg", 0}}}}}}}};
  PhoneScene scene;
  scene.table = model::table_with_markers({600, 400}, 40);
  scene.registry = model::parse_disk_registry(io::JsonCursor(disks, "disks.json"));
  scene.disks = {{"enterprise", 250, 190, 20}, {"reliant", 352, 215, 200}, {"torpedo", 300, 140, 75}};
  return scene;
}

PhoneShot small_shot() {
  PhoneShot shot;
  shot.megapixels = 3;
  shot.look_at_mm = {300, 190};
  shot.tilt_deg = 45;
  shot.distance_mm = 450;
  shot.yaw_deg = 70;
  shot.roll_deg = 12;
  shot.k1 = 0.02;
  shot.k2 = -0.01;
  shot.blur_length_px = 0;
  shot.noise_sigma = 1;
  return shot;
}

TEST(CoarseRays, BilinearRaysOfAPhoneLensAreExactToAThousandthOfAPixel) {
  PhoneShot shot;
  shot.megapixels = 12;
  shot.k1 = 0.02;  // the ends of the range the bench draws from
  shot.k2 = -0.01;
  const CameraRig rig = phone_rig(shot);
  const CoarseRays rays(rig);
  double worst_px = 0;
  const cv::Size size = rig.camera.image_size;
  for (int k = 0; k < 4000; ++k) {
    // A spread of points over the whole image, corners included, off the grid's nodes.
    const cv::Point2d p((k * 0.6180339887 - std::floor(k * 0.6180339887)) * (size.width - 1),
                        (k * 0.7548776662 - std::floor(k * 0.7548776662)) * (size.height - 1));
    const cv::Vec3d d = rig.rotation * rays.at(p.x, p.y);  // back into the camera frame
    worst_px = std::max(worst_px, cv::norm(pixel_from_ray(rig.camera, {d[0] / d[2], d[1] / d[2]}) - p));
  }
  std::printf("worst pixel error of the bilinear rays: %.2g px\n", worst_px);
  EXPECT_LT(worst_px, 1e-3);
}

TEST(PhonePhoto, TagsLieWhereTheTruthsCornersProjectToAFractionOfAPixel) {
  const PhoneScene scene = two_ships_and_a_torpedo();
  const PhonePhoto photo = take_phone_photo(scene, small_shot());
  cv::Mat grey = cv::imdecode(photo.jpeg, cv::IMREAD_GRAYSCALE);
  ASSERT_FALSE(grey.empty());
  vision::DetectorOptions options;
  options.quad_decimate = 1.0;
  const auto detections = vision::AprilTagDetector(options).detect(grey);
  int found = 0;
  double worst = 0;
  for (std::size_t i = 0; i < scene.disks.size(); ++i) {
    const PhotoDiskTruth& truth = photo.disks[i];
    EXPECT_TRUE(truth.in_view) << truth.name;
    EXPECT_GT(truth.tag_px, 20) << truth.name;
    const int id = scene.registry.find(truth.name)->tags[0].id;
    for (const auto& det : detections) {
      if (det.id != id) continue;
      ++found;
      for (std::size_t k = 0; k < 4; ++k) worst = std::max(worst, cv::norm(det.corners[k] - truth.tag_corners_px[k]));
    }
  }
  EXPECT_EQ(found, 3);
  EXPECT_LT(worst, 0.35);
  std::printf("worst corner, detection against truth: %.3f px\n", worst);
}

TEST(PhonePhoto, ADiskOutsideThePictureIsNotInView) {
  PhoneScene scene = two_ships_and_a_torpedo();
  scene.disks.push_back({"torpedo", 0, 0, 0});  // replaced below: one torpedo, far off to the side
  scene.disks.erase(scene.disks.begin() + 2);
  scene.disks.back() = {"torpedo", 1500, -900, 0};
  const PhonePhoto photo = take_phone_photo(scene, small_shot());
  EXPECT_TRUE(photo.disks[0].in_view);
  EXPECT_FALSE(photo.disks[2].in_view);
}

TEST(PhonePhoto, TheFileIsAJpegWithTheExifItWasGivenAndChromaSubsampled420) {
  PhoneShot shot = small_shot();
  shot.exif_orientation = 6;
  shot.focal_35mm = 26;
  shot.crop_factor = 3.8;
  const PhonePhoto photo = take_phone_photo(two_ships_and_a_torpedo(), shot);
  ASSERT_GT(photo.jpeg.size(), 4u);
  EXPECT_EQ(photo.jpeg[0], 0xFF);
  EXPECT_EQ(photo.jpeg[1], 0xD8);
  EXPECT_EQ(photo.jpeg[3], 0xE1) << "the EXIF APP1 segment right after SOI";

  std::unique_ptr<ExifData, decltype(&exif_data_unref)> exif(
      exif_data_new_from_data(photo.jpeg.data(), static_cast<unsigned int>(photo.jpeg.size())), &exif_data_unref);
  ASSERT_TRUE(exif);
  const ExifByteOrder order = exif_data_get_byte_order(exif.get());
  ExifEntry* focal = exif_content_get_entry(exif->ifd[EXIF_IFD_EXIF], EXIF_TAG_FOCAL_LENGTH);
  ExifEntry* focal35 = exif_content_get_entry(exif->ifd[EXIF_IFD_EXIF], EXIF_TAG_FOCAL_LENGTH_IN_35MM_FILM);
  ExifEntry* orientation = exif_content_get_entry(exif->ifd[EXIF_IFD_0], EXIF_TAG_ORIENTATION);
  ExifEntry* make = exif_content_get_entry(exif->ifd[EXIF_IFD_0], EXIF_TAG_MAKE);
  ASSERT_TRUE(focal && focal35 && orientation && make);
  const ExifRational r = exif_get_rational(focal->data, order);
  EXPECT_NEAR(static_cast<double>(r.numerator) / r.denominator, 26 / 3.8, 0.01);
  EXPECT_EQ(exif_get_short(focal35->data, order), 26);
  EXPECT_EQ(exif_get_short(orientation->data, order), 6);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(make->data)), "diskref");

  // OpenCV turns the picture by the EXIF orientation: 6 stands the landscape sensor image upright.
  const cv::Mat upright = cv::imdecode(photo.jpeg, cv::IMREAD_COLOR);
  EXPECT_EQ(upright.cols, photo.rig.camera.image_size.height);
  EXPECT_EQ(upright.rows, photo.rig.camera.image_size.width);

  // The frame header (SOF0): the luma component sampled 2 x 2, chroma 1 x 1.
  bool sof = false;
  for (std::size_t i = 2; i + 12 < photo.jpeg.size(); ++i)
    if (photo.jpeg[i] == 0xFF && photo.jpeg[i + 1] == 0xC0) {
      EXPECT_EQ(photo.jpeg[i + 9], 3) << "three components";
      EXPECT_EQ(photo.jpeg[i + 11], 0x22) << "Y sampled 2 x 2";
      EXPECT_EQ(photo.jpeg[i + 14], 0x11) << "Cb 1 x 1";
      sof = true;
      break;
    }
  EXPECT_TRUE(sof);
}

TEST(PhonePhoto, ThePhotoLibraryReadsTheExifThePhoneWrote) {
  PhoneShot shot = small_shot();
  shot.focal_35mm = 24;
  shot.crop_factor = 4;
  const PhonePhoto photo = take_phone_photo(two_ships_and_a_torpedo(), shot);
  const photo::ExifFacts facts = photo::read_exif(photo.jpeg);
  ASSERT_TRUE(facts.focal_length_35mm && facts.focal_length_mm);
  EXPECT_DOUBLE_EQ(*facts.focal_length_35mm, 24);
  EXPECT_NEAR(*facts.focal_length_mm, 6, 0.01);
  EXPECT_EQ(facts.orientation, 1);
  EXPECT_EQ(facts.camera, "diskref simulated phone");
}

TEST(PhonePhoto, WithoutFocalLengthTheExifSaysNone) {
  PhoneShot shot = small_shot();
  shot.exif_focal_length = false;
  const PhonePhoto photo = take_phone_photo(two_ships_and_a_torpedo(), shot);
  std::unique_ptr<ExifData, decltype(&exif_data_unref)> exif(
      exif_data_new_from_data(photo.jpeg.data(), static_cast<unsigned int>(photo.jpeg.size())), &exif_data_unref);
  ASSERT_TRUE(exif);
  EXPECT_EQ(exif_content_get_entry(exif->ifd[EXIF_IFD_EXIF], EXIF_TAG_FOCAL_LENGTH), nullptr);
  EXPECT_NE(exif_content_get_entry(exif->ifd[EXIF_IFD_0], EXIF_TAG_ORIENTATION), nullptr);
}

TEST(PhoneExif, AJpegWithoutSoiIsRefused) {
  const std::vector<std::uint8_t> not_jpeg = {0x89, 'P', 'N', 'G'};
  EXPECT_THROW(with_exif(not_jpeg, {}), std::invalid_argument);
}

// Mean squared difference between horizontally and vertically neighbouring pixels: a smear along
// one axis lowers that axis's differences, not the other's.
cv::Point2d neighbour_differences(const cv::Mat& bgr) {
  cv::Mat grey;
  cv::cvtColor(bgr, grey, cv::COLOR_BGR2GRAY);
  grey.convertTo(grey, CV_64F);
  const cv::Rect inner(1, 1, grey.cols - 2, grey.rows - 2);
  const cv::Mat dx = grey(inner) - grey(inner + cv::Point(1, 0)), dy = grey(inner) - grey(inner + cv::Point(0, 1));
  return {cv::mean(dx.mul(dx))[0], cv::mean(dy.mul(dy))[0]};
}

TEST(PhonePhoto, AShakeSmearsAlongItsDirectionOnly) {
  const PhoneScene scene = two_ships_and_a_torpedo();
  PhoneShot shot = small_shot();
  shot.megapixels = 2;
  shot.noise_sigma = 0;
  const cv::Point2d sharp = neighbour_differences(render_phone_image(scene, shot));
  shot.blur_length_px = 6;
  shot.blur_angle_deg = 0;  // along the image's rows
  const cv::Point2d along_u = neighbour_differences(render_phone_image(scene, shot));
  shot.blur_angle_deg = 90;
  const cv::Point2d along_v = neighbour_differences(render_phone_image(scene, shot));
  // Every slanted edge loses some of both; the smear's own axis loses far more.
  const double u_along = along_u.x / sharp.x, u_across = along_u.y / sharp.y;
  const double v_along = along_v.y / sharp.y, v_across = along_v.x / sharp.x;
  std::printf("left of the differences, along / across the smear: %.2f / %.2f (rows), %.2f / %.2f (columns)\n", u_along,
              u_across, v_along, v_across);
  EXPECT_LT(u_along, 0.5);
  EXPECT_LT(v_along, 0.5);
  EXPECT_LT(u_along, 0.6 * u_across);
  EXPECT_LT(v_along, 0.6 * v_across);
}

TEST(PhonePhoto, ImageSizeIsFourByThreeWithFocalLengthFromThe35mmEquivalent) {
  const cv::Size size = phone_image_size(48);
  EXPECT_NEAR(size.width * size.height / 1e6, 48, 0.1);
  EXPECT_EQ(size.width * 3, size.height * 4);
  PhoneShot shot;
  shot.megapixels = 12;
  shot.focal_35mm = 24;
  const CameraRig rig = phone_rig(shot);
  const double diagonal = std::hypot(rig.camera.image_size.width, rig.camera.image_size.height);
  // The diagonal field of a 24 mm lens on 35 mm film: 2 atan(43.27 / 48) = 84.1 degrees.
  EXPECT_NEAR(2 * std::atan(diagonal / 2 / rig.camera.fx()) * 180 / std::numbers::pi, 84.1, 0.1);
  // Where it looks: the look-at point projects to the image's centre, from distance_mm away.
  EXPECT_NEAR(cv::norm(rig.center_table() - cv::Vec3d(shot.look_at_mm.x, shot.look_at_mm.y, 0)), shot.distance_mm,
              1e-6);
}

}  // namespace
}  // namespace diskref::simulator
