#include "calibration/pinhole_from_plane.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include <opencv2/calib3d.hpp>

namespace diskref::calib {
namespace {

// Weights of the fit: the data's pixel noise (a tag corner's, roughly) and the priors: the focal
// length within a factor of 1.5 (one sigma), square pixels within 0.5 %, the principal point within
// 3 % of the image's longer side of its centre. The priors only decide what the markers leave open:
// a homography has 8 degrees of freedom, this pinhole 10, so any view of the plane is fitted
// exactly and the priors choose among the pinholes that do.
constexpr double kPixelSigma = 0.3;
constexpr double kLogFocalSigma = 0.4;
constexpr double kLogAspectSigma = 0.005;
constexpr double kPrincipalSigmaFraction = 0.03;

// Parameters: log f, log(fy / fx), cx, cy, Rodrigues rotation (3), translation (3).
constexpr int kParams = 10;
constexpr int kPriors = 4;

cv::Matx33d pinhole(const cv::Mat& p) {
  double fx = std::exp(p.at<double>(0)), fy = fx * std::exp(p.at<double>(1));
  return {fx, 0, p.at<double>(2), 0, fy, p.at<double>(3), 0, 0, 1};
}

cv::Point2d image_centre(cv::Size size) {
  return {(size.width - 1) / 2.0, (size.height - 1) / 2.0};
}

// Zhang's two constraints on the image of the absolute conic, with the principal point known and
// square pixels: a least-squares closed form for 1 / f^2. nullopt when the plane shows no
// perspective (seen straight on) or the constraints disagree in sign.
std::optional<double> focal_from_homography(const cv::Matx33d& plane_to_image, cv::Point2d principal) {
  cv::Matx33d centred = cv::Matx33d(1, 0, -principal.x, 0, 1, -principal.y, 0, 0, 1) * plane_to_image;
  double h11 = centred(0, 0), h21 = centred(1, 0), h31 = centred(2, 0);
  double h12 = centred(0, 1), h22 = centred(1, 1), h32 = centred(2, 1);
  // r1 . r2 = 0 and |r1| = |r2|, each of the form a * w + b = 0 with w = 1 / f^2.
  double a1 = h11 * h12 + h21 * h22, b1 = h31 * h32;
  double a2 = h11 * h11 + h21 * h21 - h12 * h12 - h22 * h22, b2 = h31 * h31 - h32 * h32;
  double denominator = a1 * a1 + a2 * a2;
  if (denominator <= 0) return std::nullopt;
  double w = -(a1 * b1 + a2 * b2) / denominator;
  if (!(w > 0) || !std::isfinite(w)) return std::nullopt;
  return 1.0 / std::sqrt(w);
}

class PinholeResiduals : public cv::LMSolver::Callback {
 public:
  PinholeResiduals(const std::vector<cv::Point3d>& plane, const std::vector<cv::Point2d>& image, cv::Size size)
      : plane_(plane),
        image_(image),
        centre_(image_centre(size)),
        prior_log_focal_(std::log(prior_focal_px(size))),
        principal_sigma_(kPrincipalSigmaFraction * std::max(size.width, size.height)) {}

  bool compute(cv::InputArray param, cv::OutputArray err, cv::OutputArray jacobian) const override {
    cv::Mat p = param.getMat();
    cv::Matx33d k = pinhole(p);
    std::vector<cv::Point2d> projected;
    cv::Mat proj_jacobian;  // columns: rvec 0-2, tvec 3-5, fx 6, fy 7, cx 8, cy 9
    cv::projectPoints(plane_, p.rowRange(4, 7), p.rowRange(7, 10), cv::Mat(k), cv::noArray(), projected, proj_jacobian);
    int n = static_cast<int>(projected.size());
    err.create(2 * n + kPriors, 1, CV_64F);
    cv::Mat e = err.getMat();
    for (int i = 0; i < n; ++i) {
      auto u = static_cast<std::size_t>(i);
      e.at<double>(2 * i) = (projected[u].x - image_[u].x) / kPixelSigma;
      e.at<double>(2 * i + 1) = (projected[u].y - image_[u].y) / kPixelSigma;
    }
    e.at<double>(2 * n) = (p.at<double>(0) - prior_log_focal_) / kLogFocalSigma;
    e.at<double>(2 * n + 1) = p.at<double>(1) / kLogAspectSigma;
    e.at<double>(2 * n + 2) = (p.at<double>(2) - centre_.x) / principal_sigma_;
    e.at<double>(2 * n + 3) = (p.at<double>(3) - centre_.y) / principal_sigma_;
    if (jacobian.needed()) {
      jacobian.create(2 * n + kPriors, kParams, CV_64F);
      cv::Mat j = jacobian.getMat();
      j.setTo(0);
      double fx = k(0, 0), fy = k(1, 1);
      for (int r = 0; r < 2 * n; ++r) {
        auto d = [&](int column) { return proj_jacobian.at<double>(r, column) / kPixelSigma; };
        j.at<double>(r, 0) = fx * d(6) + fy * d(7);  // fx = f, fy = f e^a
        j.at<double>(r, 1) = fy * d(7);
        j.at<double>(r, 2) = d(8);
        j.at<double>(r, 3) = d(9);
        for (int c = 0; c < 6; ++c) j.at<double>(r, 4 + c) = d(c);
      }
      j.at<double>(2 * n, 0) = 1.0 / kLogFocalSigma;
      j.at<double>(2 * n + 1, 1) = 1.0 / kLogAspectSigma;
      j.at<double>(2 * n + 2, 2) = 1.0 / principal_sigma_;
      j.at<double>(2 * n + 3, 3) = 1.0 / principal_sigma_;
    }
    return true;
  }

