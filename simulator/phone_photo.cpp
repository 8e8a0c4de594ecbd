#include "simulator/phone_photo.h"

#include <cmath>
#include <stdexcept>

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "print/disk_appearance.h"
#include "simulator/image_effects.h"
#include "simulator/phone_exif.h"
#include "simulator/scene.h"
#include "simulator/still_table_renderer.h"
#include "simulator/truth.h"

namespace diskref::simulator {
namespace {

constexpr double kFullFrameDiagonalMm = 43.27;  // the 35 mm film frame's diagonal
constexpr double kTexelsPerMm = 3;  // the table's textures: smooth at a phone's few to twenty pixels a millimetre

// The hand's shake: a straight smear of `length` px in direction `angle_deg`, as a normalized
// kernel (each point of the smear splatted bilinearly, so that sub-pixel lengths blur a little).
cv::Mat shake_kernel(double length, double angle_deg) {
  const int half = static_cast<int>(std::ceil(length / 2)) + 1;
  cv::Mat kernel = cv::Mat::zeros(2 * half + 1, 2 * half + 1, CV_32F);
  const double a = angle_deg * std::numbers::pi / 180, cx = std::cos(a), cy = std::sin(a);
  constexpr int kPoints = 101;
  for (int k = 0; k < kPoints; ++k) {
    const double s = length * (k / (kPoints - 1.0) - 0.5);
    const double x = half + s * cx, y = half + s * cy;
    const int ix = static_cast<int>(std::floor(x)), iy = static_cast<int>(std::floor(y));
    const auto fx = static_cast<float>(x - ix), fy = static_cast<float>(y - iy);
    kernel.at<float>(iy, ix) += (1 - fx) * (1 - fy);
    kernel.at<float>(iy, ix + 1) += fx * (1 - fy);
    kernel.at<float>(iy + 1, ix) += (1 - fx) * fy;
    kernel.at<float>(iy + 1, ix + 1) += fx * fy;
  }
  return kernel / cv::sum(kernel)[0];
}

struct Stage {
  TableSurface surface;
  SceneModel model;
  SceneInstant instant;
  CameraRig rig;
};

std::unique_ptr<Stage> stage_of(const PhoneScene& scene, const PhoneShot& shot) {
  auto stage = std::unique_ptr<Stage>(
      new Stage{TableSurface(scene.table, scene.surface, kTexelsPerMm, scene.seed), {}, {}, phone_rig(shot)});
  stage->model.surface = &stage->surface;
  for (const model::DiskSpec& spec : scene.registry.disks()) stage->model.disks.emplace_back(spec);
  for (const PlacedDisk& placed : scene.disks) {
    const auto index = scene.registry.index_of(placed.name);
    if (!index) throw std::invalid_argument("phone photo: no disk named \"" + placed.name + "\" in the registry");
    DiskInstant d;
    d.disk = *index;
    d.top_face = placed.face;
    set_flat_pose(d, placed.x, placed.y, placed.heading);
    stage->instant.disks.push_back(d);
  }
  return stage;
}

cv::Mat camera_picture(const Stage& stage, const PhoneShot& shot) {
  cv::Mat radiance = render_still_table(stage.model, stage.instant, stage.rig);
  if (shot.blur_length_px > 0.01)
    cv::filter2D(radiance, radiance, -1, shake_kernel(shot.blur_length_px, shot.blur_angle_deg), cv::Point(-1, -1), 0,
                 cv::BORDER_REPLICATE);
  ImageEffects effects;
  effects.noise_sigma = shot.noise_sigma;
  effects.vignetting = 0.15;      // what a phone's lens-shading correction leaves
  effects.light_gradient = 0.15;  // a room's light
  effects.supersample = 1;
  return finish_frame(radiance, effects, shot.seed);
}

}  // namespace

cv::Size phone_image_size(double megapixels) {
  const double width = std::sqrt(megapixels * 1e6 * 4.0 / 3.0);
  const int w = 4 * static_cast<int>(std::lround(width / 4));
  return {w, w * 3 / 4};
}

CameraRig phone_rig(const PhoneShot& shot) {
  CameraRig rig;
  const cv::Size size = phone_image_size(shot.megapixels);
  const double f = shot.focal_35mm * std::hypot(size.width, size.height) / kFullFrameDiagonalMm;
  rig.camera.image_size = size;
  rig.camera.camera_matrix = {f, 0, (size.width - 1) / 2.0, 0, f, (size.height - 1) / 2.0, 0, 0, 1};
  rig.camera.dist_coeffs = {shot.k1, shot.k2, 0, 0, 0};
  const double height = shot.distance_mm * std::cos(shot.tilt_deg * std::numbers::pi / 180);
  look_at_table(height, shot.tilt_deg, shot.yaw_deg, {shot.look_at_mm.x, shot.look_at_mm.y}, rig.rotation,
                rig.translation);
  // The roll turns the camera about its own optical axis: its centre stays where it is.
  const double r = shot.roll_deg * std::numbers::pi / 180;
  const cv::Matx33d roll(std::cos(r), -std::sin(r), 0, std::sin(r), std::cos(r), 0, 0, 0, 1);
  rig.rotation = roll * rig.rotation;
  rig.translation = roll * rig.translation;
  return rig;
}

cv::Mat render_phone_image(const PhoneScene& scene, const PhoneShot& shot, CameraRig* rig) {
  const auto stage = stage_of(scene, shot);
  if (rig) *rig = stage->rig;
  return camera_picture(*stage, shot);
}

PhonePhoto take_phone_photo(const PhoneScene& scene, const PhoneShot& shot) {
  const auto stage = stage_of(scene, shot);
  PhonePhoto photo;
  photo.rig = stage->rig;
  // OpenCV's JPEG encoder (libjpeg's defaults) subsamples chroma 4:2:0, as phones do.
  std::vector<std::uint8_t> encoded;
  cv::imencode(".jpg", camera_picture(*stage, shot), encoded, {cv::IMWRITE_JPEG_QUALITY, shot.jpeg_quality});
  PhoneExif exif;
  exif.orientation = shot.exif_orientation;
  if (shot.exif_focal_length) {
    exif.focal_length_mm = shot.focal_35mm / shot.crop_factor;
    exif.focal_length_35mm = static_cast<int>(std::lround(shot.focal_35mm));
  }
  photo.jpeg = with_exif(encoded, exif);

  const GroundTruth truth(stage->model, stage->rig);
  for (std::size_t i = 0; i < scene.disks.size(); ++i) {
    const PlacedDisk& placed = scene.disks[i];
    const DiskInstant& d = stage->instant.disks[i];
    PhotoDiskTruth t{placed.name, placed.x, placed.y, placed.heading, placed.face, truth.tag_visible(stage->instant, d),
                     0,           {}};
    const std::vector<cv::Point3d> corners = truth.tag_corners(d);
    if (corners.size() == 4) {
      for (std::size_t k = 0; k < 4; ++k) t.tag_corners_px[k] = pixel_of(stage->rig, corners[k]);
      for (std::size_t k = 0; k < 4; ++k) t.tag_px += cv::norm(t.tag_corners_px[(k + 1) % 4] - t.tag_corners_px[k]) / 4;
    }
    photo.disks.push_back(t);
  }
  return photo;
}

}  // namespace diskref::simulator
