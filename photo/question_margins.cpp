#include "photo/question_margins.h"

#include <cmath>
#include <numbers>

#include "engine/geometry/distance.h"
#include "engine/geometry/flip_path.h"
#include "engine/geometry/range.h"

namespace diskref::photo {
namespace {

using model::Scene;

std::optional<DecisiveMargin> margin_of(const Scene& scene, const model::RangeQuestion& q) {
  const geom::RangeOutput r =
      geom::range_check(scene.disks[q.from].placed, scene.disks[q.to].placed, q.range_template, q.reach_multiplier);
  return DecisiveMargin{r.margin_mm, r.in_range};
}

std::optional<DecisiveMargin> margin_of(const Scene& scene, const model::OverlapQuestion& q) {
  const double d = geom::signed_distance(scene.disks[q.a].placed, scene.disks[q.b].placed).distance;
  return DecisiveMargin{d, d <= 0};
}

std::optional<DecisiveMargin> margin_of(const Scene& scene, const model::TemplateCheckQuestion& q) {
  const geom::PlacedTemplateCheck c = geom::check_placed_template(scene.disks[q.placed_template].placed,
                                                                  scene.disks[q.from].placed, scene.disks[q.to].placed);
  return DecisiveMargin{c.margin_mm, c.overlaps_both};
}

// As answer_scene moves a disk (engine/model/scene_check.cpp): templates are not in the way.
std::optional<DecisiveMargin> margin_of(const Scene& scene, const model::MoveQuestion& q) {
  geom::FlipInput in;
  in.mover = scene.disks[q.disk].placed;
  in.flips = q.flips;
  in.heading_deg = q.heading_deg;
  in.play_area_mm = scene.play_area_mm;
  for (std::size_t i = 0; i < scene.disks.size(); ++i) {
    const model::SceneDisk& d = scene.disks[i];
    if (static_cast<int>(i) == q.disk || d.kind == model::DiskKind::template_) continue;
    in.others.push_back({d.name, d.placed, d.kind == model::DiskKind::torpedo});
  }
  const geom::FlipOutput out = geom::flip_path(in);
  // "Does it touch anything?" is decided by the smallest separation: it touches when that one is
  // below zero, however far the others are (a move that ends on one ship, 40 mm deep, is not made
  // doubtful by a torpedo it misses by 20 mm).
  std::optional<double> smallest;
  const auto consider = [&](double separation) {
    if (!smallest || separation < *smallest) smallest = separation;
  };
  if (out.nearest_torpedo) consider(out.nearest_torpedo->separation_mm);
  for (const geom::EndOverlap& e : out.end_separations) consider(e.separation_mm);
  if (!smallest) return std::nullopt;
  return DecisiveMargin{*smallest, !out.torpedo_contacts.empty() || !out.end_overlaps.empty()};
}

}  // namespace

std::optional<DecisiveMargin> decisive_margin(const Scene& scene, const model::SceneQuestion& question) {
  return std::visit([&](const auto& q) { return margin_of(scene, q); }, question.question);
}

double margin_sigma(const Scene& scene, const model::SceneQuestion& question, const cv::Mat& covariance) {
  const int n = static_cast<int>(scene.disks.size());
  cv::Mat gradient = cv::Mat::zeros(3 * n, 1, CV_64F);
  Scene moved = scene;
  for (int i = 0; i < n; ++i) {
    for (int k = 0; k < 3; ++k) {
      const int row = 3 * i + k;
      if (covariance.at<double>(row, row) <= 0) continue;  // a disk the question cannot move
      const double step = k < 2 ? 1e-3 : 1e-5;             // mm, radians
      double ends[2] = {0, 0};
      for (int side = 0; side < 2; ++side) {
        const geom::Pose start = scene.disks[std::size_t(i)].placed.pose;
        const double delta = side == 0 ? step : -step;
        geom::Pose pose = start;
        if (k == 0) pose.position.x += delta;
        if (k == 1) pose.position.y += delta;
        if (k == 2)
          pose = geom::Pose::from_degrees(start.position.x, start.position.y,
                                          start.heading_deg() + delta * 180 / std::numbers::pi);
        moved.disks[std::size_t(i)].placed.pose = pose;
        const auto m = decisive_margin(moved, question);
        ends[side] = m ? m->margin_mm : 0;
        moved.disks[std::size_t(i)].placed.pose = start;
      }
      gradient.at<double>(row) = (ends[0] - ends[1]) / (2 * step);
    }
  }
  const cv::Mat variance = gradient.t() * covariance * gradient;
  return std::sqrt(std::max(0.0, variance.at<double>(0)));
}

}  // namespace diskref::photo
