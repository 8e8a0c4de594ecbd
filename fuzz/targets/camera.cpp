// A camera file (the lens), and whether it fits a 1920x1080 video, as `diskref track` asks.
#include <nlohmann/json.hpp>
#include "calibration/camera_model.h"

#include "fuzz/fuzz_files.h"
#include "fuzz/fuzz_target.h"

DISKREF_FUZZ_TARGET(camera) {
  using namespace diskref;
  const calib::CameraModel camera = calib::load_camera_model(fuzz::place_input("camera.json", input));
  (void)calib::camera_fits_image_problem(camera, cv::Size(1920, 1080));
}
