#include "setup/calibration_session.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <stdexcept>

#include <fmt/format.h>
#include <opencv2/calib3d.hpp>

#include "calibration/uncertainty_map.h"
#include "calibration/view_quality.h"

namespace diskref::setup {
namespace {

constexpr std::size_t kRecent = 12;
// A view counts as tilted from this angle between the board's plane and the picture's.
constexpr double kTiltedDeg = 20;
// At most this many views are kept while collecting (select_views thins them to 40 for the fit).
constexpr int kMaxCollected = 60;

// Whether the board is seen tilted: its plane turned by at least kTiltedDeg from facing the camera,
// from the board's pose fitted to its corners with a pinhole of a typical webcam's focal length
// (the lens is what is being measured; a focal length 30 % off changes the angle by a few degrees).
bool is_tilted(const calib::BoardView& v, cv::Size image) {
  if (v.image_points.size() < 6) return false;
  const double f = 0.8 * std::max(image.width, image.height);
  const cv::Matx33d k(f, 0, (image.width - 1) / 2.0, 0, f, (image.height - 1) / 2.0, 0, 0, 1);
  cv::Mat rvec, tvec;
  if (!cv::solvePnP(v.object_points, v.image_points, k, cv::noArray(), rvec, tvec, false, cv::SOLVEPNP_IPPE))
    return false;
  cv::Matx33d r;
  cv::Rodrigues(rvec, r);
  // The board's normal (its z axis) in the camera frame against the optical axis.
  return std::acos(std::clamp(std::fabs(r(2, 2)), 0.0, 1.0)) * 180 / CV_PI >= kTiltedDeg;
}

}  // namespace

calib::BoardSpec calibration_board(const print::BoardSpec& b) {
  if (b.type == print::BoardSpec::Type::chessboard) return calib::ChessboardSpec{{b.cols, b.rows}, b.square_mm};
  if (b.aruco_dictionary != cv::aruco::DICT_5X5_100)
    throw std::invalid_argument("the setup's ChArUco boards use DICT_5X5_100 (the dictionary diskref tags prints)");
  return calib::CharucoSpec{{b.cols, b.rows}, b.square_mm, b.marker_mm, "DICT_5X5_100"};
}

CalibrationSession::CalibrationSession(const print::BoardSpec& board, cv::Size image_size)
    : board_(calibration_board(board)), image_size_(image_size) {
  calib::validate_board(board_);
}

FrameVerdict CalibrationSession::add_frame(const cv::Mat& gray, const cv::Mat& previous, double t) {
  FrameVerdict v;
  v.t = t;
  if (first_t_ < 0) first_t_ = t;
  ++frames_;
  const std::string name = fmt::format("{:.2f} s", t);
  auto candidate = calib::examine_view(gray, previous, board_, name, calib::DetectionEffort::fast);
  if (!candidate) {
    v.text = v.brief = "no board found";
    recent_.push_back(v);
    if (recent_.size() > kRecent) recent_.erase(recent_.begin());
    return v;
  }
  v.found = true;
  last_found_t_ = t;
  ++views_found_;
  v.corners = candidate->view.image_points;
  // Judged with the views kept so far, by the calibration's own rules.
  std::vector<calib::ViewCandidate> trial = kept_;
  trial.push_back(*candidate);
  calib::ViewSelectionOptions options;
  options.max_views = kMaxCollected;
  calib::ViewSelection selection = calib::select_views(trial, image_size_, options);
  auto dropped = std::find_if(selection.dropped.begin(), selection.dropped.end(),
                              [&](const calib::DroppedView& d) { return d.name == name; });
  if (dropped != selection.dropped.end()) {
    v.text = "not kept: " + dropped->reason;
    v.brief = "not kept: " + dropped->kind;
  } else {
    v.accepted = true;
    // The views kept now (the new one may have pushed out a blurrier twin).
    std::vector<calib::ViewCandidate> now;
    for (const calib::BoardView& kept : selection.kept)
      for (const calib::ViewCandidate& c : trial)
        if (c.view.name == kept.name) now.push_back(c);
    const bool replaced = now.size() <= kept_.size();
    kept_ = std::move(now);
    v.text = replaced ? "kept instead of a blurrier view of the same place"
                      : fmt::format("kept: view {}{}", kept_.size(),
                                    static_cast<int>(kept_.size()) < kWantedViews
                                        ? fmt::format(" of the {} wanted", kWantedViews)
                                        : "");
    if (is_tilted(candidate->view, image_size_)) v.text += ", tilted";
    update_worst_region();
    v.brief = replaced ? "kept (sharper)" : fmt::format("kept: view {}", kept_.size());
  }
  recent_.push_back(v);
  if (recent_.size() > kRecent) recent_.erase(recent_.begin());
  return v;
}

void CalibrationSession::update_worst_region() {
  if (views_kept() < kWorstRegionViews) return;
  std::vector<calib::BoardView> views;
  for (const calib::ViewCandidate& c : kept_) views.push_back(c.view);
  try {
    // One quick fit (k1 k2 p1 p2 k3, no cross-validation): enough to see where the lens is least known.
    const calib::LensFit fit = calib::fit_lens(views, image_size_, calib::LensModel::k3);
    calib::CameraModel lens = fit.camera;
    lens.uncertainty = calib::uncertainty_grid(lens, calib::lens_covariance(fit, views), 9, 6);
    worst_ = calib::worst_known_ninth(lens);
    worst_region_ = worst_ ? worst_->name : "";
    worst_sigma_px_ = worst_ ? worst_->max_sigma_px : 0.0;
  } catch (const calib::LensFitFailed&) {
    // Views too alike to fit yet: nothing to say.
  }
}

int CalibrationSession::tilted_views() const {
  int n = 0;
  for (const calib::ViewCandidate& c : kept_) n += is_tilted(c.view, image_size_);
  return n;
}

cv::Mat CalibrationSession::coverage() const {
  cv::Mat map = cv::Mat::zeros(kCoverageRows, kCoverageColumns, CV_32S);
  for (const calib::ViewCandidate& c : kept_)
    for (const cv::Point2f& p : c.view.image_points) {
      const int col = std::clamp(
          static_cast<int>(static_cast<double>(p.x) * kCoverageColumns / static_cast<double>(image_size_.width)), 0,
          kCoverageColumns - 1);
      const int row = std::clamp(
          static_cast<int>(static_cast<double>(p.y) * kCoverageRows / static_cast<double>(image_size_.height)), 0,
          kCoverageRows - 1);
      ++map.at<int>(row, col);
    }
  return map;
}

namespace {
std::vector<calib::BoardView> views_of(const std::vector<calib::ViewCandidate>& kept) {
  std::vector<calib::BoardView> out;
  for (const calib::ViewCandidate& c : kept) out.push_back(c.view);
  return out;
}
}  // namespace

double CalibrationSession::area_coverage() const {
  return calib::image_coverage(views_of(kept_), image_size_);
}
double CalibrationSession::cell_coverage() const {
  return calib::corner_cell_coverage(views_of(kept_), image_size_, 4);
}

bool CalibrationSession::ready() const {
  const calib::LensCalibrationOptions o;
  return views_kept() >= kWantedViews && tilted_views() >= kWantedTiltedViews &&
         area_coverage() >= o.min_area_coverage && cell_coverage() >= std::max(o.min_cell_coverage, 0.75);
}

std::vector<Advice> CalibrationSession::advice(double now_t, bool with_worst_region) const {
  std::vector<Advice> out;
  const std::string board = calib::describe_board(board_);
  if (frames_ > 0 && now_t - std::max(first_t_, last_found_t_) >= kNoBoardSayAfterS)
    out.push_back(problem(last_found_t_ < 0 ? fmt::format("no board found in {:.0f} s of pictures", now_t - first_t_)
                                            : fmt::format("no board found for {:.0f} s", now_t - last_found_t_),
                          "hold the printed board (" + board +
                              ") in front of the camera, whole, flat and evenly lit (no glare); "
                              "is it the board this kit printed? A chessboard must be seen whole; hold it nearer the "
                              "camera if its squares "
                              "look tiny"));
  out.push_back(views_kept() >= kWantedViews
                    ? ok(fmt::format("{} views kept", views_kept()))
                    : note(fmt::format("{} of {} views kept", views_kept(), kWantedViews),
                           "hold the board still for a moment in each new place, then move it on"));
  const int tilted = tilted_views();
  if (views_kept() > 0)
    out.push_back(tilted >= kWantedTiltedViews
                      ? ok(fmt::format("{} views tilted", tilted))
                      : note(fmt::format("{} of {} tilted views", tilted, kWantedTiltedViews),
                             "tilt the board by about 30 degrees, one way and then another: a board seen only face-on "
                             "cannot measure the lens's focal length"));
  // Where corners are still missing, from the 4 x 4 grid the calibration measures, in words.
  if (views_kept() > 0) {
    const cv::Mat map = coverage();
    std::vector<std::string> empty;
    for (int row = 0; row < kCoverageRows; ++row)
      for (int col = 0; col < kCoverageColumns; ++col)
        if (map.at<int>(row, col) == 0) {
          const std::string where = calib::image_region_name(col, row, kCoverageColumns, kCoverageRows);
          if (std::find(empty.begin(), empty.end(), where) == empty.end()) empty.push_back(where);
        }
    if (empty.empty()) {
      out.push_back(ok("corners seen all over the picture"));
    } else {
      std::string list;
      for (std::size_t i = 0; i < empty.size(); ++i)
        list += (i == 0 ? "" : i + 1 == empty.size() ? " and " : ", ") + empty[i];
      out.push_back(note("no corners yet in the picture's " + list + " (dark cells of the map)",
                         "hold the board there too, its corners close to the picture's edge: the lens bends most at "
                         "the edges"));
    }
  }
  if (with_worst_region && !worst_region_.empty())
    out.push_back(worst_sigma_px_ < 0.5
                      ? ok(fmt::format("the lens is known within {:.2f} px everywhere so far", worst_sigma_px_))
                      : note(fmt::format("the lens is known worst at the picture's {} so far ({:.1f} px)",
                                         worst_region_, worst_sigma_px_),
                             "show the board there, its corners close to the picture's edge, held still"));
  if (ready()) out.push_back(ok("enough views to calibrate (more views all over the picture do no harm)"));
  return out;
}

calib::LensCalibration CalibrationSession::calibrate() const {
  calib::ViewSelection selection = calib::select_views(kept_, image_size_);
  return calib::calibrate_lens(selection.kept, image_size_);
}

Advice explain_calibration(const calib::LensCalibration& c) {
  // Judged by what the lens predicts, not by how well it fits: the projection uncertainty over
  // the central 80 % of the picture (where the table is), 90th percentile.
  const double sigma = c.uncertainty_central.p90;
  const std::string worst = calib::worst_known_region(c.camera);
  const std::string known = fmt::format(
      "the lens ({}) places a point of the central 80 % of the picture within {:.2f} px (1 sigma, 90 % of the "
      "picture; {:.2f} px at worst, {:.2f} px over the whole picture at worst); {} views, corner noise {:.3f} px "
      "(RMS {:.3f} px)",
      calib::lens_model_name(c.model), sigma, c.uncertainty_central.max, c.uncertainty_whole.max, c.views.size(),
      c.covariance.corner_sigma_px, c.rms_px);
  const std::string there = worst.empty() ? "" : "; known worst at the picture's " + worst;
  if (sigma < 0.2) return ok("excellent: " + known + there);
  if (sigma < 0.5) return ok("good: " + known + there);
  const std::string fix = "show the board more" + (worst.empty() ? std::string() : " at the picture's " + worst) +
                          ", held still and tilted, then calibrate again";
  if (sigma < 1.0) return note("acceptable: " + known + there, fix);
  return problem(
      "poor: " + known + there + ": too few views, or the board moved, bent, or was printed at the wrong scale",
      fix + "; the board glued flat on card, evenly lit, no glare; check the 100 mm bar of its sheet");
}

}  // namespace diskref::setup
