#include "photo/table_from_tags.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <stdexcept>

#include <opencv2/calib3d.hpp>

namespace diskref::photo {
namespace {

// The tag's corners in its own plane frame (x along its +x, y up seen from above), detector order:
// apriltag's (-1,1), (1,1), (1,-1), (-1,-1) have their y pointing down the upright bitmap.
const std::array<cv::Point2d, 4> kUnitCorners{{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}}};

struct Layout {
  bool fit_focal = false;
  bool fit_k1 = false;  // radial distortion, fitted only when the data pin it
  std::size_t reference = 0;
  std::size_t tag_count = 0;
  int first_tag() const { return 6 + (fit_focal ? 1 : 0) + (fit_k1 ? 1 : 0); }
  int k1_index() const { return 6 + (fit_focal ? 1 : 0); }
  int size() const { return first_tag() + 3 * static_cast<int>(tag_count - 1); }
  // Index of the tag's x in the parameters, or -1 for the reference.
  int tag_index(std::size_t tag) const {
    if (tag == reference) return -1;
    const std::size_t slot = tag < reference ? tag : tag - 1;
    return first_tag() + 3 * static_cast<int>(slot);
  }
};

struct Model {
  std::vector<SeenTag> tags;
  Layout layout;
  cv::Point2d principal_point;
  double fixed_focal = 0;           // when not fitted (or the lens's, scaled)
  cv::Matx33d lens_matrix;          // the calibrated lens's matrix, when there is one
  std::vector<double> dist_coeffs;  // empty: none
  bool has_lens = false;
  // A prior on log(focal) (EXIF's focal length): one more residual, (log f - log f0) / sigma times
  // kPriorWeightPx, so that it weighs in pixels as a corner does; parameter_covariance rescales it
  // to the corner noise measured.
  std::optional<double> focal_prior_log;
  double focal_prior_sigma = 0;
  static constexpr double kPriorWeightPx = 0.3;

  int residual_count() const { return static_cast<int>(8 * tags.size()) + (focal_prior_log ? 1 : 0); }

  cv::Matx33d camera_matrix(const cv::Mat& p) const {
    if (has_lens) return lens_matrix;
    const double f = layout.fit_focal ? std::exp(p.at<double>(6)) : fixed_focal;
    return {f, 0, principal_point.x, 0, f, principal_point.y, 0, 0, 1};
  }
  std::vector<double> distortion(const cv::Mat& p) const {
    if (layout.fit_k1) return {p.at<double>(layout.k1_index()), 0, 0, 0};
    return dist_coeffs;
  }
  cv::Vec3d tag_pose(const cv::Mat& p, std::size_t tag) const {
    const int at = layout.tag_index(tag);
    if (at < 0) return {0, 0, 0};
    return {p.at<double>(at), p.at<double>(at + 1), p.at<double>(at + 2)};
  }
  void residuals(const cv::Mat& p, cv::Mat& err) const {
    err.create(residual_count(), 1, CV_64F);
    const cv::Vec3d rvec(p.at<double>(0), p.at<double>(1), p.at<double>(2));
    const cv::Vec3d tvec(p.at<double>(3), p.at<double>(4), p.at<double>(5));
    const cv::Matx33d k = camera_matrix(p);
    std::vector<cv::Point3d> object;
    object.reserve(4 * tags.size());
    for (std::size_t t = 0; t < tags.size(); ++t) {
      const auto corners = tag_corners_on_plane(tag_pose(p, t), tags[t].size_mm, tags[t].height_mm);
      object.insert(object.end(), corners.begin(), corners.end());
    }
    std::vector<cv::Point2d> image;
    cv::projectPoints(object, rvec, tvec, k, distortion(p), image);
    for (std::size_t t = 0; t < tags.size(); ++t) {
      for (std::size_t c = 0; c < 4; ++c) {
        const cv::Point2d d = image[4 * t + c] - tags[t].detection.corners[c];
        err.at<double>(static_cast<int>(8 * t + 2 * c)) = d.x;
        err.at<double>(static_cast<int>(8 * t + 2 * c + 1)) = d.y;
      }
    }
    if (focal_prior_log)
      err.at<double>(residual_count() - 1) = (p.at<double>(6) - *focal_prior_log) / focal_prior_sigma * kPriorWeightPx;
  }
  // Central differences: the residuals are smooth and few (8 per tag).
  void jacobian(const cv::Mat& p, cv::Mat& jac) const {
    jac.create(residual_count(), p.rows, CV_64F);
    cv::Mat plus, minus;
    for (int j = 0; j < p.rows; ++j) {
      const double step = 1e-6 * std::max(1.0, std::abs(p.at<double>(j)));
      cv::Mat q = p.clone();
      q.at<double>(j) += step;
      residuals(q, plus);
      q.at<double>(j) -= 2 * step;
      residuals(q, minus);
      cv::Mat column = (plus - minus) / (2 * step);
      column.copyTo(jac.col(j));
    }
  }
};

class Reprojection : public cv::LMSolver::Callback {
 public:
  explicit Reprojection(const Model& model) : model_(model) {}
  bool compute(cv::InputArray param, cv::OutputArray err, cv::OutputArray jac) const override {
    const cv::Mat p = param.getMat();
    cv::Mat e;
    model_.residuals(p, e);
    e.copyTo(err);
    if (jac.needed()) {
      cv::Mat j;
      model_.jacobian(p, j);
      j.copyTo(jac);
    }
    return true;
  }

