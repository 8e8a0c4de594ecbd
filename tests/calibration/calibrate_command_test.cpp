// `diskref calibrate` end to end: real photos, a rendered video with moving and repeated frames,
// and the refusals and bad inputs, each with its message and exit status.
#include <filesystem>
#include <fstream>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/videoio.hpp>

#include "calibration/camera_model.h"
#include "calibration/projection_uncertainty.h"
#include "command_runner.h"
#include "projected_views.h"
#include "simulator/board_views.h"

namespace diskref::calib {
namespace {

namespace fs = std::filesystem;
using testing::CommandRun;

const fs::path kPhotos = fs::path(DISKREF_TEST_DATA_DIR) / "real-chessboard-photos";

class CalibrateCommand : public testing::CommandTest {
 protected:
  CommandRun calibrate(const std::string& arguments) { return run("calibrate " + arguments); }
  std::string photos(const std::string& pattern = "left[01]*.jpg") { return (kPhotos / pattern).string(); }
};

TEST_F(CalibrateCommand, RealPhotosCalibrateAndTheLastLineIsTheRms) {
  CommandRun r = calibrate("--chessboard 9x6 --square-mm 25 --out " + (dir_ / "camera.json").string() +
                           " --uncertainty-map " + (dir_ / "uncertainty.png").string() + " " + photos());
  ASSERT_EQ(r.status, 0) << r.err;
  CameraModel camera = load_camera_model(dir_ / "camera.json");
  ASSERT_TRUE(camera.rms_px);
  EXPECT_EQ(r.last_line(), fmt::format("rms_px={:.3f}", *camera.rms_px));
  EXPECT_EQ(camera.image_size, cv::Size(640, 480));
  // The camera file carries the projection uncertainty, small where the photos' corners were.
  ASSERT_TRUE(camera.uncertainty);
  EXPECT_LT(camera.uncertainty->at({320, 240}, camera.image_size), 0.3);
  EXPECT_GT(camera.uncertainty->at({320, 240}, camera.image_size), 0.0);
  // The report: each view and why it is kept, the models and the choice, each intrinsic's
  // standard deviation, the uncertainty over the image and where it is worst.
  EXPECT_NE(r.out.find("left01.jpg"), std::string::npos);
  EXPECT_NE(r.out.find("typical error"), std::string::npos);
  EXPECT_NE(r.out.find("held-out"), std::string::npos);
  EXPECT_NE(r.out.find("<- chosen"), std::string::npos);
  EXPECT_NE(r.out.find("fx = "), std::string::npos);
  EXPECT_NE(r.out.find("k1 = "), std::string::npos);
  EXPECT_NE(r.out.find("+-"), std::string::npos);
  EXPECT_NE(r.out.find("projection uncertainty (1 sigma, px): central 80 %"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("known worst: the image's "), std::string::npos) << r.out;
  cv::Mat map = cv::imread((dir_ / "uncertainty.png").string());
  EXPECT_EQ(map.size(), cv::Size(640, 480));
}

TEST_F(CalibrateCommand, ALensModelCanBeForcedAndHalvesCrossValidated) {
  CommandRun r = calibrate("--chessboard 9x6 --square-mm 25 --lens-model 8 --cross-validate --out " +
                           (dir_ / "camera.json").string() + " " + photos());
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(load_camera_model(dir_ / "camera.json").dist_coeffs.size(), 8u);
  EXPECT_NE(r.out.find("lens model: rational (8)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("cross-validation: two halves (7 and 6 views)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("within 2 predicted sigma: "), std::string::npos) << r.out;
  EXPECT_EQ(r.last_line().rfind("rms_px=", 0), 0u);
  CommandRun bad =
      calibrate("--chessboard 9x6 --square-mm 25 --lens-model 6 --out " + (dir_ / "c.json").string() + " " + photos());
  EXPECT_NE(bad.status, 0);
  EXPECT_NE(bad.err.find("--lens-model"), std::string::npos) << bad.err;
}

TEST_F(CalibrateCommand, ImagesWithoutTheBoardAreNamedAndSkipped) {
  cv::Mat blank(480, 640, CV_8UC1, cv::Scalar(128));
  cv::randn(blank, 128, 20);
  cv::imwrite((dir_ / "no-board.png").string(), blank);
  CommandRun r = calibrate("--chessboard 9x6 --square-mm 25 --out " + (dir_ / "camera.json").string() + " " + photos() +
                           " " + (dir_ / "no-board.png").string());
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("board not found in " + (dir_ / "no-board.png").string()), std::string::npos) << r.out;
}

TEST_F(CalibrateCommand, FewerThanThreeViewsIsRefused) {
  CommandRun r = calibrate("--chessboard 9x6 --square-mm 25 --out " + (dir_ / "camera.json").string() + " " +
                           photos("left0[12].jpg"));
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("at least 3"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "camera.json"));
}

TEST_F(CalibrateCommand, BadInputIsNamed) {
  CommandRun missing = calibrate("--chessboard 9x6 --square-mm 25 --out " + (dir_ / "c.json").string() + " " +
                                 (dir_ / "nowhere.jpg").string());
  EXPECT_EQ(missing.status, 2);
  EXPECT_NE(missing.err.find("nowhere.jpg: does not exist"), std::string::npos) << missing.err;

  std::ofstream(dir_ / "broken.mp4") << "not a video at all";
  CommandRun broken = calibrate("--chessboard 9x6 --square-mm 25 --out " + (dir_ / "c.json").string() + " " +
                                (dir_ / "broken.mp4").string());
  EXPECT_EQ(broken.status, 2);
  EXPECT_NE(broken.err.find("broken.mp4"), std::string::npos) << broken.err;

  CommandRun mixed = calibrate("--chessboard 9x6 --square-mm 25 --out " + (dir_ / "c.json").string() + " " +
                               photos("left01.jpg") + " " + photos("left.jpg"));
  EXPECT_EQ(mixed.status, 2);
  EXPECT_NE(mixed.err.find("left.jpg: is 612x459 but the first input is 640x480"), std::string::npos) << mixed.err;

  CommandRun grid = calibrate("--chessboard 9by6 --square-mm 25 --out " + (dir_ / "c.json").string() + " " + photos());
  EXPECT_NE(grid.status, 0);
  EXPECT_NE(grid.err.find("COLSxROWS"), std::string::npos) << grid.err;

  CommandRun both =
      calibrate("--chessboard 9x6 --charuco 11x8 --square-mm 25 --out " + (dir_ / "c.json").string() + " " + photos());
  EXPECT_NE(both.status, 0);

  CommandRun marker =
      calibrate("--charuco 11x8 --square-mm 20 --marker-mm 25 --out " + (dir_ / "c.json").string() + " " + photos());
  EXPECT_EQ(marker.status, 2);
  EXPECT_NE(marker.err.find("marker size"), std::string::npos) << marker.err;
}

// A video of a board held still at several poses, moved between them (frames in motion), with
// one pose out of focus: the command keeps one still frame per pose (the sharpest).
TEST_F(CalibrateCommand, AVideoKeepsStillVariedFrames) {
  CameraModel camera;
  camera.image_size = {960, 540};
  camera.camera_matrix = cv::Matx33d(760, 0, 482, 0, 758, 268, 0, 0, 1);
  camera.dist_coeffs = {-0.18, 0.06, 0.0, 0.0, 0.0};
  print::BoardSpec spec;  // chessboard 9x6, 25 mm
  print::BoardPattern pattern(spec);
  cv::Rect2d card = pattern.card_mm();
  std::vector<cv::Point3f> outline;
  for (double fx : {0.0, 1.0})
    for (double fy : {0.0, 1.0})
      outline.emplace_back(static_cast<float>(card.x + fx * card.width), static_cast<float>(card.y + fy * card.height),
                           0.f);
  std::vector<std::pair<cv::Matx33d, cv::Vec3d>> poses;
  for (const auto& p : testing::spread_board_poses(camera, outline, 40, 5, 0.4, 0.6, 10)) {
    cv::Matx33d r;
    cv::Rodrigues(p.rvec, r);
    if (simulator::board_fully_visible(camera, r, p.tvec, pattern, 8.0)) poses.emplace_back(r, p.tvec);
    if (poses.size() == 9) break;
  }
  ASSERT_EQ(poses.size(), 9u);
  simulator::ImageEffects effects;
  effects.noise_sigma = 1.5;
  effects.supersample = 2;
  cv::VideoWriter video((dir_ / "board.mkv").string(), cv::CAP_FFMPEG, cv::VideoWriter::fourcc('F', 'F', 'V', '1'), 30,
                        camera.image_size);
  ASSERT_TRUE(video.isOpened());
  for (std::size_t i = 0; i < poses.size(); ++i) {
    simulator::ImageEffects e = effects;
    if (i == 4) e.blur_sigma_px = 3.0;  // out of focus while held still
    cv::Mat still = simulator::render_board_view(camera, poses[i].first, poses[i].second, spec, e, i);
    for (int k = 0; k < 4; ++k) video.write(still);
    if (i + 1 == poses.size()) break;
    // On the way to the next pose: a third and two thirds of the way there.
    for (double f : {1.0 / 3, 2.0 / 3}) {
      cv::Vec3d r0, r1;
      cv::Rodrigues(poses[i].first, r0);
      cv::Rodrigues(poses[i + 1].first, r1);
      cv::Matx33d r;
      cv::Rodrigues(r0 * (1 - f) + r1 * f, r);
      video.write(simulator::render_board_view(camera, r, poses[i].second * (1 - f) + poses[i + 1].second * f, spec,
                                               effects, 100 + i));
    }
  }
  video.release();

  CommandRun r = calibrate("--chessboard 9x6 --square-mm 25 --out " + (dir_ / "camera.json").string() + " " +
                           (dir_ / "board.mkv").string());
  ASSERT_EQ(r.status, 0) << r.err << r.out;
  std::printf("%s", r.out.c_str());
  // Reported per reason, with the frames: those between poses and the first still frame of
  // each pose moved; the blurred pose's still frames are blurred; the repeats are duplicates.
  auto frames_dropped_as = [&](const std::string& kind) {
    auto at = r.out.find("frame(s) of board.mkv: " + kind);
    if (at == std::string::npos) return 0;
    return std::atoi(r.out.c_str() + r.out.rfind("dropped ", at) + 8);
  };
  EXPECT_EQ(frames_dropped_as("moving"), 24);
  EXPECT_EQ(frames_dropped_as("blurred"), 0);  // a soft view is kept: its corners are still good
  EXPECT_EQ(frames_dropped_as("near-duplicate"), 19);
  EXPECT_NE(r.out.find("views used: 9 "), std::string::npos) << r.out;  // one per pose
  CameraModel estimated = load_camera_model(dir_ / "camera.json");
  EXPECT_NEAR(estimated.fx(), camera.fx(), 0.01 * camera.fx());
  // Right within its own predicted uncertainty (the camera file's grid) over the central 80 %.
  ASSERT_TRUE(estimated.uncertainty);
  const auto grid = central_grid(camera.image_size, 16, 9, 0.8);
  const auto apart = lens_difference_px(estimated, camera, grid);
  int within = 0;
  for (std::size_t i = 0; i < grid.size(); ++i)
    within += apart[i] <= 3 * estimated.uncertainty->at(grid[i], camera.image_size);
  EXPECT_GE(within, static_cast<int>(0.8 * static_cast<double>(grid.size()))) << within << " of " << grid.size();
}

}  // namespace
}  // namespace diskref::calib
