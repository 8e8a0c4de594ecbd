#include "ui/setup_stages.h"

#include <algorithm>
#include <cmath>
#include <deque>

#include <fmt/format.h>
#include <opencv2/imgproc.hpp>

#include "calibration/uncertainty_map.h"
#include "engine/geometry/outline.h"
#include "setup/calibration_session.h"
#include "setup/disks_check.h"
#include "setup/table_check.h"
#include "ui/calibration_quality.h"
#include "ui/camera_overlay.h"

namespace diskref::ui {
namespace {

constexpr std::size_t kLogLines = 8;

std::vector<Vec2> to_px(const std::vector<cv::Point2d>& points) {
  std::vector<Vec2> out;
  for (const cv::Point2d& p : points) out.push_back({p.x, p.y});
  return out;
}

// Table points (mm, at a height) to raw pixels through a pose.
std::vector<Vec2> project(const calib::CameraPose& pose, const std::vector<Vec2>& table_mm, double height_mm) {
  std::vector<cv::Point3d> pts;
  for (Vec2 p : table_mm) pts.emplace_back(p.x, p.y, height_mm);
  return to_px(calib::image_from_table(pose, pts));
}

// The frame a stage last took, and the start of every view: which step, which frame.
struct StageClock {
  double t = 0;
  long long frame = -1;
  void stamp(const vision::Frame& f) {
    t = f.t;
    frame = f.index;
  }
  StageView start(setup::Step step) const {
    StageView v;
    v.step = step;
    v.frame = frame;
    v.t = t;
    return v;
  }
};

// The table and its corner markers' printed squares in the picture, with a margin.
std::pair<Vec2, Vec2> table_in_picture(const calib::CameraPose& pose, const model::TableSpec& table) {
  std::vector<Vec2> around = play_area_edge_mm(table.play_area_mm, 4);
  for (const model::CornerMarker& m : table.corner_markers)
    for (geom::Vec2 c : m.corners_mm()) around.push_back(m.center_mm + (c - m.center_mm) * 1.8);
  const std::vector<Vec2> px = project(pose, around, 0);
  Vec2 lo = px.front(), hi = px.front();
  for (Vec2 p : px) lo = {std::min(lo.x, p.x), std::min(lo.y, p.y)}, hi = {std::max(hi.x, p.x), std::max(hi.y, p.y)};
  const Vec2 pad = (hi - lo) * 0.04;
  return {lo - pad, hi + pad};
}

// --- Calibration ---------------------------------------------------------------------------------

class CalibrationStage : public SetupStage {
 public:
  explicit CalibrationStage(const print::BoardSpec& board) : board_(board) {}
  setup::Step step() const override { return setup::Step::calibration; }

  void process(const vision::Frame& frame, const cv::Mat& gray, const cv::Mat& previous_gray) override {
    if (!session_ || session_->image_size() != gray.size()) session_.emplace(board_, gray.size());
    clock_.stamp(frame);
    last_ = session_->add_frame(gray, previous_gray, frame.t);
    if (last_.found) {
      // The reason without its figures in brackets: the log is read at a glance.
      std::string text = last_.text.substr(0, last_.text.find(" ("));
      log_.push_back(fmt::format("{:7.2f} s  {}", frame.t, text));
      if (log_.size() > kLogLines) log_.pop_front();
    }
  }