 private:
  const Model& model_;
};

// Normalised camera ray through a pixel (undistorted when the lens has distortion).
cv::Vec3d ray_through(const Model& model, const cv::Matx33d& k, const cv::Point2d& pixel) {
  std::vector<cv::Point2d> in{pixel}, out;
  cv::undistortPoints(in, out, k, model.dist_coeffs);
  return {out[0].x, out[0].y, 1.0};
}

// Where a pixel's ray meets the horizontal plane z = height (plane frame).
std::optional<cv::Point2d> on_plane(const Model& model, const cv::Matx33d& k, const cv::Matx33d& r, const cv::Vec3d& t,
                                    const cv::Point2d& pixel, double height) {
  const cv::Vec3d centre = -(r.t() * t);
  const cv::Vec3d direction = r.t() * ray_through(model, k, pixel);
  if (std::abs(direction[2]) < 1e-12) return std::nullopt;
  const double s = (height - centre[2]) / direction[2];
  if (s <= 0) return std::nullopt;
  return cv::Point2d(centre[0] + s * direction[0], centre[1] + s * direction[1]);
}

// The start: the reference tag's own pose by IPPE gives the plane; every other tag is placed where
// its corners' rays meet the plane at its height.
std::optional<cv::Mat> initial_parameters(const Model& model, double focal) {
  const Layout& layout = model.layout;
  cv::Mat p = cv::Mat::zeros(layout.size(), 1, CV_64F);
  if (layout.fit_focal) p.at<double>(6) = std::log(focal);
  const cv::Matx33d k = model.camera_matrix(p);
  const SeenTag& ref = model.tags[layout.reference];
  const double half = ref.size_mm / 2;
  // SOLVEPNP_IPPE_SQUARE's order: (-h, h), (h, h), (h, -h), (-h, -h) = our corners 3, 2, 1, 0.
  const std::vector<cv::Point3d> square{{-half, half, 0}, {half, half, 0}, {half, -half, 0}, {-half, -half, 0}};
  const auto& c = ref.detection.corners;
  const std::vector<cv::Point2d> image{c[3], c[2], c[1], c[0]};
  cv::Vec3d rvec, tvec;
  if (!cv::solvePnP(square, image, k, model.dist_coeffs, rvec, tvec, false, cv::SOLVEPNP_IPPE_SQUARE))
    return std::nullopt;
  cv::Matx33d r;
  cv::Rodrigues(rvec, r);
  tvec -= r * cv::Vec3d(0, 0, ref.height_mm);
  for (int i = 0; i < 3; ++i) {
    p.at<double>(i) = rvec[i];
    p.at<double>(3 + i) = tvec[i];
  }
  for (std::size_t t = 0; t < model.tags.size(); ++t) {
    const int at = layout.tag_index(t);
    if (at < 0) continue;
    std::array<cv::Point2d, 4> corners;
    for (std::size_t i = 0; i < 4; ++i) {
      const auto point = on_plane(model, k, r, tvec, model.tags[t].detection.corners[i], model.tags[t].height_mm);
      if (!point) return std::nullopt;
      corners[i] = *point;
    }
    const cv::Point2d centre = (corners[0] + corners[1] + corners[2] + corners[3]) * 0.25;
    const cv::Point2d x_axis = (corners[1] - corners[0]) + (corners[2] - corners[3]);
    p.at<double>(at) = centre.x;
    p.at<double>(at + 1) = centre.y;
    p.at<double>(at + 2) = std::atan2(x_axis.y, x_axis.x);
  }
  return p;
}

double sum_of_squares(const Model& model, const cv::Mat& p) {
  cv::Mat e;
  model.residuals(p, e);
  return e.dot(e);
}

bool camera_above_plane(const cv::Mat& p) {
  cv::Matx33d r;
  cv::Rodrigues(cv::Vec3d(p.at<double>(0), p.at<double>(1), p.at<double>(2)), r);
  const cv::Vec3d centre = -(r.t() * cv::Vec3d(p.at<double>(3), p.at<double>(4), p.at<double>(5)));
  return centre[2] > 0;
}

// The focal length the tags' homographies imply (Zhang's constraints with the principal point
// known and square pixels: the images of a tag's two axes are perpendicular and equally long), in
// least squares over all tags; nullopt when they do not pin it (seen straight from above).
std::optional<double> focal_from_homographies(const std::vector<SeenTag>& tags, cv::Point2d principal_point) {
  double aa = 0, ab = 0;
  for (const SeenTag& tag : tags) {
    std::vector<cv::Point2d> square, image;
    for (std::size_t c = 0; c < 4; ++c) {
      square.push_back(kUnitCorners[c]);
      image.push_back(tag.detection.corners[c] - principal_point);
    }
    cv::Mat h = cv::findHomography(square, image);
    if (h.empty()) continue;
    h /= cv::norm(h);
    const auto H = [&](int r, int c) { return h.at<double>(r, c); };
    const double a1 = H(0, 0) * H(0, 1) + H(1, 0) * H(1, 1), b1 = H(2, 0) * H(2, 1);
    const double a2 = H(0, 0) * H(0, 0) + H(1, 0) * H(1, 0) - H(0, 1) * H(0, 1) - H(1, 1) * H(1, 1);
    const double b2 = H(2, 0) * H(2, 0) - H(2, 1) * H(2, 1);
    aa += a1 * a1 + a2 * a2;
    ab += a1 * b1 + a2 * b2;
  }
  if (aa <= 0) return std::nullopt;
  const double inverse_square = -ab / aa;
  if (!(inverse_square > 0)) return std::nullopt;
  return 1.0 / std::sqrt(inverse_square);
}

// (J^T J)^-1 through its eigenvalues, a direction the data do not pin given a huge variance
// instead of none (a pseudo-inverse would report it as exactly known).
cv::Mat inverse_information(const cv::Mat& information) {
  cv::Mat values, vectors;
  cv::eigen(information, values, vectors);
  const double largest = std::max(values.at<double>(0), 1e-300);
  cv::Mat inverse_values = cv::Mat::zeros(values.rows, values.rows, CV_64F);
  for (int i = 0; i < values.rows; ++i)
    inverse_values.at<double>(i, i) = 1.0 / std::max(values.at<double>(i), largest * 1e-14);
  return vectors.t() * inverse_values * vectors;
}

struct FitCovariance {
  cv::Mat covariance;  // of the parameters
  double corner_sigma_px = 0;
};

FitCovariance parameter_covariance(const Model& model, const cv::Mat& p, double cost, double floor_px) {
  const int observations = static_cast<int>(8 * model.tags.size());
  const double variance = cost / std::max(1, observations - model.layout.size());
  FitCovariance out;
  out.corner_sigma_px = std::max(floor_px, std::sqrt(variance));
  cv::Mat jac;
  model.jacobian(p, jac);
  cv::Mat information = jac.t() * jac;
  if (model.focal_prior_log) {
    // The prior's row weighs (kPriorWeightPx / sigma)^2; in units of the corner noise measured it
    // is worth (corner_sigma_px / sigma)^2.
    const double sigma = model.focal_prior_sigma, s = out.corner_sigma_px, w = Model::kPriorWeightPx;
    information.at<double>(6, 6) += (s * s - w * w) / (sigma * sigma);
  }
  out.covariance = inverse_information(information) * (out.corner_sigma_px * out.corner_sigma_px);
  return out;
}

}  // namespace

