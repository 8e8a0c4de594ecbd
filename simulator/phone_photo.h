#pragma once
// A photograph of the table taken by hand with a phone, as a dispute brings it (spec §14): a 12-48
// Mpx 4:3 picture through a wide phone lens (24-28 mm equivalent, a little residual distortion
// left by the phone's own correction), held 20-60 degrees from vertical 30-80 cm from the table,
// turned any way, shaken a little during the exposure, with the sensor's noise, written as a phone
// writes it (JPEG, 4:2:0, quality ~90, an EXIF block saying the focal length), and its exact truth:
// every disk's pose on the table, whether its tag is in the picture, the tag's size in pixels.
//
// Speed: a 48 Mpx photo is rendered in seconds, not minutes (still_table_renderer.h says how; the
// photo_disputes bench measures it: docs/figures/photo_disputes.md, "Time per photo").

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include <opencv2/core.hpp>

#include "engine/model/disk_registry.h"
#include "engine/model/table_spec.h"
#include "simulator/camera_rig.h"
#include "simulator/table_surface.h"

namespace diskref::simulator {

// How the phone is held and what it writes.
struct PhoneShot {
  double megapixels = 12;         // the sensor's pixel count; 4:3 (landscape as the sensor reads)
  double focal_35mm = 26;         // the lens's 35 mm equivalent focal length
  double crop_factor = 4.0;       // 35 mm diagonal / the sensor's diagonal (EXIF FocalLength = focal_35mm / crop)
  double k1 = 0.01, k2 = -0.005;  // radial distortion left after the phone's own correction
  double tilt_deg = 40;           // optical axis from vertical
  double distance_mm = 500;       // from the camera to the point it looks at on the table
  double yaw_deg = 90;            // where the image's up points on the table (camera_rig.h, look_at_table)
  double roll_deg = 0;            // turn of the phone about its optical axis
  cv::Point2d look_at_mm{0, 0};   // the table point at the image's centre
  int jpeg_quality = 90;
  bool exif_focal_length = true;  // whether the EXIF block carries FocalLength and FocalLengthIn35mmFilm
  int exif_orientation = 1;       // 1 (stored upright) or 6 (the phone held upright: stored turned, EXIF says so)
  double blur_length_px = 2;      // the hand's shake during the exposure: a straight smear this long
  double blur_angle_deg = 0;      // its direction in the stored image (0 = along +u, 90 = along +v)
  double noise_sigma = 2;         // sensor noise, 8-bit grey levels
  uint64_t seed = 1;
};

// The phone's image size for `megapixels` at 4:3 (even sides, as sensors have).
cv::Size phone_image_size(double megapixels);
// The phone's lens and where it is (camera_from_table) for a shot: f_px = f35 x diagonal_px / 43.27.
CameraRig phone_rig(const PhoneShot& shot);

struct PlacedDisk {
  std::string name;  // in the registry
  double x = 0, y = 0, heading = 0;
  model::Face face = model::Face::up;
};

struct PhoneScene {
  model::TableSpec table;
  SurfaceSpec surface;
  model::DiskRegistry registry;
  std::vector<PlacedDisk> disks;
  uint64_t seed = 1;  // the table's texture
};

struct PhotoDiskTruth {
  std::string name;
  double x = 0, y = 0, heading = 0;  // table frame, the disk's true pose
  model::Face face = model::Face::up;
  bool in_view = false;                         // its visible tag wholly in the picture and uncovered
  double tag_px = 0;                            // the tag's mean side (detector corners) in the stored image
  std::array<cv::Point2d, 4> tag_corners_px{};  // apriltag's corner order, the stored image's pixels
};

struct PhonePhoto {
  std::vector<std::uint8_t> jpeg;     // the file as the phone writes it
  CameraRig rig;                      // the true camera (of the stored, not the EXIF-turned, image)
  std::vector<PhotoDiskTruth> disks;  // in the scene's order
};

// Renders the scene as the phone sees it and writes the file. Deterministic for the shot's seed.
PhonePhoto take_phone_photo(const PhoneScene& scene, const PhoneShot& shot);

// The camera's 8-bit picture before it is compressed (for tests that look at the image itself).
cv::Mat render_phone_image(const PhoneScene& scene, const PhoneShot& shot, CameraRig* rig = nullptr);

}  // namespace diskref::simulator
