#include "calibration/camera_model.h"

#include "engine/io/atomic_write.h"

namespace diskref::calib {

CameraModel parse_camera_model(const io::JsonCursor& root) {
  CameraModel cam;
  auto size = root.at("image_size");
  auto wh = size.numbers(2);
  if (!(wh[0] >= 1 && wh[1] >= 1)) size.fail("width and height must be >= 1");
  cam.image_size = cv::Size(static_cast<int>(wh[0]), static_cast<int>(wh[1]));

  auto k = root.at("camera_matrix");
  if (k.size() != 3) k.fail("must be a 3x3 matrix (3 rows of 3 numbers)");
  for (int r = 0; r < 3; ++r) {
    auto row = k.at(static_cast<std::size_t>(r)).numbers(3);
    for (int c = 0; c < 3; ++c) cam.camera_matrix(r, c) = row[static_cast<std::size_t>(c)];
  }
  if (!(cam.fx() > 0 && cam.fy() > 0)) k.fail("focal lengths fx and fy must be > 0");
  if (cam.camera_matrix(2, 2) != 1.0 || cam.camera_matrix(2, 0) != 0.0 || cam.camera_matrix(2, 1) != 0.0)
    k.fail("last row must be [0, 0, 1]");

  auto d = root.at("dist_coeffs");
  auto coeffs = d.numbers(5);
  for (std::size_t i = 0; i < 5; ++i) cam.dist_coeffs[i] = coeffs[i];
  if (auto rms = root.find("rms_px")) cam.rms_px = rms->non_negative_number();
  return cam;
}

CameraModel load_camera_model(const std::filesystem::path& file) {
  nlohmann::json doc = io::read_json_file(file);
  return parse_camera_model(io::JsonCursor(doc, file.string()));
}

nlohmann::json camera_model_to_json(const CameraModel& cam) {
  nlohmann::json k = nlohmann::json::array();
  for (int r = 0; r < 3; ++r) k.push_back({cam.camera_matrix(r, 0), cam.camera_matrix(r, 1), cam.camera_matrix(r, 2)});
  nlohmann::json out = {{"image_size", {cam.image_size.width, cam.image_size.height}},
                        {"camera_matrix", k},
                        {"dist_coeffs", cam.dist_coeffs}};
  if (cam.rms_px) out["rms_px"] = *cam.rms_px;
  return out;
}

void save_camera_model(const CameraModel& camera, const std::filesystem::path& file) {
  io::write_file_atomically(file, camera_model_to_json(camera).dump(2) + "\n");
}

CameraModel scaled(const CameraModel& camera, cv::Size new_size) {
  CameraModel out = camera;
  double sx = static_cast<double>(new_size.width) / camera.image_size.width;
  double sy = static_cast<double>(new_size.height) / camera.image_size.height;
  // Pixel centres at integers: a pixel centre u maps to (u + 0.5) * s - 0.5.
  out.camera_matrix(0, 0) *= sx;
  out.camera_matrix(1, 1) *= sy;
  out.camera_matrix(0, 1) *= sx;
  out.camera_matrix(0, 2) = (camera.cx() + 0.5) * sx - 0.5;
  out.camera_matrix(1, 2) = (camera.cy() + 0.5) * sy - 0.5;
  out.image_size = new_size;
  return out;
}

}  // namespace diskref::calib