std::array<cv::Point3d, 4> tag_corners_on_plane(const cv::Vec3d& pose, double size_mm, double height_mm) {
  const double c = std::cos(pose[2]), s = std::sin(pose[2]), half = size_mm / 2;
  std::array<cv::Point3d, 4> corners;
  for (std::size_t i = 0; i < 4; ++i) {
    const cv::Point2d u = kUnitCorners[i] * half;
    corners[i] = {pose[0] + c * u.x - s * u.y, pose[1] + s * u.x + c * u.y, height_mm};
  }
  return corners;
}

TablePlacement fit_table(const std::vector<SeenTag>& tags, cv::Size image_size, const TagsFitOptions& options) {
  if (tags.empty()) throw std::invalid_argument("fit_table: no tags");
  Model model;
  model.tags = tags;
  model.layout.tag_count = tags.size();
  // The reference is the tag with the longest edges in the image: its IPPE pose is the surest.
  double longest = -1;
  for (std::size_t t = 0; t < tags.size(); ++t) {
    const auto& c = tags[t].detection.corners;
    const double side = cv::norm(c[0] - c[1]) + cv::norm(c[1] - c[2]) + cv::norm(c[2] - c[3]) + cv::norm(c[3] - c[0]);
    if (side > longest) {
      longest = side;
      model.layout.reference = t;
    }
  }
  model.principal_point = {(image_size.width - 1) / 2.0, (image_size.height - 1) / 2.0};
  const double diagonal = std::hypot(image_size.width, image_size.height);
  std::vector<double> focal_starts;
  FocalSource source = FocalSource::fitted;
  if (options.lens) {
    const calib::CameraModel lens = calib::scaled(*options.lens, image_size);
    model.has_lens = true;
    model.lens_matrix = lens.camera_matrix;
    model.dist_coeffs = lens.dist_coeffs;
    focal_starts = {lens.fx()};
    source = FocalSource::calibration;
  } else if (options.focal_px) {
    model.layout.fit_focal = true;
    model.focal_prior_log = std::log(*options.focal_px);
    model.focal_prior_sigma = options.focal_prior_sigma;
    focal_starts = {*options.focal_px};
    source = FocalSource::exif;
  } else {
    // Phones' main cameras are 22-28 mm equivalent, their zooms 48-120 mm: start from each and
    // keep the best fit, so that no start's basin decides.
    model.layout.fit_focal = true;
    for (double f35 : {18.0, 26.0, 35.0, 50.0, 77.0, 120.0})
      focal_starts.push_back(f35 * diagonal / kFullFrameDiagonalMm);
  }

  if (model.layout.fit_focal) {
    const auto closed_form = focal_from_homographies(tags, model.principal_point);
    if (closed_form && *closed_form > 0.2 * diagonal && *closed_form < 10 * diagonal)
      focal_starts.push_back(*closed_form);
  }
  // Every start placed (cheap), the two that fit best at once refined: a start far from the truth
  // can land IPPE on the wrong one of its two poses and take LM long to leave.
  std::vector<std::pair<double, cv::Mat>> starts;
  for (double focal : focal_starts) {
    if (std::optional<cv::Mat> start = initial_parameters(model, focal)) {
      const double cost = sum_of_squares(model, *start);
      if (std::isfinite(cost)) starts.emplace_back(cost, *start);
    }
  }
  std::sort(starts.begin(), starts.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  if (starts.size() > 2) starts.resize(2);
  const auto solver = cv::LMSolver::create(cv::makePtr<Reprojection>(model), 100, 1e-12);
  cv::Mat best;
  double best_cost = std::numeric_limits<double>::infinity();
  for (auto& [initial_cost, p] : starts) {
    solver->run(p);
    const double cost = sum_of_squares(model, p);
    if (std::isfinite(cost) && cost < best_cost && camera_above_plane(p)) {
      best_cost = cost;
      best = p.clone();
    }
  }
  if (best.empty()) throw std::runtime_error("no camera sees these tags as lying on one plane");

  // A phone corrects its lens itself and leaves little radial distortion: k1 is fitted only when the
  // data pin it (|k1| above 3 sigma, from at least 3 tags), else the simpler model stands.
  if (!model.has_lens && tags.size() >= 3) {
    Model with_k1 = model;
    with_k1.layout.fit_k1 = true;
    cv::Mat p(with_k1.layout.size(), 1, CV_64F);
    for (int i = 0, j = 0; i < p.rows; ++i)
      p.at<double>(i) = i == with_k1.layout.k1_index() ? 0.0 : best.at<double>(j++);
    cv::LMSolver::create(cv::makePtr<Reprojection>(with_k1), 100, 1e-12)->run(p);
    const double cost = sum_of_squares(with_k1, p);
    if (std::isfinite(cost) && cost < best_cost && camera_above_plane(p)) {
      const FitCovariance fit = parameter_covariance(with_k1, p, cost, options.corner_sigma_floor_px);
      const int k = with_k1.layout.k1_index();
      if (std::abs(p.at<double>(k)) > 3 * std::sqrt(fit.covariance.at<double>(k, k))) {
        model = with_k1;
        best = p;
        best_cost = cost;
      }
    }
  }

  TablePlacement placement;
  placement.reference = model.layout.reference;
  placement.focal_source = source;
  placement.camera_matrix = model.camera_matrix(best);
  placement.dist_coeffs = model.distortion(best);
  if (model.layout.fit_k1) placement.radial_k1 = best.at<double>(model.layout.k1_index());
  placement.rvec = {best.at<double>(0), best.at<double>(1), best.at<double>(2)};
  placement.tvec = {best.at<double>(3), best.at<double>(4), best.at<double>(5)};
  for (std::size_t t = 0; t < tags.size(); ++t) placement.tag_poses.push_back(model.tag_pose(best, t));

  const int observations = static_cast<int>(8 * tags.size());
  placement.rms_px = std::sqrt(best_cost / observations);
  const FitCovariance fit = parameter_covariance(model, best, best_cost, options.corner_sigma_floor_px);
  placement.corner_sigma_px = fit.corner_sigma_px;
  const cv::Mat& covariance = fit.covariance;
  const int n = static_cast<int>(tags.size());
  placement.pose_covariance = cv::Mat::zeros(3 * n, 3 * n, CV_64F);
  for (int a = 0; a < n; ++a) {
    const int pa = model.layout.tag_index(static_cast<std::size_t>(a));
    if (pa < 0) continue;
    for (int b = 0; b < n; ++b) {
      const int pb = model.layout.tag_index(static_cast<std::size_t>(b));
      if (pb < 0) continue;
      covariance(cv::Rect(pb, pa, 3, 3)).copyTo(placement.pose_covariance(cv::Rect(3 * b, 3 * a, 3, 3)));
    }
  }
  if (model.layout.fit_focal) {
    placement.focal_sigma_px = std::sqrt(covariance.at<double>(6, 6)) * placement.camera_matrix(0, 0);
  }
  cv::Matx33d r;
  cv::Rodrigues(placement.rvec, r);
  const cv::Vec3d normal_in_camera = r * cv::Vec3d(0, 0, 1);
  placement.tilt_deg = std::acos(std::clamp(-normal_in_camera[2], -1.0, 1.0)) * 180 / std::numbers::pi;
  const cv::Vec3d centre = -(r.t() * placement.tvec);
  placement.distance_mm = cv::norm(centre - cv::Vec3d(0, 0, tags[placement.reference].height_mm));
  return placement;
}

cv::Point2d project_to_photo(const TablePlacement& placement, const cv::Point3d& plane_point) {
  std::vector<cv::Point3d> in{plane_point};
  std::vector<cv::Point2d> out;
  cv::projectPoints(in, placement.rvec, placement.tvec, placement.camera_matrix, placement.dist_coeffs, out);
  return out[0];
}

}  // namespace diskref::photo