  StageView view() const override {
    StageView v = clock_.start(step());
    v.log.assign(log_.begin(), log_.end());
    v.calibration = calibration_;
    if (!session_) {
      v.advice.push_back(setup::note("waiting for the camera's first picture"));
      return v;
    }
    v.coverage = session_->coverage();
    if (last_.found) {
      const Rgb c = last_.accepted ? colors::kVisible : colors::kStale;
      std::vector<cv::Point2f> hull;
      cv::convexHull(last_.corners, hull);
      OverlayShape outline{{}, c, true, 2.5f, false};
      for (const cv::Point2f& p : hull)
        outline.points_px.push_back({static_cast<double>(p.x), static_cast<double>(p.y)});
      v.shapes.push_back(outline);
      for (const cv::Point2f& p : last_.corners) {
        const double r = 4, x = static_cast<double>(p.x), y = static_cast<double>(p.y);
        v.shapes.push_back({{{x - r, y - r}, {x + r, y - r}, {x + r, y + r}, {x - r, y + r}}, c, true, 1.5f, false});
      }
      const Vec2 top = outline.points_px.empty() ? Vec2{0, 0} : outline.points_px.front();
      v.labels.push_back({{top.x, top.y - 24.0}, c, last_.brief});
    }
    v.figures = {{"views kept", fmt::format("{} ({} wanted)", session_->views_kept(), setup::kWantedViews)},
                 {"of them tilted", fmt::format("{} ({} wanted)", session_->tilted_views(), setup::kWantedTiltedViews)},
                 {"picture under the boards", fmt::format("{:.0f} %", 100 * session_->area_coverage())},
                 {"4 x 4 grid reached", fmt::format("{:.0f} %", 100 * session_->cell_coverage())}};
    if (calibration_) {
      v.figures.push_back(
          {"lens known to", fmt::format("{:.2f} px (central 80 %, 1 sigma)", calibration_->uncertainty_central.p90)});
      v.figures.push_back({"RMS error", fmt::format("{:.3f} px", calibration_->rms_px)});
      v.figures.push_back({"focal length", fmt::format("{:.1f} +- {:.1f} px", calibration_->camera.fx(),
                                                       calibration_->intrinsic_std[0])});
      v.advice.push_back(setup::explain_calibration(*calibration_));
    }
    // Where the lens is known worst, drawn over the picture: from the calibration once made (its
    // fuller model), else from the session's quick fit of the views kept so far.
    const std::optional<calib::WorstKnownRegion> worst =
        calibration_ ? calib::worst_known_ninth(calibration_->camera) : session_->worst_known();
    if (const std::optional<ShowBoardHere> here = show_board_here(worst)) {
      const cv::Rect2d& r = here->rect_px;
      v.shapes.push_back({{{r.x, r.y}, {r.x + r.width, r.y}, {r.x + r.width, r.y + r.height}, {r.x, r.y + r.height}},
                          colors::kTemplate,
                          true,
                          2.5f,
                          true});
      v.labels.push_back({{r.x + kShowBoardHereInsetPx, r.y + kShowBoardHereInsetPx}, colors::kTemplate, here->words});
    }
    if (!refusal_.empty())
      v.advice.push_back(
          setup::problem("cannot calibrate yet: " + refusal_,
                         "show the board in more places, held still, all over the picture, then calibrate again"));
    for (setup::Advice& a : session_->advice(clock_.t, !calibration_))
      if (!calibration_ || a.level != setup::Advice::Level::ok)
        v.advice.push_back(std::move(a));  // once calibrated, only what is still missing
    v.ready = session_->ready();
    return v;
  }

  void calibrate() {
    refusal_.clear();
    calibration_.reset();
    if (!session_) {
      refusal_ = "no picture yet";
      return;
    }
    try {
      calibration_ = session_->calibrate();
    } catch (const calib::CalibrationRefused& e) {
      refusal_ = e.what();
    }
  }
  void restart() {
    session_.reset();
    calibration_.reset();
    refusal_.clear();
    log_.clear();
  }

 private:
  print::BoardSpec board_;
  std::optional<setup::CalibrationSession> session_;
  setup::FrameVerdict last_;
  std::deque<std::string> log_;
  std::optional<calib::LensCalibration> calibration_;
  std::string refusal_;
  StageClock clock_;
};

// --- Table ---------------------------------------------------------------------------------------

class TableStage : public SetupStage {
 public:
  TableStage(const model::TableSpec& table, const std::optional<calib::CameraModel>& lens,
             const model::DiskRegistry& registry)
      : table_(table), registry_(registry), check_(table, lens, &registry_) {}
  setup::Step step() const override { return setup::Step::table; }

  void process(const vision::Frame& frame, const cv::Mat& gray, const cv::Mat&) override {
    check_.add_frame(gray);
    clock_.stamp(frame);
  }

  StageView view() const override {
    StageView v = clock_.start(step());
    v.advice = check_.advice();
    v.ready = check_.ready();
    v.table_pose = check_.pose();
    for (const calib::MarkerObservation& m : check_.markers()) {
      OverlayShape quad{to_px({m.corners_px.begin(), m.corners_px.end()}), colors::kVisible, true, 2.5f, false};
      v.shapes.push_back(quad);
      cv::Point2d c(0, 0);
      for (const cv::Point2d& p : m.corners_px) c += p * 0.25;
      v.labels.push_back({{c.x + 14, c.y - 14}, colors::kVisible, "marker " + std::to_string(m.id)});
    }
    v.figures.push_back({"corner markers found", std::to_string(check_.markers().size()) + " of 4"});
    if (const auto& pose = check_.pose()) {
      v.shapes.push_back(
          {project(*pose, play_area_edge_mm(table_.play_area_mm, 24), 0), colors::kPlayArea, true, 1.5f, false});
      // Where the markers not read should be.
      for (const model::CornerMarker& m : table_.corner_markers) {
        const bool seen =
            std::any_of(check_.markers().begin(), check_.markers().end(), [&](const auto& o) { return o.id == m.id; });
        if (seen) continue;
        std::vector<Vec2> corners;
        for (geom::Vec2 c : m.corners_mm()) corners.push_back(c);
        v.shapes.push_back({project(*pose, corners, 0), colors::kContact, true, 2.0f, true});
        const Vec2 at = project(*pose, {m.center_mm}, 0).front();
        v.labels.push_back({{at.x + 14, at.y - 14}, colors::kContact, "marker " + std::to_string(m.id) + "?"});
      }
      v.focus_px = table_in_picture(*pose, table_);
      v.figures.push_back(
          {"fit", fmt::format("{:.2f} px, {:.2f} mm", pose->reprojection_rms_px, pose->reprojection_rms_mm)});
      v.figures.push_back({"camera height", fmt::format("{:.0f} mm", pose->camera_center_table()[2])});
      v.table.push_back({"markers", "measured", "table file", "difference"});
      for (const calib::MarkerDistanceCheck& d : pose->distance_checks)
        v.table.push_back({fmt::format("{} - {}", d.id_a, d.id_b), fmt::format("{:.1f} mm", d.measured_mm),
                           fmt::format("{:.1f} mm", d.expected_mm),
                           fmt::format("{:+.1f} mm", d.measured_mm - d.expected_mm)});
    }
    return v;
  }