 private:
  const std::vector<cv::Point3d>& plane_;
  const std::vector<cv::Point2d>& image_;
  cv::Point2d centre_;
  double prior_log_focal_;
  double principal_sigma_;
};

double squared_norm(const cv::Mat& m) {
  return m.dot(m);
}

}  // namespace

double prior_focal_px(cv::Size image_size) {
  return 0.75 * std::max(image_size.width, image_size.height);
}

std::optional<PlanarPinholeFit> fit_pinhole_to_plane(const std::vector<cv::Point3d>& plane_points,
                                                     const std::vector<cv::Point2d>& image_points,
                                                     cv::Size image_size) {
  CV_Assert(plane_points.size() == image_points.size() && plane_points.size() >= 4);
  cv::Point2d centre = image_centre(image_size);
  double prior_focal = prior_focal_px(image_size);

  // Starts: the prior's focal length, and the one the plane's perspective gives (when it does).
  std::vector<cv::Point2d> plane_xy;
  for (const auto& p : plane_points) plane_xy.emplace_back(p.x, p.y);
  cv::Mat homography = cv::findHomography(plane_xy, image_points, 0);
  std::vector<double> starts{prior_focal};
  if (!homography.empty())
    if (auto f = focal_from_homography(cv::Matx33d(homography), centre)) starts.push_back(*f);

  auto residuals = cv::makePtr<PinholeResiduals>(plane_points, image_points, image_size);
  auto solver = cv::LMSolver::create(residuals, 300);
  std::optional<PlanarPinholeFit> best;
  double best_cost = std::numeric_limits<double>::max();
  for (double focal : starts) {
    cv::Mat params = cv::Mat::zeros(kParams, 1, CV_64F);
    params.at<double>(0) = std::log(focal);
    params.at<double>(2) = centre.x;
    params.at<double>(3) = centre.y;
    cv::Mat rvec, tvec;
    if (!cv::solvePnP(plane_points, image_points, cv::Mat(pinhole(params)), cv::noArray(), rvec, tvec, false,
                      cv::SOLVEPNP_IPPE))
      continue;
    rvec.reshape(1, 3).copyTo(params.rowRange(4, 7));
    tvec.reshape(1, 3).copyTo(params.rowRange(7, 10));
    solver->run(params);
    cv::Mat err, jacobian;
    residuals->compute(params, err, jacobian);
    double cost = squared_norm(err);
    if (cost >= best_cost || params.at<double>(9) <= 0) continue;
    best_cost = cost;
    best.emplace();
    best->camera_matrix = pinhole(params);
    best->rvec = cv::Vec3d(params.at<double>(4), params.at<double>(5), params.at<double>(6));
    best->tvec = cv::Vec3d(params.at<double>(7), params.at<double>(8), params.at<double>(9));
    // The data's own information on log f, every other parameter marginalised out (Schur
    // complement, the other priors kept), against the focal prior's.
    cv::Mat normal = jacobian.t() * jacobian;
    normal.at<double>(0, 0) -= 1.0 / (kLogFocalSigma * kLogFocalSigma);
    cv::Mat rest = normal(cv::Range(1, kParams), cv::Range(1, kParams));
    cv::Mat cross = normal(cv::Range(0, 1), cv::Range(1, kParams));
    double information = normal.at<double>(0, 0) - cv::Mat(cross * rest.inv(cv::DECOMP_SVD) * cross.t()).at<double>(0);
    best->focal_information_ratio = std::sqrt(std::max(0.0, information)) * kLogFocalSigma;
  }
  return best;
}

}  // namespace diskref::calib
