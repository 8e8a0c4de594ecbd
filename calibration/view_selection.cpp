#include "calibration/view_selection.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include <fmt/format.h>

#include "calibration/view_quality.h"

namespace diskref::calib {

std::optional<ViewCandidate> examine_view(const cv::Mat& gray, const cv::Mat& previous_gray, const BoardSpec& board,
                                          const std::string& name, DetectionEffort effort) {
  auto view = detect_board(gray, board, name, effort);
  if (!view) return std::nullopt;
  ViewCandidate candidate{std::move(*view), std::nullopt, std::nullopt};
  candidate.edge_width_px = edge_width_px(gray, candidate.view, board);
  if (!previous_gray.empty()) candidate.motion_px = board_motion_px(previous_gray, gray, candidate.view);
  return candidate;
}

ViewSelection select_views(std::vector<ViewCandidate> candidates, cv::Size image_size,
                           const ViewSelectionOptions& options) {
  ViewSelection out;

  // 1. Moving boards.
  std::vector<ViewCandidate> still;
  for (auto& c : candidates) {
    if (c.motion_px && *c.motion_px > options.max_motion_px)
      out.dropped.push_back({c.view.name, "moving",
                             fmt::format("moving: board moved {:.2f} px since the previous frame (limit {:.2f} px)",
                                         *c.motion_px, options.max_motion_px)});
    else
      still.push_back(std::move(c));
  }

  // 2. Near-duplicates: the sharpest (then the most complete) view of each pose is kept.
  std::map<std::string, std::size_t> input_order;
  for (std::size_t i = 0; i < still.size(); ++i) input_order.emplace(still[i].view.name, i);
  auto width = [](const ViewCandidate& c) { return c.edge_width_px.value_or(std::numeric_limits<double>::max()); };
  std::stable_sort(still.begin(), still.end(), [&](const ViewCandidate& a, const ViewCandidate& b) {
    if (width(a) != width(b)) return width(a) < width(b);
    return a.view.image_points.size() > b.view.image_points.size();
  });
  double diagonal = std::hypot(image_size.width, image_size.height);
  double duplicate_px = options.duplicate_fraction * diagonal;
  for (auto& c : still) {
    const BoardView* twin = nullptr;
    double twin_distance = 0;
    for (const auto& kept : out.kept) {
      auto d = view_distance_px(c.view, kept);
      if (d && *d < duplicate_px && (!twin || *d < twin_distance)) {
        twin = &kept;
        twin_distance = *d;
      }
    }
    if (twin)
      out.dropped.push_back({c.view.name, "near-duplicate",
                             fmt::format("near-duplicate of {} (corners {:.1f} px apart on average, limit {:.1f} px)",
                                         twin->name, twin_distance, duplicate_px)});
    else
      out.kept.push_back(std::move(c.view));
  }

  // 3. Too many views: repeatedly drop the less sharp view of the most alike pair.
  while (static_cast<int>(out.kept.size()) > options.max_views) {
    double closest = std::numeric_limits<double>::max();
    std::size_t drop = out.kept.size() - 1, twin = 0;
    for (std::size_t i = 0; i < out.kept.size(); ++i)
      for (std::size_t j = i + 1; j < out.kept.size(); ++j) {
        auto d = view_distance_px(out.kept[i], out.kept[j]);
        if (d && *d < closest) {
          closest = *d;
          drop = j;  // kept is sharpest first: j is the less sharp of the pair
          twin = i;
        }
      }
    std::string reason = closest < std::numeric_limits<double>::max()
                             ? fmt::format("alike {} ({:.1f} px apart; at most {} views are kept)", out.kept[twin].name,
                                           closest, options.max_views)
                             : "less sharp than the " + std::to_string(options.max_views) + " views kept";
    out.dropped.push_back({out.kept[drop].name, "too many views", reason});
    out.kept.erase(out.kept.begin() + static_cast<std::ptrdiff_t>(drop));
  }
  std::stable_sort(out.kept.begin(), out.kept.end(),
                   [&](const BoardView& a, const BoardView& b) { return input_order[a.name] < input_order[b.name]; });
  return out;
}

}  // namespace diskref::calib