 private:
  model::TableSpec table_;
  model::DiskRegistry registry_;
  setup::TableCheck check_;
  StageClock clock_;
};

// --- Disks ---------------------------------------------------------------------------------------

class DisksStage : public SetupStage {
 public:
  DisksStage(const model::TableSpec& table, const model::DiskRegistry& registry,
             const std::optional<calib::CameraModel>& lens)
      : table_(table), registry_(registry), check_(table, registry, lens) {}
  setup::Step step() const override { return setup::Step::disks; }

  void process(const vision::Frame& frame, const cv::Mat&, const cv::Mat&) override {
    check_.add_frame(frame.image, frame.index, frame.t);
    clock_.stamp(frame);
  }

  StageView view() const override {
    StageView v = clock_.start(step());
    v.advice = check_.advice();
    v.ready = check_.ready();
    v.offsets = check_.suggested_offsets();
    const vision::TrackerResult& r = check_.last();
    v.table.push_back({"disk", "kind", "faces seen", "px per cell", "flips"});
    int seen = 0;
    for (std::size_t i = 0; i < check_.disks().size(); ++i) {
      const setup::DiskSeen& d = check_.disks()[i];
      seen += d.seen();
      v.table.push_back({d.name, std::string(model::to_string(d.kind)),
                         d.seen_up && d.seen_down ? "up, down"
                         : d.seen_up              ? "up"
                         : d.seen_down            ? "down"
                                                  : "NOT SEEN",
                         d.px_per_cell > 0 ? fmt::format("{:.1f}", d.px_per_cell) : "",
                         d.flip_disagreement_deg.empty() ? "" : std::to_string(d.flip_disagreement_deg.size())});
      if (!r.table_pose || !d.now || !d.now->x || !d.now->y || !d.now->heading) continue;
      const model::DiskSpec& spec = registry_.disks()[i];
      const geom::Pose pose = geom::Pose::from_degrees(*d.now->x, *d.now->y, *d.now->heading);
      const Rgb colour = state_color(*d.now);
      v.shapes.push_back({project(*r.table_pose, geom::outline_polygon({spec.shape, pose}, 8.0), spec.thickness_mm),
                          colour, true, 2.0f, d.now->state != model::TrackState::visible});
      const Vec2 at = project(*r.table_pose, {pose.position}, spec.thickness_mm).front();
      v.labels.push_back({{at.x - 3.5 * static_cast<double>(d.name.size()), at.y + 12}, colour, d.name});
    }
    // Tags refused for their size: outlined in red where they were read.
    for (const vision::DetectionRecord& d : r.detections)
      if (d.rejected == vision::RejectReason::wrong_size)
        v.shapes.push_back({to_px({d.tag.corners.begin(), d.tag.corners.end()}), colors::kContact, true, 2.5f, false});
    if (r.table_pose) {
      v.shapes.push_back({project(*r.table_pose, play_area_edge_mm(table_.play_area_mm, 24), 0), colors::kPlayArea,
                          true, 1.0f, false});
      v.focus_px = table_in_picture(*r.table_pose, table_);
    }
    v.figures.push_back({"disks seen", fmt::format("{} of {}", seen, check_.disks().size())});
    return v;
  }

 private:
  model::TableSpec table_;
  model::DiskRegistry registry_;
  setup::DisksCheck check_;
  StageClock clock_;
};

}  // namespace

std::unique_ptr<SetupStage> make_calibration_stage(const print::BoardSpec& board) {
  return std::make_unique<CalibrationStage>(board);
}

std::unique_ptr<SetupStage> make_table_stage(const model::TableSpec& table,
                                             const std::optional<calib::CameraModel>& lens,
                                             const model::DiskRegistry& registry) {
  return std::make_unique<TableStage>(table, lens, registry);
}

std::unique_ptr<SetupStage> make_disks_stage(const model::TableSpec& table, const model::DiskRegistry& registry,
                                             const std::optional<calib::CameraModel>& lens) {
  return std::make_unique<DisksStage>(table, registry, lens);
}

void calibrate_now(SetupStage& stage) {
  if (auto* c = dynamic_cast<CalibrationStage*>(&stage)) c->calibrate();
}

void restart_calibration(SetupStage& stage) {
  if (auto* c = dynamic_cast<CalibrationStage*>(&stage)) c->restart();
}

}  // namespace diskref::ui
