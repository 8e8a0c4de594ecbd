#include "calibration/camera_model.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "engine/io/atomic_write.h"
#include "engine/io/input_error.h"
#include "engine/model/bounds.h"

namespace diskref::calib {

namespace {

namespace bounds = model::bounds;

// The field of view (degrees) that a focal length of `f` px gives across `side` px.
double field_of_view_deg(double f, int side) {
  return 2 * std::atan(side / (2 * f)) * 180 / std::numbers::pi;
}

std::string size_text(cv::Size s) {
  return std::to_string(s.width) + "x" + std::to_string(s.height);
}

}  // namespace

std::string camera_model_problem(const CameraModel& cam) {
  const cv::Size size = cam.image_size;
  if (!(size.width >= bounds::kMinImageSidePx && size.width <= bounds::kMaxImageSidePx &&
        size.height >= bounds::kMinImageSidePx && size.height <= bounds::kMaxImageSidePx))
    return fmt::format("image_size: {} is not an image size a camera has ({}..{} px a side)", size_text(size),
                       bounds::kMinImageSidePx, bounds::kMaxImageSidePx);
  const cv::Matx33d& k = cam.camera_matrix;
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c)
      if (!std::isfinite(k(r, c))) return "camera_matrix: must hold finite numbers";
  if (k(2, 0) != 0.0 || k(2, 1) != 0.0 || k(2, 2) != 1.0) return "camera_matrix: last row must be [0, 0, 1]";
  if (k(1, 0) != 0.0) return "camera_matrix: the second row must start with 0 ([0, fy, cy])";
  if (!(cam.fx() > 0 && cam.fy() > 0)) return "camera_matrix: focal lengths fx and fy must be > 0";
  const struct {
    const char* name;
    double f;
    int side;
    const char* across;
  } focal[] = {{"fx", cam.fx(), size.width, "wide"}, {"fy", cam.fy(), size.height, "high"}};
  for (const auto& f : focal) {
    const double fov = field_of_view_deg(f.f, f.side);
    if (!(fov >= bounds::kMinFieldOfViewDeg && fov <= bounds::kMaxFieldOfViewDeg))
      return fmt::format(
          "camera_matrix: {} = {:g} px means a field of view of {:.3g} degrees over the {} px {} image: "
          "a lens sees between {:g} and {:g} degrees",
          f.name, f.f, fov, f.side, f.across, bounds::kMinFieldOfViewDeg, bounds::kMaxFieldOfViewDeg);
  }
  const double aspect = cam.fy() / cam.fx();
  if (!(aspect >= 1 / bounds::kMaxPixelAspect && aspect <= bounds::kMaxPixelAspect))
    return fmt::format("camera_matrix: fy / fx = {:.3g}: pixels are not {:g} times taller than wide or wider than tall",
                       aspect, bounds::kMaxPixelAspect);
  if (!(std::fabs(k(0, 1)) <= bounds::kMaxSkewOfFx * cam.fx()))
    return fmt::format("camera_matrix: the skew {:g} is more than {:g} x fx", k(0, 1), bounds::kMaxSkewOfFx);
  if (!(cam.cx() >= -0.5 && cam.cx() <= size.width - 0.5 && cam.cy() >= -0.5 && cam.cy() <= size.height - 0.5))
    return fmt::format("camera_matrix: the principal point ({:g}, {:g}) lies outside the {} image", cam.cx(), cam.cy(),
                       size_text(size));
  const auto& d = cam.dist_coeffs;
  if (std::find(kDistortionCounts.begin(), kDistortionCounts.end(), d.size()) == kDistortionCounts.end())
    return fmt::format("dist_coeffs: has {} coefficients; OpenCV's models have 4, 5, 8, 12 or 14", d.size());
  for (std::size_t i = 0; i < d.size(); ++i) {
    const char* name = distortion_name(i);
    const double limit = name[0] == 'k'   ? bounds::kMaxRadialDistortion
                         : name[0] == 't' ? bounds::kMaxSensorTiltRad
                                          : bounds::kMaxTangentialDistortion;
    if (!(std::fabs(d[i]) <= limit))
      return fmt::format("dist_coeffs: {} = {:g} is beyond any lens (|{}| <= {:g})", name, d[i], name[0], limit);
  }
  if (cam.uncertainty) {
    const UncertaintyGrid& g = *cam.uncertainty;
    if (g.cols < 2 || g.rows < 2 || g.cols > bounds::kMaxUncertaintyGridSide ||
        g.rows > bounds::kMaxUncertaintyGridSide)
      return fmt::format("uncertainty: a grid of {}x{} nodes (2..{} a side)", g.cols, g.rows,
                         bounds::kMaxUncertaintyGridSide);
    if (g.sigma_px.size() != static_cast<std::size_t>(g.cols) * static_cast<std::size_t>(g.rows))
      return fmt::format("uncertainty: sigma_px has {} values for {}x{} nodes", g.sigma_px.size(), g.cols, g.rows);
    for (double v : g.sigma_px)
      if (!(v >= 0 && v <= bounds::kMaxQualityFigure))
        return fmt::format("uncertainty: sigma_px holds {:g} (0..{:g} px)", v, bounds::kMaxQualityFigure);
  }
  return "";
}

const char* distortion_name(std::size_t i) {
  static constexpr std::array<const char*, 14> kNames{"k1", "k2", "p1", "p2", "k3", "k4", "k5",
                                                      "k6", "s1", "s2", "s3", "s4", "tx", "ty"};
  return i < kNames.size() ? kNames[i] : "?";
}

double UncertaintyGrid::at(cv::Point2d pixel, cv::Size image_size) const {
  if (cols < 2 || rows < 2 || sigma_px.size() != static_cast<std::size_t>(cols) * static_cast<std::size_t>(rows))
    return 0.0;
  const double gx = std::clamp(pixel.x / std::max(1, image_size.width - 1), 0.0, 1.0) * (cols - 1);
  const double gy = std::clamp(pixel.y / std::max(1, image_size.height - 1), 0.0, 1.0) * (rows - 1);
  const int c = std::min(static_cast<int>(gx), cols - 2), r = std::min(static_cast<int>(gy), rows - 2);
  const double fx = gx - c, fy = gy - r;
  auto node = [&](int cc, int rr) { return sigma_px[static_cast<std::size_t>(rr * cols + cc)]; };
  return (node(c, r) * (1 - fx) + node(c + 1, r) * fx) * (1 - fy) +
         (node(c, r + 1) * (1 - fx) + node(c + 1, r + 1) * fx) * fy;
}

CameraModel parse_camera_model(const io::JsonCursor& root) {
  CameraModel cam;
  auto size = root.at("image_size");
  size.numbers(2);
  cam.image_size =
      cv::Size(bounds::image_side_px(size.at(std::size_t{0})), bounds::image_side_px(size.at(std::size_t{1})));

  auto k = root.at("camera_matrix");
  if (k.size() != 3) k.fail("must be a 3x3 matrix (3 rows of 3 numbers)");
  for (int r = 0; r < 3; ++r) {
    auto row = k.at(static_cast<std::size_t>(r)).numbers(3);
    for (int c = 0; c < 3; ++c) cam.camera_matrix(r, c) = row[static_cast<std::size_t>(c)];
  }

  auto d = root.at("dist_coeffs");
  if (std::find(kDistortionCounts.begin(), kDistortionCounts.end(), d.size()) == kDistortionCounts.end())
    d.fail("must hold 4, 5, 8, 12 or 14 numbers (OpenCV's k1 k2 p1 p2 [k3 [k4 k5 k6 [s1 s2 s3 s4 [tx ty]]]])");
  cam.dist_coeffs = d.numbers(d.size());
  if (auto rms = root.find("rms_px")) cam.rms_px = bounds::quality_figure(*rms);
  if (auto u = root.find("uncertainty")) {
    u->allow_only({"grid", "sigma_px"});
    auto grid = u->at("grid").numbers(2);
    UncertaintyGrid g;
    for (double v : grid)
      if (!(v >= 2 && v <= bounds::kMaxUncertaintyGridSide && v == std::floor(v)))
        u->at("grid").fail(
            fmt::format("must be two whole numbers 2..{} (nodes across, down)", bounds::kMaxUncertaintyGridSide));
    g.cols = static_cast<int>(grid[0]);
    g.rows = static_cast<int>(grid[1]);
    auto sigma = u->at("sigma_px");
    g.sigma_px = sigma.numbers(static_cast<std::size_t>(g.cols * g.rows));
    cam.uncertainty = std::move(g);
  }
  if (std::string problem = camera_model_problem(cam); !problem.empty()) {
    // "camera_matrix: ..." -> at that member.
    const auto colon = problem.find(": ");
    root.at(problem.substr(0, colon)).fail(problem.substr(colon + 2));
  }
  return cam;
}

std::string camera_fits_image_problem(const CameraModel& camera, cv::Size image_size) {
  if (camera.image_size == image_size || image_size.empty()) return "";
  const double aspect_camera = static_cast<double>(camera.image_size.width) / camera.image_size.height;
  const double aspect_images = static_cast<double>(image_size.width) / image_size.height;
  if (std::fabs(aspect_camera / aspect_images - 1) <= bounds::kAspectTolerance) return "";
  return fmt::format(
      "is {} (aspect {:.3f}), but {{}} is {} (aspect {:.3f}): this camera file is for another camera or "
      "another camera mode (a calibration scales only to the same aspect ratio)",
      size_text(camera.image_size), aspect_camera, size_text(image_size), aspect_images);
}

void check_camera_fits_image(const CameraModel& camera, cv::Size image_size, const std::string& file,
                             const std::string& images) {
  std::string problem = camera_fits_image_problem(camera, image_size);
  if (problem.empty()) return;
  if (auto at = problem.find("{}"); at != std::string::npos) problem.replace(at, 2, images);
  throw io::InputError(file, "image_size", problem);
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
  if (cam.uncertainty) {
    nlohmann::json sigma = nlohmann::json::array();
    // 3 decimals: a thousandth of a pixel is far below any lens's uncertainty.
    for (double v : cam.uncertainty->sigma_px) sigma.push_back(std::round(v * 1000) / 1000);
    out["uncertainty"] = {{"grid", {cam.uncertainty->cols, cam.uncertainty->rows}}, {"sigma_px", sigma}};
  }
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
  if (out.uncertainty)
    for (double& v : out.uncertainty->sigma_px) v *= std::max(sx, sy);  // the grid's nodes keep their places
  return out;
}

}  // namespace diskref::calib
